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
    /// A file the scenario names (an autoscale `csv` workload) cannot be used; the error
    /// names the scenario field and, for bad content, `file:line`.
    #[error("{origin}: {error}")]
    Linked {
        /// The scenario file.
        origin: String,
        /// The field and what is wrong.
        error: engine::ConfigError,
    },
}

fn read(path: &Path) -> Result<String, FileError> {
    std::fs::read_to_string(path).map_err(|source| FileError::Read {
        path: path.display().to_string(),
        source,
    })
}

/// Replaces every autoscale `csv` workload of `scenario` by the trace its file holds; file
/// names are relative to the folder of the scenario file `origin`.
fn resolve_files(scenario: &mut Scenario, origin: &Path) -> Result<(), FileError> {
    let folder = origin.parent().unwrap_or_else(|| Path::new(""));
    scenario
        .autoscale
        .resolve_csv(|file| std::fs::read_to_string(folder.join(file)))
        .map_err(|error| FileError::Linked {
            origin: origin.display().to_string(),
            error,
        })
}

/// Loads `path`, or the shipped demo when `path` is `None` (from disk if present, else the
/// embedded copy). Returns the scenario and the name to show for it. Files the scenario
/// names (autoscale `csv` workloads) are read relative to the scenario file.
pub fn load_scenario(path: Option<&Path>) -> Result<(Scenario, String), FileError> {
    match path {
        Some(p) => {
            let origin = p.display().to_string();
            let text = read(p)?;
            let mut scenario = Scenario::from_toml_str(&text, &origin)?;
            resolve_files(&mut scenario, p)?;
            Ok((scenario, origin))
        }
        None => {
            let on_disk = Path::new(DEMO_PATH);
            let text = if on_disk.is_file() {
                read(on_disk)?
            } else {
                DEMO.to_owned()
            };
            let mut scenario = Scenario::from_toml_str(&text, DEMO_PATH)?;
            resolve_files(&mut scenario, Path::new(DEMO_PATH))?;
            Ok((scenario, DEMO_PATH.to_owned()))
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
