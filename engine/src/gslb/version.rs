//! Software versions of GSLB sites and the two rules that depend on them: who opens a MEP
//! connection, and whether a site takes part in backup-parent adoption (both since 11.1
//! build 51 [seed 003]).

use core::cmp::Ordering;
use core::fmt;
use core::net::IpAddr;

use serde::{Deserialize, Serialize};

/// A parsed release: `14.1`, `13.0`, `11.1-51`, `11.1-51.21`, `11.1 build 51.21`,
/// `NS11.1: Build 51.21.nc`. A release without a build number is its first build (0), so
/// write `11.1-51` (or later) for the 11.1 behaviour that build 51 introduced.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SoftwareVersion {
    /// Major release (`11`).
    pub major: u16,
    /// Minor release (`1`).
    pub minor: u16,
    /// Build (`51`), 0 when not given.
    pub build: u32,
}

impl PartialOrd for SoftwareVersion {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for SoftwareVersion {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.major, self.minor, self.build).cmp(&(other.major, other.minor, other.build))
    }
}

impl fmt::Display for SoftwareVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}-{}", self.major, self.minor, self.build)
    }
}

/// The first release where parents open the connections to their children and backup
/// parents exist: 11.1 build 51 [seed 003].
pub const PARENT_INITIATES_SINCE: SoftwareVersion = SoftwareVersion {
    major: 11,
    minor: 1,
    build: 51,
};

/// What a version text must look like (for error messages).
pub const VERSION_FORMS: &str = "a release like 14.1, 13.0, 11.1-51 or 11.1 build 51.21";

impl SoftwareVersion {
    /// Parses a version text (see the type doc); `None` if it is not one.
    pub fn parse(text: &str) -> Option<SoftwareVersion> {
        let lower = text.trim().to_ascii_lowercase();
        let rest = lower.strip_prefix("ns").unwrap_or(&lower);
        let split = rest.find(|c: char| c == '-' || c == ':' || c.is_whitespace());
        let (release, tail) = match split {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, ""),
        };
        let (major, minor) = release.split_once('.')?;
        let major: u16 = major.parse().ok()?;
        let minor: u16 = minor.parse().ok()?;
        let tail = tail.trim_start_matches(|c: char| c == '-' || c == ':' || c.is_whitespace());
        let tail = tail.strip_prefix("build").unwrap_or(tail);
        let tail = tail.trim_start_matches(|c: char| c == '-' || c.is_whitespace());
        let build = if tail.is_empty() {
            if split.is_some() {
                // A separator with no build after it (`11.1-`, `11.1 build`).
                return None;
            }
            0
        } else {
            let digits: &str = tail.split('.').next().unwrap_or("");
            let build: u32 = digits.parse().ok()?;
            // After the build: an optional `.patch` and an optional `.nc`/`.e` suffix.
            let after = &tail[digits.len()..];
            let ok = after.is_empty()
                || after.strip_prefix('.').is_some_and(|rest| {
                    rest.split('.')
                        .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric()))
                });
            if !ok {
                return None;
            }
            build
        };
        Some(SoftwareVersion {
            major,
            minor,
            build,
        })
    }

    /// Whether this release has parent-initiated child connections and backup parents.
    pub fn has_backup_parents(self) -> bool {
        self >= PARENT_INITIATES_SINCE
    }
}

/// Who opens the MEP connection between two sites, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Initiator {
    /// `true` if the first site (`a`) opens it.
    pub a: bool,
    /// The rule applied, as a sentence.
    pub rule: &'static str,
}

/// The initiator rule [seed 003]: between two parents the lower IP address; between a parent
/// (`a`) and a child (`b`) the parent when both run 11.1 build 51 or later, else the lower IP
/// address.
pub fn initiator(
    a_ip: IpAddr,
    a_version: SoftwareVersion,
    b_ip: IpAddr,
    b_version: SoftwareVersion,
    parent_child: bool,
) -> Initiator {
    if !parent_child {
        return Initiator {
            a: a_ip < b_ip,
            rule: "between parents the lower IP address opens the connection",
        };
    }
    if a_version.has_backup_parents() && b_version.has_backup_parents() {
        Initiator {
            a: true,
            rule: "the parent opens the connection to its child (11.1 build 51 and later)",
        }
    } else {
        Initiator {
            a: a_ip < b_ip,
            rule: "before 11.1 build 51 the lower IP address opens the connection",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> SoftwareVersion {
        SoftwareVersion::parse(text).unwrap_or_else(|| panic!("{text} should parse"))
    }

    #[test]
    fn versions_parse_in_every_usual_spelling() {
        let cases = [
            ("14.1", (14, 1, 0)),
            ("13.0", (13, 0, 0)),
            ("10.5", (10, 5, 0)),
            ("11.1-51", (11, 1, 51)),
            ("11.1-51.21", (11, 1, 51)),
            ("11.1 build 51.21", (11, 1, 51)),
            ("NS11.1: Build 51.21.nc", (11, 1, 51)),
            (" 13.1-37.38 ", (13, 1, 37)),
        ];
        for (text, (major, minor, build)) in cases {
            assert_eq!(
                SoftwareVersion::parse(text),
                Some(SoftwareVersion {
                    major,
                    minor,
                    build
                }),
                "{text}"
            );
        }
        for bad in [
            "",
            "14",
            "fourteen",
            "14.x",
            "11.1-",
            "11.1 build",
            "11.1-51..2",
            "1.2.3",
        ] {
            assert_eq!(SoftwareVersion::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn backup_parents_need_11_1_build_51() {
        let cases = [
            ("10.5", false),
            ("11.0", false),
            ("11.1", false),
            ("11.1-50.10", false),
            ("11.1-51", true),
            ("11.1-52.3", true),
            ("12.0", true),
            ("13.1", true),
            ("14.1", true),
        ];
        for (text, want) in cases {
            assert_eq!(v(text).has_backup_parents(), want, "{text}");
        }
    }

    #[test]
    fn initiator_rule_table() {
        let low: IpAddr = [10, 0, 0, 1].into();
        let high: IpAddr = [10, 0, 0, 2].into();
        // (a ip, a version, b ip, b version, parent-child, a initiates)
        let cases = [
            (low, "14.1", high, "14.1", false, true),
            (high, "14.1", low, "14.1", false, false),
            (high, "10.5", low, "14.1", false, false),
            // Parent (a) and child (b), both recent: the parent, whatever the IPs.
            (high, "14.1", low, "14.1", true, true),
            (low, "11.1-51", high, "13.0", true, true),
            // One side older than 11.1 build 51: the lower IP.
            (high, "14.1", low, "10.5", true, false),
            (high, "11.1", low, "14.1", true, false),
            (low, "10.5", high, "10.5", true, true),
        ];
        for (a_ip, av, b_ip, bv, pc, want) in cases {
            let got = initiator(a_ip, v(av), b_ip, v(bv), pc);
            assert_eq!(got.a, want, "{a_ip} {av} / {b_ip} {bv} parent-child={pc}");
        }
        assert!(initiator(high, v("14.1"), low, v("14.1"), true)
            .rule
            .contains("parent opens"));
        assert!(initiator(high, v("10.5"), low, v("14.1"), true)
            .rule
            .contains("before 11.1 build 51"));
    }
}
