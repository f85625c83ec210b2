//! Text forms used by load-evaluator rules: scheduling windows (`"mon 08:00-18:00"`) and
//! IPv4 ranges (`"10.0.0.1-10.0.0.255"`), serialized as those strings.

use core::fmt;
use core::net::Ipv4Addr;
use core::str::FromStr;

use serde::{Deserialize, Serialize};

/// Day of the week of a scheduling window.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Weekday {
    /// Monday.
    Mon,
    /// Tuesday.
    Tue,
    /// Wednesday.
    Wed,
    /// Thursday.
    Thu,
    /// Friday.
    Fri,
    /// Saturday.
    Sat,
    /// Sunday.
    Sun,
}

impl Weekday {
    /// Every day, Monday first.
    pub const ALL: [Weekday; 7] = [
        Weekday::Mon,
        Weekday::Tue,
        Weekday::Wed,
        Weekday::Thu,
        Weekday::Fri,
        Weekday::Sat,
        Weekday::Sun,
    ];

    /// Three-letter lower-case name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Weekday::Mon => "mon",
            Weekday::Tue => "tue",
            Weekday::Wed => "wed",
            Weekday::Thu => "thu",
            Weekday::Fri => "fri",
            Weekday::Sat => "sat",
            Weekday::Sun => "sun",
        }
    }
}

/// A weekly interval `[start, end)` in minutes since midnight of `day`, written
/// `"mon 08:00-18:00"` (`end` may be `24:00`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScheduleWindow {
    /// The day.
    pub day: Weekday,
    /// Start, minutes since midnight.
    pub start_min: u16,
    /// End (exclusive), minutes since midnight, `start_min < end_min <= 1440`.
    pub end_min: u16,
}

/// A scheduling window or IP range text that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected {expected}; got `{input}`")]
pub struct FormatError {
    /// What was expected.
    pub expected: &'static str,
    /// The rejected text.
    pub input: String,
}

fn parse_hhmm(s: &str) -> Option<u16> {
    let (h, m) = s.split_once(':')?;
    if h.len() != 2 || m.len() != 2 {
        return None;
    }
    let (h, m): (u16, u16) = (h.parse().ok()?, m.parse().ok()?);
    let total = h * 60 + m;
    (m < 60 && total <= 24 * 60).then_some(total)
}

impl FromStr for ScheduleWindow {
    type Err = FormatError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || FormatError {
            expected: "a window like \"mon 08:00-18:00\" (start before end, end at most 24:00)",
            input: s.to_owned(),
        };
        let (day, times) = s.trim().split_once(' ').ok_or_else(err)?;
        let day = Weekday::ALL
            .into_iter()
            .find(|d| d.as_str().eq_ignore_ascii_case(day))
            .ok_or_else(err)?;
        let (start, end) = times.trim().split_once('-').ok_or_else(err)?;
        let start_min = parse_hhmm(start).ok_or_else(err)?;
        let end_min = parse_hhmm(end).ok_or_else(err)?;
        if start_min >= end_min {
            return Err(err());
        }
        Ok(ScheduleWindow {
            day,
            start_min,
            end_min,
        })
    }
}

impl fmt::Display for ScheduleWindow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {:02}:{:02}-{:02}:{:02}",
            self.day.as_str(),
            self.start_min / 60,
            self.start_min % 60,
            self.end_min / 60,
            self.end_min % 60
        )
    }
}

/// An inclusive IPv4 range, written `"10.0.0.1-10.0.0.255"` (or one address).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct IpRange {
    /// First address.
    pub start: Ipv4Addr,
    /// Last address (`start <= end`).
    pub end: Ipv4Addr,
}

impl IpRange {
    /// Whether `ip` is inside the range.
    pub fn contains(&self, ip: Ipv4Addr) -> bool {
        self.start <= ip && ip <= self.end
    }
}

impl FromStr for IpRange {
    type Err = FormatError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || FormatError {
            expected: "an IPv4 range like \"10.0.0.1-10.0.0.255\" (start not after end)",
            input: s.to_owned(),
        };
        let (a, b) = s.trim().split_once('-').unwrap_or((s.trim(), s.trim()));
        let start: Ipv4Addr = a.trim().parse().map_err(|_| err())?;
        let end: Ipv4Addr = b.trim().parse().map_err(|_| err())?;
        if start > end {
            return Err(err());
        }
        Ok(IpRange { start, end })
    }
}

impl fmt::Display for IpRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.start, self.end)
    }
}

/// Serde as text via `Display` / `FromStr`.
macro_rules! serde_as_text {
    ($ty:ty) => {
        impl Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = String::deserialize(d)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

serde_as_text!(ScheduleWindow);
serde_as_text!(IpRange);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_parse_and_print() {
        let w: Result<ScheduleWindow, _> = "Mon 08:00-18:30".parse();
        assert_eq!(
            w,
            Ok(ScheduleWindow {
                day: Weekday::Mon,
                start_min: 480,
                end_min: 1110
            })
        );
        assert_eq!(w.map(|w| w.to_string()), Ok("mon 08:00-18:30".to_owned()));
        assert!("sun 00:00-24:00".parse::<ScheduleWindow>().is_ok());
        for bad in [
            "mon",
            "xyz 08:00-09:00",
            "mon 9:00-10:00",
            "mon 10:00-09:00",
            "tue 08:60-09:00",
            "wed 08:00-24:01",
        ] {
            assert!(bad.parse::<ScheduleWindow>().is_err(), "{bad}");
        }
    }

    #[test]
    fn ip_ranges_parse_and_contain() {
        let r: Result<IpRange, _> = "10.0.0.1-10.0.0.255".parse();
        assert!(r
            .is_ok_and(|r| r.contains(Ipv4Addr::new(10, 0, 0, 7))
                && !r.contains(Ipv4Addr::new(10, 0, 1, 0))));
        assert!("10.0.0.9".parse::<IpRange>().is_ok());
        assert_eq!(
            "10.0.0.9-10.0.0.1".parse::<IpRange>().map_err(|e| e.to_string()),
            Err("expected an IPv4 range like \"10.0.0.1-10.0.0.255\" (start not after end); got `10.0.0.9-10.0.0.1`".to_owned())
        );
    }
}
