//! Reading the fields of an operator's form on the server: trimmed text, required text,
//! numbers within a range, durations and named choices. Every refusal is an
//! [`AppError::Invalid`] that names the field and what it accepts, so the form can show it
//! next to the input and nothing is changed.

use core::fmt::Display;
use core::str::FromStr;

use engine::{parse_duration, EngineId, SimDuration};
use serde::de::DeserializeOwned;

use crate::error::AppError;

/// The trimmed text, or `None` when it is blank.
pub fn text(v: &str) -> Option<String> {
    let v = v.trim();
    (!v.is_empty()).then(|| v.to_owned())
}

/// The trimmed text of an optional field, or `None` when it is absent or blank.
pub fn optional(v: &Option<String>) -> Option<&str> {
    v.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

/// Most characters of a list's search box.
pub const SEARCH_MAX: usize = 100;

/// A list's search (`q`), trimmed; `None` when blank, refused beyond [`SEARCH_MAX`]
/// characters.
pub fn search(q: &Option<String>) -> Result<Option<String>, AppError> {
    searched(q, "q")
}

/// A list's text filter named `field`, trimmed; `None` when blank, refused beyond
/// [`SEARCH_MAX`] characters.
pub fn searched(v: &Option<String>, field: &str) -> Result<Option<String>, AppError> {
    match optional(v) {
        Some(v) if v.chars().count() > SEARCH_MAX => Err(AppError::invalid(
            field,
            format!("must be at most {SEARCH_MAX} characters"),
        )),
        v => Ok(v.map(str::to_owned)),
    }
}

/// A list's page number, from 1 (the first when absent); refused when 0.
pub fn page_number(page: Option<u32>) -> Result<u32, AppError> {
    match page.unwrap_or(1) {
        0 => Err(AppError::invalid("page", "must be 1 or more")),
        p => Ok(p),
    }
}

/// The trimmed text; refused when blank (`field: is required for this action`).
pub fn need(v: &str, field: &str) -> Result<String, AppError> {
    text(v).ok_or_else(|| AppError::invalid(field, "is required for this action"))
}

/// `v` read as a `T` within `lo..=hi`; refused with `must be {kind} between {lo} and
/// {hi}{note}; got "{v}"` (`kind` says what is expected, e.g. "a whole number of minutes";
/// `note` may add the unit or what an empty field means).
pub fn ranged<T>(
    v: &str,
    field: &str,
    kind: &str,
    (lo, hi): (T, T),
    note: &str,
) -> Result<T, AppError>
where
    T: FromStr + PartialOrd + Display,
{
    let v = v.trim();
    v.parse::<T>()
        .ok()
        .filter(|n| *n >= lo && *n <= hi)
        .ok_or_else(|| {
            AppError::invalid(
                field,
                format!("must be {kind} between {lo} and {hi}{note}; got \"{v}\""),
            )
        })
}

/// A whole number within `lo..=hi` (see [`ranged`]).
pub fn whole(v: &str, field: &str, lo: u32, hi: u32) -> Result<u32, AppError> {
    ranged(v, field, "a whole number", (lo, hi), "")
}

/// A duration as files write it (`30s`, `5m`, `1h`).
pub fn duration(v: &str, field: &str) -> Result<SimDuration, AppError> {
    parse_duration(v.trim())
        .map_err(|e| AppError::invalid(field, format!("{e} (e.g. 30s, 5m, 1h)")))
}

/// One of the names of an enumeration as files write them (`"cpu"`, `"ha_service"`);
/// refused with `must be {allowed}`.
pub fn choice<T: DeserializeOwned>(v: &str, field: &str, allowed: &str) -> Result<T, AppError> {
    serde_json::from_value(serde_json::Value::String(v.trim().to_owned()))
        .map_err(|_| AppError::invalid(field, format!("must be {allowed}")))
}

/// An engine's name (`core`, `lhc`, ...); refused with `must be one of core, lhc, ...`.
pub fn engine_name(v: &str, field: &str) -> Result<EngineId, AppError> {
    v.trim().parse::<EngineId>().map_err(|_| {
        let names: Vec<&str> = EngineId::ALL.iter().map(|e| e.as_str()).collect();
        AppError::invalid(field, format!("must be one of {}", names.join(", ")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message<T>(r: Result<T, AppError>) -> Option<String> {
        r.err().map(|e| e.to_string())
    }

    #[test]
    fn fields_are_trimmed_and_refusals_name_the_field_and_the_range() {
        assert_eq!(text("  a "), Some("a".into()));
        assert_eq!(text("   "), None);
        assert_eq!(optional(&Some(" b ".into())), Some("b"));
        assert_eq!(optional(&Some(" ".into())), None);
        assert_eq!(optional(&None), None);
        assert_eq!(
            message(need(" ", "server")),
            Some("server: is required for this action".into())
        );
        assert_eq!(whole(" 7 ", "count", 1, 10).ok(), Some(7));
        assert_eq!(whole("10", "count", 1, 10).ok(), Some(10));
        assert_eq!(
            message(whole("11", "count", 1, 10)),
            Some("count: must be a whole number between 1 and 10; got \"11\"".into())
        );
        assert_eq!(
            message(whole("abc", "count", 1, 10)),
            Some("count: must be a whole number between 1 and 10; got \"abc\"".into())
        );
        assert_eq!(
            message(ranged(
                "-1",
                "level",
                "a number",
                (0.0, 1000.0),
                " (percent)"
            )),
            Some("level: must be a number between 0 and 1000 (percent); got \"-1\"".into())
        );
        assert_eq!(
            ranged("0", "level", "a number", (0.0, 1000.0), "").ok(),
            Some(0.0)
        );
        assert_eq!(duration("5m", "over").ok(), Some(SimDuration::from_mins(5)));
        assert!(message(duration("soon", "over")).is_some_and(|m| m.starts_with("over: ")));
        assert_eq!(
            choice::<engine::SpikeCounter>(" cpu ", "counter", "cpu or memory").ok(),
            Some(engine::SpikeCounter::Cpu)
        );
        assert_eq!(
            message(choice::<engine::SpikeCounter>(
                "disk",
                "counter",
                "cpu or memory"
            )),
            Some("counter: must be cpu or memory".into())
        );
    }
}
