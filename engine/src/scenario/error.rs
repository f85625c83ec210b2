//! Errors of scenario files.
//!
//! Policy: every error names the file, the line and column, the field as a key path
//! (`lms.servers[1].zone`) and says what is allowed. Syntax and type errors come from the TOML
//! parser (located by its byte span); semantic errors come from the sections' `validate()`
//! as a [`ConfigError`] (a key path), which the parser then locates in the source.

use core::fmt;

/// One step of a [`FieldPath`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PathSegment {
    /// A table key.
    Key(String),
    /// An array index (0-based, as in the file's order).
    Index(usize),
}

/// A key path into a scenario document, displayed as `lms.servers[1].zone`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FieldPath(pub Vec<PathSegment>);

impl FieldPath {
    /// The path of a top-level key.
    pub fn root(key: &str) -> FieldPath {
        FieldPath(vec![PathSegment::Key(key.to_owned())])
    }

    /// This path followed by `key`.
    pub fn key(&self, key: &str) -> FieldPath {
        let mut next = self.clone();
        next.0.push(PathSegment::Key(key.to_owned()));
        next
    }

    /// This path followed by array index `i`.
    pub fn index(&self, i: usize) -> FieldPath {
        let mut next = self.clone();
        next.0.push(PathSegment::Index(i));
        next
    }

    /// Whether the path has no segment (the document itself).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                PathSegment::Key(k) if i == 0 => f.write_str(k)?,
                PathSegment::Key(k) => write!(f, ".{k}")?,
                PathSegment::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

/// A semantic error in a configuration section: which field, and what is wrong with it.
/// Produced by the `validate()` methods, which know nothing of files and lines.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct ConfigError {
    /// The offending field.
    pub path: FieldPath,
    /// What is wrong and what is allowed.
    pub message: String,
}

impl ConfigError {
    /// An error about the field at `path`.
    pub fn new(path: FieldPath, message: impl Into<String>) -> ConfigError {
        ConfigError {
            path,
            message: message.into(),
        }
    }
}

/// An error in a scenario or actions file, displayed as
/// `{origin}:{line}:{column}: {field}: {message}`, e.g.
/// `scenarios/bad.toml:14:9: lms.servers[1].zone: unknown zone "z9" (known: z1, z2)`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{origin}:{line}:{column}: {field}: {message}")]
pub struct ScenarioError {
    /// The file name given by the caller.
    pub origin: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// The key path of the offending field, or `(syntax)` for a TOML syntax error.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_display_like_toml_keys() {
        let p = FieldPath::root("lms").key("servers").index(1).key("zone");
        assert_eq!(p.to_string(), "lms.servers[1].zone");
        assert_eq!(FieldPath::default().to_string(), "");
        assert!(FieldPath::default().is_empty());
    }

    #[test]
    fn scenario_error_display() {
        let e = ScenarioError {
            origin: "scenarios/bad.toml".into(),
            line: 14,
            column: 9,
            field: "lms.servers[1].zone".into(),
            message: "unknown zone \"z9\" (known: z1, z2)".into(),
        };
        assert_eq!(
            e.to_string(),
            "scenarios/bad.toml:14:9: lms.servers[1].zone: unknown zone \"z9\" (known: z1, z2)"
        );
    }
}
