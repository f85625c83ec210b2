//! Text form of durations, as written in scenario files: `250ms`, `30s`, `5m`, `2h`, `1d`,
//! compounds such as `1h30m`, and a bare integer meaning seconds.
//!
//! Units, largest first: `d` (day), `h`, `m` (minute), `s`, `ms`. In a compound each unit
//! appears at most once and units go from largest to smallest. [`format_duration`] produces the
//! shortest such text, and `parse_duration(&format_duration(d)) == Ok(d)` for every `d`.

use core::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

use crate::clock::SimDuration;

/// A duration prints in the form files use (`"1h30m"`, `"500ms"`), see [`format_duration`].
impl fmt::Display for SimDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_duration(*self))
    }
}

/// Units in the order a compound must use them, with their length in milliseconds.
const UNITS: [(&str, u64); 5] = [
    ("d", 86_400_000),
    ("h", 3_600_000),
    ("m", 60_000),
    ("s", 1_000),
    ("ms", 1),
];

const EXAMPLE: &str = "expected a duration like 30s, 5m, 1h30m";

/// Why a text is not a duration. Every message quotes the rejected text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    /// The text is empty.
    #[error("{EXAMPLE}; got an empty string")]
    Empty,
    /// The text starts with a minus sign.
    #[error("a duration cannot be negative; got `{0}`")]
    Negative(String),
    /// A number is followed by something that is not a unit.
    #[error("unknown unit `{unit}` in `{input}`; units are d, h, m, s, ms")]
    UnknownUnit {
        /// The unknown unit.
        unit: String,
        /// The whole text.
        input: String,
    },
    /// Units repeat or go from small to large (`30m1h`).
    #[error("units must go from largest to smallest, each at most once (like 1h30m); got `{0}`")]
    UnitOrder(String),
    /// The value does not fit in 64-bit milliseconds.
    #[error("duration `{0}` is too large")]
    Overflow(String),
    /// Anything else (`1.5h`, `h`, `5 m`).
    #[error("{EXAMPLE}; got `{0}`")]
    Malformed(String),
}

/// Parses a duration text (see the module doc). Surrounding whitespace is ignored.
///
/// ```
/// use engine::{parse_duration, SimDuration};
/// assert_eq!(parse_duration("1h30m"), Ok(SimDuration::from_mins(90)));
/// assert_eq!(parse_duration("45"), Ok(SimDuration::from_secs(45)));
/// assert!(parse_duration("5 minutes").is_err());
/// ```
pub fn parse_duration(s: &str) -> Result<SimDuration, DurationError> {
    let text = s.trim();
    if text.is_empty() {
        return Err(DurationError::Empty);
    }
    if text.starts_with('-') {
        return Err(DurationError::Negative(text.to_owned()));
    }
    if text.bytes().all(|b| b.is_ascii_digit()) {
        let secs: u64 = text
            .parse()
            .map_err(|_| DurationError::Overflow(text.to_owned()))?;
        return secs
            .checked_mul(1_000)
            .map(SimDuration)
            .ok_or_else(|| DurationError::Overflow(text.to_owned()));
    }
    let mut total: u64 = 0;
    let mut rest = text;
    // Index in UNITS of the last unit seen; the next one must come strictly after it.
    let mut last_unit: Option<usize> = None;
    while !rest.is_empty() {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return Err(DurationError::Malformed(text.to_owned()));
        }
        let (number, after) = rest.split_at(digits);
        let letters = after.bytes().take_while(u8::is_ascii_alphabetic).count();
        let (unit, after) = after.split_at(letters);
        if unit.is_empty() {
            return Err(DurationError::Malformed(text.to_owned()));
        }
        let Some(index) = UNITS.iter().position(|(name, _)| *name == unit) else {
            return Err(DurationError::UnknownUnit {
                unit: unit.to_owned(),
                input: text.to_owned(),
            });
        };
        if last_unit.is_some_and(|last| index <= last) {
            return Err(DurationError::UnitOrder(text.to_owned()));
        }
        last_unit = Some(index);
        let overflow = || DurationError::Overflow(text.to_owned());
        let value: u64 = number.parse().map_err(|_| overflow())?;
        let ms = value.checked_mul(UNITS[index].1).ok_or_else(overflow)?;
        total = total.checked_add(ms).ok_or_else(overflow)?;
        rest = after;
    }
    Ok(SimDuration(total))
}

/// The shortest text for `d`: `1h30m`, `250ms`, `1d2h3m4s5ms`, and `0s` for zero.
pub fn format_duration(d: SimDuration) -> String {
    if d.0 == 0 {
        return "0s".to_owned();
    }
    let mut rest = d.0;
    let mut out = String::new();
    for (name, len) in UNITS {
        let count = rest / len;
        if count > 0 {
            out.push_str(&count.to_string());
            out.push_str(name);
            rest %= len;
        }
    }
    out
}

impl Serialize for SimDuration {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&format_duration(*self))
    }
}

impl<'de> Deserialize<'de> for SimDuration {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(DurationVisitor)
    }
}

/// Accepts a duration text, or a non-negative integer meaning seconds.
struct DurationVisitor;

impl Visitor<'_> for DurationVisitor {
    type Value = SimDuration;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a duration like 30s, 5m, 1h30m")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<SimDuration, E> {
        parse_duration(v).map_err(E::custom)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<SimDuration, E> {
        v.checked_mul(1_000)
            .map(SimDuration)
            .ok_or_else(|| E::custom(DurationError::Overflow(v.to_string())))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<SimDuration, E> {
        match u64::try_from(v) {
            Ok(secs) => self.visit_u64(secs),
            Err(_) => Err(E::custom(DurationError::Negative(v.to_string()))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parses_valid_texts() {
        let cases: [(&str, u64); 12] = [
            ("250ms", 250),
            ("30s", 30_000),
            ("5m", 300_000),
            ("2h", 7_200_000),
            ("1d", 86_400_000),
            ("1h30m", 5_400_000),
            ("1d2h3m4s5ms", 93_784_005),
            ("0s", 0),
            ("0", 0),
            ("45", 45_000),
            (" 10s ", 10_000),
            ("90m", 5_400_000),
        ];
        for (text, ms) in cases {
            assert_eq!(parse_duration(text), Ok(SimDuration(ms)), "{text}");
        }
    }

    #[test]
    fn rejects_invalid_texts_with_clear_messages() {
        let cases = [
            ("", "expected a duration like 30s, 5m, 1h30m; got an empty string"),
            ("  ", "expected a duration like 30s, 5m, 1h30m; got an empty string"),
            ("-5s", "a duration cannot be negative; got `-5s`"),
            ("5x", "unknown unit `x` in `5x`; units are d, h, m, s, ms"),
            ("5M", "unknown unit `M` in `5M`; units are d, h, m, s, ms"),
            ("1.5h", "expected a duration like 30s, 5m, 1h30m; got `1.5h`"),
            ("h", "expected a duration like 30s, 5m, 1h30m; got `h`"),
            ("5 m", "expected a duration like 30s, 5m, 1h30m; got `5 m`"),
            ("30s5", "expected a duration like 30s, 5m, 1h30m; got `30s5`"),
            ("x", "expected a duration like 30s, 5m, 1h30m; got `x`"),
            (
                "30m1h",
                "units must go from largest to smallest, each at most once (like 1h30m); got `30m1h`",
            ),
            (
                "1m1m",
                "units must go from largest to smallest, each at most once (like 1h30m); got `1m1m`",
            ),
            ("99999999999999999999", "duration `99999999999999999999` is too large"),
            ("18446744073709552s", "duration `18446744073709552s` is too large"),
            ("300000000000d", "duration `300000000000d` is too large"),
        ];
        for (text, msg) in cases {
            let got = parse_duration(text).map_err(|e| e.to_string());
            assert_eq!(got, Err(msg.to_owned()), "{text:?}");
        }
    }

    #[test]
    fn formats_compactly() {
        let cases: [(u64, &str); 6] = [
            (0, "0s"),
            (250, "250ms"),
            (5_400_000, "1h30m"),
            (86_400_000, "1d"),
            (93_784_005, "1d2h3m4s5ms"),
            (61_000, "1m1s"),
        ];
        for (ms, text) in cases {
            assert_eq!(format_duration(SimDuration(ms)), text);
        }
    }

    #[test]
    fn serde_uses_the_text_form() -> Result<(), serde_json::Error> {
        assert_eq!(serde_json::to_string(&SimDuration(90_000))?, "\"1m30s\"");
        assert_eq!(
            serde_json::from_str::<SimDuration>("\"2h\"")?,
            SimDuration::from_hours(2)
        );
        assert_eq!(
            serde_json::from_str::<SimDuration>("7")?,
            SimDuration::from_secs(7)
        );
        let err = serde_json::from_str::<SimDuration>("-7")
            .err()
            .map(|e| e.to_string());
        assert!(err.is_some_and(|e| e.contains("cannot be negative")));
        Ok(())
    }

    proptest! {
        #[test]
        fn format_then_parse_round_trips(ms in any::<u64>()) {
            let d = SimDuration(ms);
            prop_assert_eq!(parse_duration(&format_duration(d)), Ok(d));
        }
    }
}
