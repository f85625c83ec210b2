//! Simulated time: instants ([`SimTime`]), spans ([`SimDuration`]) and the speed of the
//! virtual clock ([`Speed`]).
//!
//! Everything is integer milliseconds. Nothing here reads the wall clock: the runtime decides
//! how fast simulated time flows (see [`Speed`]) and feeds the engines with [`SimTime`]s.

use core::fmt;
use core::str::FromStr;

use serde::{Deserialize, Serialize};

const MS_PER_SEC: u64 = 1_000;
const MS_PER_MIN: u64 = 60 * MS_PER_SEC;
const MS_PER_HOUR: u64 = 60 * MS_PER_MIN;
const MS_PER_DAY: u64 = 24 * MS_PER_HOUR;

/// An instant of simulated time: milliseconds since the scenario started.
///
/// Serialized as a bare integer of milliseconds. Displayed as `D+HH:MM:SS.mmm`
/// (days, then the clock within the day), e.g. `0+00:05:00.000` for five minutes in.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct SimTime(pub u64);

impl SimTime {
    /// The start of the scenario.
    pub const ZERO: SimTime = SimTime(0);

    /// The instant `ms` milliseconds after the start.
    pub const fn from_millis(ms: u64) -> SimTime {
        SimTime(ms)
    }

    /// The instant `secs` seconds after the start (saturating).
    pub const fn from_secs(secs: u64) -> SimTime {
        SimTime(secs.saturating_mul(MS_PER_SEC))
    }

    /// The instant `mins` minutes after the start (saturating).
    pub const fn from_mins(mins: u64) -> SimTime {
        SimTime(mins.saturating_mul(MS_PER_MIN))
    }

    /// Milliseconds since the start.
    pub const fn as_millis(self) -> u64 {
        self.0
    }

    /// This instant moved forward by `d`, clamped at the end of time (`u64::MAX` ms).
    pub const fn saturating_add(self, d: SimDuration) -> SimTime {
        SimTime(self.0.saturating_add(d.0))
    }

    /// This instant moved back by `d`, clamped at [`SimTime::ZERO`].
    pub const fn saturating_sub(self, d: SimDuration) -> SimTime {
        SimTime(self.0.saturating_sub(d.0))
    }

    /// The time elapsed from `earlier` to `self` (zero if `earlier` is later).
    pub const fn duration_since(self, earlier: SimTime) -> SimDuration {
        SimDuration(self.0.saturating_sub(earlier.0))
    }

    /// This instant as the duration elapsed since the start.
    pub const fn since_start(self) -> SimDuration {
        SimDuration(self.0)
    }
}

impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.0;
        write!(
            f,
            "{}+{:02}:{:02}:{:02}.{:03}",
            ms / MS_PER_DAY,
            (ms % MS_PER_DAY) / MS_PER_HOUR,
            (ms % MS_PER_HOUR) / MS_PER_MIN,
            (ms % MS_PER_MIN) / MS_PER_SEC,
            ms % MS_PER_SEC
        )
    }
}

/// A span of simulated time in milliseconds.
///
/// Serialized as its compact text form (`"1h30m"`, `"250ms"`, `"0s"`); deserialized from that
/// form or from a bare non-negative integer meaning seconds (see
/// [`parse_duration`](crate::duration::parse_duration)). Displayed in the compact form.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct SimDuration(pub u64);

impl SimDuration {
    /// No time at all.
    pub const ZERO: SimDuration = SimDuration(0);

    /// A span of `ms` milliseconds.
    pub const fn from_millis(ms: u64) -> SimDuration {
        SimDuration(ms)
    }

    /// A span of `secs` seconds (saturating).
    pub const fn from_secs(secs: u64) -> SimDuration {
        SimDuration(secs.saturating_mul(MS_PER_SEC))
    }

    /// A span of `mins` minutes (saturating).
    pub const fn from_mins(mins: u64) -> SimDuration {
        SimDuration(mins.saturating_mul(MS_PER_MIN))
    }

    /// A span of `hours` hours (saturating).
    pub const fn from_hours(hours: u64) -> SimDuration {
        SimDuration(hours.saturating_mul(MS_PER_HOUR))
    }

    /// The span in milliseconds.
    pub const fn as_millis(self) -> u64 {
        self.0
    }

    /// The span in whole seconds (rounded down).
    pub const fn as_secs(self) -> u64 {
        self.0 / MS_PER_SEC
    }

    /// Whether the span is empty.
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }

    /// The sum of two spans, clamped at `u64::MAX` ms.
    pub const fn saturating_add(self, other: SimDuration) -> SimDuration {
        SimDuration(self.0.saturating_add(other.0))
    }

    /// The difference of two spans, clamped at zero.
    pub const fn saturating_sub(self, other: SimDuration) -> SimDuration {
        SimDuration(self.0.saturating_sub(other.0))
    }
}

/// How fast simulated time flows relative to the wall clock. The runtime (not the engines)
/// applies it; single-stepping works in any speed.
///
/// Serialized as `"paused"`, `"x1"`, `"x10"`, `"x60"`, `"x600"`, `"max"`; displayed as
/// `paused`, `1x`, `10x`, `60x`, `600x`, `max`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Speed {
    /// The clock does not move (single-step still works).
    Paused,
    /// Real time.
    X1,
    /// Ten simulated seconds per wall-clock second.
    X10,
    /// One simulated minute per wall-clock second.
    X60,
    /// Ten simulated minutes per wall-clock second.
    X600,
    /// As fast as the machine can compute.
    Max,
}

impl Speed {
    /// Every speed, slowest first.
    pub const ALL: [Speed; 6] = [
        Speed::Paused,
        Speed::X1,
        Speed::X10,
        Speed::X60,
        Speed::X600,
        Speed::Max,
    ];

    /// Simulated milliseconds per wall-clock millisecond; `None` for [`Speed::Paused`] and
    /// [`Speed::Max`], which have no fixed ratio.
    pub const fn factor(self) -> Option<u64> {
        match self {
            Speed::Paused | Speed::Max => None,
            Speed::X1 => Some(1),
            Speed::X10 => Some(10),
            Speed::X60 => Some(60),
            Speed::X600 => Some(600),
        }
    }

    /// The serialized name (`"x60"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Speed::Paused => "paused",
            Speed::X1 => "x1",
            Speed::X10 => "x10",
            Speed::X60 => "x60",
            Speed::X600 => "x600",
            Speed::Max => "max",
        }
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.factor() {
            Some(n) => write!(f, "{n}x"),
            None => f.write_str(self.as_str()),
        }
    }
}

/// A text that names no [`Speed`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown speed `{input}`; expected one of: paused, 1x, 10x, 60x, 600x, max (also x1, 10, ...)"
)]
pub struct SpeedParseError {
    /// The rejected text.
    pub input: String,
}

impl FromStr for Speed {
    type Err = SpeedParseError;

    /// Accepts `paused`, `max`, and each factor as `60`, `60x` or `x60` (case-insensitive).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.trim().to_ascii_lowercase();
        let number = match lower.as_str() {
            "paused" | "pause" => return Ok(Speed::Paused),
            "max" => return Ok(Speed::Max),
            other => other
                .strip_prefix('x')
                .or_else(|| other.strip_suffix('x'))
                .unwrap_or(other),
        };
        match number {
            "1" => Ok(Speed::X1),
            "10" => Ok(Speed::X10),
            "60" => Ok(Speed::X60),
            "600" => Ok(Speed::X600),
            _ => Err(SpeedParseError {
                input: s.to_owned(),
            }),
        }
    }
}

/// Why a text is not an instant (`D+HH:MM:SS`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{input}` is not an instant; write D+HH:MM:SS (days, then hours 00-23, minutes and seconds 00-59, optional .mmm), e.g. 1+06:30:00, or Day N HH:MM:SS (day 1 first), e.g. Day 2 06:30:00")]
pub struct SimTimeParseError {
    /// The rejected text.
    pub input: String,
}

impl FromStr for SimTime {
    type Err = SimTimeParseError;

    /// Reads the [`Display`](fmt::Display) form `D+HH:MM:SS.mmm`. The milliseconds are
    /// optional, and the day may be left out (`HH:MM:SS` is day 0); a space stands for the `+`
    /// too, since a `+` in a URL query reads back as a space. The console's display form
    /// `Day N HH:MM:SS` (day 1 first) is read too.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let fail = || SimTimeParseError {
            input: s.to_owned(),
        };
        let text = s.trim();
        // `Day N HH:MM:SS` (the console's display form; day 1 is the first day).
        let day_form = text
            .get(..4)
            .filter(|p| p.eq_ignore_ascii_case("day "))
            .map(|_| &text[4..]);
        let (days, clock) = match day_form {
            Some(rest) => {
                let (d, c) = rest.trim_start().split_once(' ').ok_or_else(fail)?;
                let day = parse_digits(d, 9).filter(|d| *d >= 1).ok_or_else(fail)?;
                (day - 1, c.trim_start())
            }
            None => match text.split_once(['+', ' ']) {
                Some((d, c)) => (parse_digits(d, 9).ok_or_else(fail)?, c),
                None => (0, text),
            },
        };
        let (hms, millis) = match clock.split_once('.') {
            Some((hms, ms)) if ms.len() == 3 => (hms, parse_digits(ms, 3).ok_or_else(fail)?),
            Some(_) => return Err(fail()),
            None => (clock, 0),
        };
        let mut parts = hms.split(':');
        let (Some(h), Some(m), Some(sec), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(fail());
        };
        let two = |p: &str, max: u64| {
            (p.len() == 2)
                .then(|| parse_digits(p, 2))
                .flatten()
                .filter(|v| *v <= max)
        };
        let (Some(h), Some(m), Some(sec)) = (two(h, 23), two(m, 59), two(sec, 59)) else {
            return Err(fail());
        };
        Ok(SimTime(
            days * MS_PER_DAY + h * MS_PER_HOUR + m * MS_PER_MIN + sec * MS_PER_SEC + millis,
        ))
    }
}

/// `text` as a number of at most `max_len` ASCII digits.
fn parse_digits(text: &str, max_len: usize) -> Option<u64> {
    if text.is_empty() || text.len() > max_len || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sim_time_reads_its_display_form() {
        let cases = [
            ("0+00:00:00", Some(SimTime::ZERO)),
            ("1+01:01:01.001", Some(SimTime(90_061_001))),
            ("1 01:01:01", Some(SimTime(90_061_000))),
            ("12:30:00", Some(SimTime::from_mins(750))),
            (" 2+00:00:00 ", Some(SimTime(2 * MS_PER_DAY))),
            ("0+24:00:00", None),
            ("0+00:60:00", None),
            ("0+1:00:00", None),
            ("0+00:00", None),
            ("0+00:00:00:00", None),
            ("0+00:00:00.5", None),
            ("-1+00:00:00", None),
            ("x+00:00:00", None),
            ("9999999999+00:00:00", None),
            ("", None),
            ("Day 1 00:00:00", Some(SimTime::ZERO)),
            ("day 2 01:01:01", Some(SimTime(90_061_000))),
            (
                "Day 31 12:00:00.250",
                Some(SimTime(30 * MS_PER_DAY + 12 * MS_PER_HOUR + 250)),
            ),
            ("Day  3  00:00:01", Some(SimTime(2 * MS_PER_DAY + 1_000))),
            ("Day 0 00:00:00", None),
            ("Day 1", None),
            ("Day x 00:00:00", None),
            ("Day 1 24:00:00", None),
        ];
        for (text, want) in cases {
            assert_eq!(text.parse::<SimTime>().ok(), want, "{text:?}");
        }
        let t = SimTime(123_456_789);
        assert_eq!(t.to_string().parse::<SimTime>(), Ok(t));
    }

    #[test]
    fn sim_time_display_is_days_plus_clock() {
        let cases = [
            (SimTime::ZERO, "0+00:00:00.000"),
            (SimTime::from_mins(5), "0+00:05:00.000"),
            (SimTime(90_061_001), "1+01:01:01.001"),
            (SimTime::from_secs(86_399), "0+23:59:59.000"),
        ];
        for (t, want) in cases {
            assert_eq!(t.to_string(), want);
        }
    }

    #[test]
    fn sim_time_arithmetic_saturates() {
        let t = SimTime(u64::MAX - 1).saturating_add(SimDuration::from_secs(1));
        assert_eq!(t, SimTime(u64::MAX));
        assert_eq!(SimTime(5).saturating_sub(SimDuration(10)), SimTime::ZERO);
        assert_eq!(SimTime(5).duration_since(SimTime(9)), SimDuration::ZERO);
        assert_eq!(SimTime::from_secs(2).as_millis(), 2_000);
    }

    #[test]
    fn sim_time_serializes_as_millis() -> Result<(), serde_json::Error> {
        assert_eq!(serde_json::to_string(&SimTime(1500))?, "1500");
        assert_eq!(serde_json::from_str::<SimTime>("42")?, SimTime(42));
        Ok(())
    }

    #[test]
    fn sim_duration_display_is_compact() {
        assert_eq!(SimDuration::from_mins(90).to_string(), "1h30m");
        assert_eq!(SimDuration(250).to_string(), "250ms");
        assert_eq!(SimDuration::ZERO.to_string(), "0s");
    }

    #[test]
    fn speed_parses_every_spelling() {
        let cases = [
            ("paused", Speed::Paused),
            ("x1", Speed::X1),
            ("1", Speed::X1),
            ("1x", Speed::X1),
            ("10X", Speed::X10),
            ("x60", Speed::X60),
            ("600", Speed::X600),
            ("MAX", Speed::Max),
        ];
        for (text, want) in cases {
            assert_eq!(text.parse::<Speed>(), Ok(want), "{text}");
        }
        for bad in ["", "2x", "fast", "x", "60xx"] {
            let err = bad.parse::<Speed>().err();
            assert!(err.is_some(), "{bad} should be rejected");
        }
        let msg = "2x".parse::<Speed>().map_err(|e| e.to_string());
        assert_eq!(
            msg,
            Err("unknown speed `2x`; expected one of: paused, 1x, 10x, 60x, 600x, max (also x1, 10, ...)".to_owned())
        );
    }

    #[test]
    fn speed_display_and_serde_round_trip() -> Result<(), serde_json::Error> {
        let shown: Vec<String> = Speed::ALL.iter().map(|s| s.to_string()).collect();
        assert_eq!(shown, ["paused", "1x", "10x", "60x", "600x", "max"]);
        for s in Speed::ALL {
            assert_eq!(s.to_string().parse::<Speed>(), Ok(s));
            assert_eq!(s.as_str().parse::<Speed>(), Ok(s));
            let json = serde_json::to_string(&s)?;
            assert_eq!(json, format!("\"{}\"", s.as_str()));
            assert_eq!(serde_json::from_str::<Speed>(&json)?, s);
        }
        assert_eq!(Speed::X600.factor(), Some(600));
        assert_eq!(Speed::Max.factor(), None);
        Ok(())
    }
}
