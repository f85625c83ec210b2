//! Reading scenario and action files from disk (the engine parses text only).

use std::path::Path;

use engine::{Scenario, TimedAction};

/// The shipped demo estate, embedded so the binary runs from any folder.
pub const DEMO: &str = include_str!("../../scenarios/demo.toml");
/// The path the demo is shipped at.
pub const DEMO_PATH: &str = "scenarios/demo.toml";

/// Why a file could not be used; the message names the file (and line and field when the
/// content is at fault).
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file could not be read.
    #[error("{path}: cannot read: {source}")]
    Read {
        /// The file.
        path: String,
        /// The IO error.
        source: std::io::Error,
    },
    /// The content is invalid.
    #[error("{0}")]
    Invalid(#[from] engine::ScenarioError),
}

fn read(path: &Path) -> Result<String, FileError> {
    std::fs::read_to_string(path).map_err(|source| FileError::Read {
        path: path.display().to_string(),
        source,
    })
}

/// Loads `path`, or the shipped demo when `path` is `None` (from disk if present, else the
/// embedded copy). Returns the scenario and the name to show for it.
pub fn load_scenario(path: Option<&Path>) -> Result<(Scenario, String), FileError> {
    match path {
        Some(p) => {
            let origin = p.display().to_string();
            let text = read(p)?;
            Ok((Scenario::from_toml_str(&text, &origin)?, origin))
        }
        None => {
            let on_disk = Path::new(DEMO_PATH);
            let text = if on_disk.is_file() {
                read(on_disk)?
            } else {
                DEMO.to_owned()
            };
            Ok((
                Scenario::from_toml_str(&text, DEMO_PATH)?,
                DEMO_PATH.to_owned(),
            ))
        }
    }
}

/// Loads an actions file validated against `scenario`.
pub fn load_actions(path: &Path, scenario: &Scenario) -> Result<Vec<TimedAction>, FileError> {
    let text = read(path)?;
    Ok(engine::parse_actions(
        &text,
        &path.display().to_string(),
        scenario,
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_demo_parses() {
        let scenario = Scenario::from_toml_str(DEMO, DEMO_PATH).expect("demo parses");
        assert!(!scenario.scenario.name.is_empty());
    }

    #[test]
    fn a_missing_file_is_named() {
        let err = load_scenario(Some(Path::new("no/such/file.toml"))).expect_err("missing file");
        assert!(
            err.to_string()
                .starts_with("no/such/file.toml: cannot read"),
            "{err}"
        );
    }
}
