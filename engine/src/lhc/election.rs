//! Election of the secondary broker of a resource location (SPEC §1): among the connectors
//! whose High Availability Service is up, the first in case-insensitive alphabetical order of
//! FQDN wins. Always running, in normal operation and in HA mode.

use core::fmt;

use serde::{Deserialize, Serialize};

/// Why a connector is not a candidate.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Exclusion {
    /// The connector is down (failed).
    ConnectorDown,
    /// The connector is restarting.
    Restarting,
    /// Its High Availability Service (the secondary broker) failed.
    HaServiceFailed,
}

impl Exclusion {
    /// The reason, as written in events.
    pub const fn text(self) -> &'static str {
        match self {
            Exclusion::ConnectorDown => "connector down",
            Exclusion::Restarting => "connector restarting",
            Exclusion::HaServiceFailed => "High Availability Service failed",
        }
    }
}

impl fmt::Display for Exclusion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

/// The outcome of one election: candidates in rank order, and the excluded connectors.
/// Connectors are named by their index in the resource location.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Election {
    /// Candidates, best first (case-insensitive FQDN order).
    pub order: Vec<usize>,
    /// Connectors that are not candidates, in index order, with the reason.
    pub excluded: Vec<(usize, Exclusion)>,
}

impl Election {
    /// The elected connector (first candidate), if any.
    pub fn elected(&self) -> Option<usize> {
        self.order.first().copied()
    }

    /// The 1-based rank of connector `i` among the candidates.
    pub fn rank(&self, i: usize) -> Option<usize> {
        self.order.iter().position(|c| *c == i).map(|p| p + 1)
    }
}

/// Runs the election over `(fqdn, exclusion)` per connector (index = position).
pub fn elect(connectors: &[(&str, Option<Exclusion>)]) -> Election {
    let mut order: Vec<(String, usize)> = Vec::new();
    let mut excluded = Vec::new();
    for (i, (fqdn, exclusion)) in connectors.iter().enumerate() {
        match exclusion {
            Some(why) => excluded.push((i, *why)),
            None => order.push((fqdn.to_lowercase(), i)),
        }
    }
    order.sort();
    Election {
        order: order.into_iter().map(|(_, i)| i).collect(),
        excluded,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Exclusion::*;

    /// (connectors, expected order, expected elected).
    type Row<'a> = (
        &'a [(&'a str, Option<Exclusion>)],
        &'a [usize],
        Option<usize>,
    );

    #[test]
    fn election_table() {
        let rows: &[Row] = &[
            (&[("cc01.x", None), ("cc02.x", None)], &[0, 1], Some(0)),
            (&[("cc02.x", None), ("cc01.x", None)], &[1, 0], Some(1)),
            // Case-insensitive: "B" sorts after "a".
            (
                &[("B.x", None), ("a.x", None), ("C.x", None)],
                &[1, 0, 2],
                Some(1),
            ),
            (&[("CC01.x", None), ("cc00.x", None)], &[1, 0], Some(1)),
            // Down connectors are not candidates.
            (
                &[("cc01.x", Some(ConnectorDown)), ("cc02.x", None)],
                &[1],
                Some(1),
            ),
            (
                &[
                    ("cc01.x", Some(Restarting)),
                    ("cc02.x", Some(HaServiceFailed)),
                    ("cc03.x", None),
                ],
                &[2],
                Some(2),
            ),
            (&[("cc01.x", Some(ConnectorDown))], &[], None),
            (&[], &[], None),
        ];
        for (i, (input, order, elected)) in rows.iter().enumerate() {
            let e = elect(input);
            assert_eq!(e.order, *order, "row {i}");
            assert_eq!(e.elected(), *elected, "row {i}");
            let excluded: Vec<usize> = e.excluded.iter().map(|(c, _)| *c).collect();
            let expect: Vec<usize> = (0..input.len()).filter(|c| !order.contains(c)).collect();
            assert_eq!(excluded, expect, "row {i}");
        }
    }

    #[test]
    fn take_back_when_the_first_returns() {
        let up = [("cc01.x", None), ("cc02.x", None), ("cc03.x", None)];
        assert_eq!(elect(&up).elected(), Some(0));
        let restarting = [
            ("cc01.x", Some(Restarting)),
            ("cc02.x", None),
            ("cc03.x", None),
        ];
        let during = elect(&restarting);
        assert_eq!(during.elected(), Some(1));
        assert_eq!(during.rank(2), Some(2));
        assert_eq!(during.rank(0), None);
        assert_eq!(during.excluded, vec![(0, Restarting)]);
        assert_eq!(
            elect(&up).elected(),
            Some(0),
            "it is first again: take-back"
        );
        assert_eq!(Restarting.to_string(), "connector restarting");
    }
}
