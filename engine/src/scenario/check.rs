//! Small validation helpers shared by every engine's configuration and action checks:
//! uniqueness, ranges, references, and the lists of known names that errors show.

use core::fmt::Display;

use super::error::{ConfigError, FieldPath};
use crate::action::error::ActionError;

/// How many names an "unknown ..." error lists before `...`.
const LISTED: usize = 12;

/// `Err` at `path` with `message`.
pub(crate) fn fail<T>(path: FieldPath, message: impl Into<String>) -> Result<T, ConfigError> {
    Err(ConfigError::new(path, message))
}

/// The text must not be empty or blank.
pub(crate) fn non_empty(value: &str, path: FieldPath) -> Result<(), ConfigError> {
    if value.trim().is_empty() {
        return fail(path, "must not be empty");
    }
    Ok(())
}

/// `lo <= value <= hi`.
pub(crate) fn in_range<T: PartialOrd + Display>(
    value: T,
    lo: T,
    hi: T,
    path: FieldPath,
) -> Result<(), ConfigError> {
    if value < lo || value > hi {
        return fail(path, format!("must be between {lo} and {hi}; got {value}"));
    }
    Ok(())
}

/// Each key appears once. `key(i)` gives item `i`'s key (already normalised, e.g.
/// lower-cased, when the comparison is case-insensitive) and `path(i)` its field; the error
/// is reported at the second occurrence and names the first.
pub(crate) fn unique(
    len: usize,
    what: &str,
    key: impl Fn(usize) -> String,
    path: impl Fn(usize) -> FieldPath,
) -> Result<(), ConfigError> {
    let mut seen: Vec<(String, usize)> = Vec::with_capacity(len);
    for i in 0..len {
        let k = key(i);
        if let Some((_, first)) = seen.iter().find(|(s, _)| *s == k) {
            return fail(
                path(i),
                format!(
                    "duplicate {what} \"{k}\" (first defined at {})",
                    path(*first)
                ),
            );
        }
        seen.push((k, i));
    }
    Ok(())
}

/// `name` is one of `known`; otherwise an error listing them.
pub(crate) fn known<'a>(
    name: &str,
    what: &str,
    known: impl IntoIterator<Item = &'a str>,
    path: FieldPath,
) -> Result<(), ConfigError> {
    let known: Vec<&str> = known.into_iter().collect();
    if known.contains(&name) {
        return Ok(());
    }
    fail(
        path,
        format!("unknown {what} \"{name}\" (known: {})", list(&known)),
    )
}

/// Comma-separated names, or `(none)`.
pub(crate) fn list(names: &[&str]) -> String {
    if names.is_empty() {
        "(none)".to_owned()
    } else {
        names.join(", ")
    }
}

/// Comma-separated names, at most [`LISTED`] of them (then `... (N in all)`), or `(none)`.
pub(crate) fn some_of<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let all: Vec<&str> = names.collect();
    if all.len() > LISTED {
        format!("{}, ... ({} in all)", all[..LISTED].join(", "), all.len())
    } else {
        list(&all)
    }
}

/// `Err(Invalid)` for the action field `field`.
pub(crate) fn invalid<T>(
    field: &'static str,
    message: impl Into<String>,
) -> Result<T, ActionError> {
    Err(ActionError::Invalid {
        field,
        message: message.into(),
    })
}

/// `lo <= value <= hi` for the action field `field`.
pub(crate) fn within(field: &'static str, value: u64, lo: u64, hi: u64) -> Result<(), ActionError> {
    if value < lo || value > hi {
        return invalid(field, format!("must be between {lo} and {hi}; got {value}"));
    }
    Ok(())
}

/// A float must be finite (TOML allows `nan` and `inf`).
pub(crate) fn finite(value: f64, path: FieldPath) -> Result<(), ConfigError> {
    if !value.is_finite() {
        return fail(path, format!("must be a finite number; got {value}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_report_clear_messages() {
        let p = || FieldPath::root("x");
        assert_eq!(
            in_range(0, 1, 10, p()).map_err(|e| e.to_string()),
            Err("x: must be between 1 and 10; got 0".into())
        );
        let names = ["a", "b", "a"];
        let err = unique(3, "id", |i| names[i].to_owned(), |i| p().index(i));
        assert_eq!(
            err.map_err(|e| e.to_string()),
            Err("x[2]: duplicate id \"a\" (first defined at x[0])".into())
        );
        assert_eq!(
            known("c", "zone", ["a", "b"], p()).map_err(|e| e.message),
            Err("unknown zone \"c\" (known: a, b)".into())
        );
        assert_eq!(
            known("c", "zone", [], p()).map_err(|e| e.message),
            Err("unknown zone \"c\" (known: (none))".into())
        );
        assert!(non_empty(" ", p()).is_err());
        let names: Vec<String> = (1..=13).map(|i| format!("n{i}")).collect();
        assert_eq!(
            some_of(names.iter().map(String::as_str)),
            "n1, n2, n3, n4, n5, n6, n7, n8, n9, n10, n11, n12, ... (13 in all)"
        );
        assert_eq!(
            some_of(names[..12].iter().map(String::as_str))
                .matches(", ")
                .count(),
            11
        );
        assert_eq!(some_of([].into_iter()), "(none)");
        assert_eq!(
            within("count", 0, 1, 5).map_err(|e| e.to_string()),
            Err("count: must be between 1 and 5; got 0".into())
        );
        assert_eq!(within("count", 5, 1, 5), Ok(()));
        assert!(finite(f64::NAN, p()).is_err());
    }
}
