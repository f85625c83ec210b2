//! Address ranges and locations: the [`Network`] of a client location (`192.0.2.0/24`), the
//! dotted location qualifiers of static proximity (`EU.FR.Paris`) and the distance between
//! two locations that static proximity and the RTT model use.

use core::fmt;
use core::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use core::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An address range in CIDR form (`198.18.0.0/24`, `2001:db8::/32`). The address is kept
/// with its host bits cleared.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Network {
    /// The first address of the range.
    pub addr: IpAddr,
    /// Prefix length (0..=32 for IPv4, 0..=128 for IPv6).
    pub prefix: u8,
}

/// A text that is not `address/prefix`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a network like 192.0.2.0/24; got `{0}`")]
pub struct NetworkParseError(pub String);

fn mask_v4(prefix: u8) -> u32 {
    if prefix == 0 {
        0
    } else {
        u32::MAX << (32 - u32::from(prefix))
    }
}

fn mask_v6(prefix: u8) -> u128 {
    if prefix == 0 {
        0
    } else {
        u128::MAX << (128 - u32::from(prefix))
    }
}

impl Network {
    /// A range; host bits of `addr` are cleared. `None` if the prefix is too long.
    pub fn new(addr: IpAddr, prefix: u8) -> Option<Network> {
        match addr {
            IpAddr::V4(a) if prefix <= 32 => Some(Network {
                addr: IpAddr::V4(Ipv4Addr::from(u32::from(a) & mask_v4(prefix))),
                prefix,
            }),
            IpAddr::V6(a) if prefix <= 128 => Some(Network {
                addr: IpAddr::V6(Ipv6Addr::from(u128::from(a) & mask_v6(prefix))),
                prefix,
            }),
            _ => None,
        }
    }

    /// Whether `ip` is inside the range (same address family).
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.addr, ip) {
            (IpAddr::V4(n), IpAddr::V4(a)) => u32::from(a) & mask_v4(self.prefix) == u32::from(n),
            (IpAddr::V6(n), IpAddr::V6(a)) => u128::from(a) & mask_v6(self.prefix) == u128::from(n),
            _ => false,
        }
    }

    /// An address inside the range for the console's resolve panel: the first host (network
    /// address + 1) when the range has more than two addresses, else the address itself.
    pub fn sample(&self) -> IpAddr {
        match self.addr {
            IpAddr::V4(a) if self.prefix < 31 => IpAddr::V4(Ipv4Addr::from(u32::from(a) + 1)),
            IpAddr::V6(a) if self.prefix < 127 => IpAddr::V6(Ipv6Addr::from(u128::from(a) + 1)),
            other => other,
        }
    }
}

impl fmt::Display for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.addr, self.prefix)
    }
}

impl FromStr for Network {
    type Err = NetworkParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || NetworkParseError(s.to_owned());
        let (addr, prefix) = s.trim().split_once('/').ok_or_else(bad)?;
        let addr: IpAddr = addr.parse().map_err(|_| bad())?;
        let prefix: u8 = prefix.parse().map_err(|_| bad())?;
        Network::new(addr, prefix).ok_or_else(bad)
    }
}

impl Serialize for Network {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Network {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Whether a location text is well formed: dot-separated qualifiers, none empty, no spaces.
pub fn valid_location(text: &str) -> bool {
    !text.is_empty()
        && text
            .split('.')
            .all(|q| !q.is_empty() && !q.chars().any(char::is_whitespace))
}

/// Distance between two dotted locations: the qualifiers each has beyond their common
/// leading ones (`EU.FR.Paris` to `EU.FR.Lyon` = 2, to `EU.FR` = 1, to `US` = 4). Static
/// proximity prefers the smallest; the RTT model grows with it.
///
/// Compared byte by byte, without splitting: the GSLB page asks it for every client location
/// and every site, and ADNS for every answer.
pub fn distance(a: &str, b: &str) -> u32 {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let dots = |text: &[u8]| text.iter().filter(|&&c| c == b'.').count();
    // The longest common start holds the qualifiers before its last dot, and one more when
    // both locations end a qualifier where it ends.
    let same = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let ends_there = |text: &[u8]| text.get(same).is_none_or(|&c| c == b'.');
    let common = dots(&a[..same]) + usize::from(ends_there(a) && ends_there(b));
    let qualifiers = dots(a) + dots(b) + 2;
    u32::try_from(qualifiers - 2 * common).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The distance as defined: the qualifiers of each beyond their common leading ones.
    fn distance_by_qualifiers(a: &str, b: &str) -> u32 {
        let (qa, qb): (Vec<&str>, Vec<&str>) = (a.split('.').collect(), b.split('.').collect());
        let common = qa.iter().zip(&qb).take_while(|(x, y)| x == y).count();
        u32::try_from(qa.len() + qb.len() - 2 * common).unwrap_or(u32::MAX)
    }

    proptest! {
        /// Byte by byte, the distance is the one its definition gives, for any two texts
        /// (well formed or not: a prefix of a qualifier is not that qualifier, `EU.FR` is not
        /// `EU.FRA`), and it is symmetric.
        #[test]
        fn distance_counts_the_qualifiers_beyond_the_common_ones(
            a in "[ab.]{0,8}",
            b in "[ab.]{0,8}",
        ) {
            prop_assert_eq!(distance(&a, &b), distance_by_qualifiers(&a, &b));
            prop_assert_eq!(distance(&a, &b), distance(&b, &a));
        }
    }

    #[test]
    fn networks_parse_contain_and_sample() {
        let cases = [
            ("198.18.3.0/24", "198.18.3.77", true, "198.18.3.1"),
            ("198.18.3.9/24", "198.18.4.1", false, "198.18.3.1"),
            ("10.0.0.5/32", "10.0.0.5", true, "10.0.0.5"),
            ("0.0.0.0/0", "8.8.8.8", true, "0.0.0.1"),
            ("2001:db8::/32", "2001:db8:1::1", true, "2001:db8::1"),
            ("2001:db8::/32", "10.0.0.1", false, "2001:db8::1"),
        ];
        for (net, ip, inside, sample) in cases {
            let n: Network = net.parse().unwrap_or_else(|e| panic!("{net}: {e}"));
            let ip: IpAddr = ip.parse().unwrap_or_else(|e| panic!("{ip}: {e}"));
            assert_eq!(n.contains(ip), inside, "{net} ∋ {ip}");
            assert_eq!(n.sample().to_string(), sample, "{net}");
        }
        for bad in [
            "10.0.0.0",
            "10.0.0.0/33",
            "x/8",
            "10.0.0.0/-1",
            "::/129",
            "",
        ] {
            assert!(bad.parse::<Network>().is_err(), "{bad}");
        }
        assert_eq!(
            "198.18.3.9/24".parse::<Network>().map(|n| n.to_string()),
            Ok("198.18.3.0/24".to_owned())
        );
    }

    #[test]
    fn location_distance_counts_differing_qualifiers() {
        let cases = [
            ("EU.FR.Paris", "EU.FR.Paris", 0),
            ("EU.FR.Paris", "EU.FR.Lyon", 2),
            ("EU.FR.Paris", "EU.FR", 1),
            ("EU.FR.Paris", "US", 4),
            ("SiteP1", "SiteP1.Child_Site1", 1),
            ("SiteP1", "SiteP2.Child_Site3", 3),
            ("EU.FR", "EU.FRA", 2),
            ("EU.FR.Paris", "EU.FR.Paris.Nord", 1),
        ];
        for (a, b, d) in cases {
            assert_eq!(distance(a, b), d, "{a} / {b}");
            assert_eq!(distance(b, a), d, "{b} / {a}");
        }
        assert!(valid_location("EU.FR"));
        for bad in ["", "EU..FR", ".EU", "EU FR"] {
            assert!(!valid_location(bad), "{bad}");
        }
    }
}
