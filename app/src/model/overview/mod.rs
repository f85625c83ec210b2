//! The overview's cards in one answer: what needs attention, each engine's counts by state
//! and its few worst items, and each engine's recent changes, all built from one read of each
//! engine's state. The cards show aggregates, never one line per entity: the answer's size (and
//! the page's) stays the same whether the estate has three resource locations or a hundred,
//! ten servers or ten thousand.

mod autoscale;
mod gslb;
mod lhc;
mod lms;

use serde::{Deserialize, Serialize};

pub use autoscale::{AutoscaleSummary, ClusterLine, GroupLine};
pub use gslb::{GslbSummary, SiteLine};
pub use lhc::{state_rank as lhc_state_rank, LhcSummary, RlLine};
pub use lms::{LmsSummary, ServerLine, UP_BAND_LABELS};

use crate::model::activity::ActivityView;
use crate::model::attention::AttentionItem;

/// Most items a card lists (its worst ones) and most items of the attention list.
pub const WORST_SHOWN: usize = 10;

/// Everything the overview's cards show.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Overview {
    /// What needs attention, most serious first: the first [`WORST_SHOWN`].
    pub attention: Vec<AttentionItem>,
    /// How many items each engine has beyond those shown, with the page that lists them.
    pub attention_more: Vec<MoreItems>,
    /// Resource locations.
    pub lhc: LhcSummary,
    /// The load-management farm.
    pub lms: LmsSummary,
    /// The GSLB topology.
    pub gslb: GslbSummary,
    /// The autoscale groups.
    pub autoscale: AutoscaleSummary,
    /// Each engine's recent changes (the sparklines), in `EngineId::ALL` order.
    pub activity: Vec<ActivityView>,
}

impl Overview {
    /// The recent changes of the engine named `engine`, if the answer has them.
    pub fn activity_of(&self, engine: &str) -> Option<ActivityView> {
        self.activity.iter().find(|a| a.engine == engine).cloned()
    }
}

/// Items of one engine left off the attention list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoreItems {
    /// Engine (`lhc`, `lms`, `gslb`, `autoscale`, `alert`).
    pub engine: String,
    /// How many.
    pub count: usize,
    /// The page that shows them.
    pub href: String,
}

/// The first [`WORST_SHOWN`] of `items` (already sorted most serious first), and per engine
/// how many were left off.
pub fn cap_attention(mut items: Vec<AttentionItem>) -> (Vec<AttentionItem>, Vec<MoreItems>) {
    let rest = items.split_off(items.len().min(WORST_SHOWN));
    let mut more: Vec<MoreItems> = Vec::new();
    for item in rest {
        match more.iter_mut().find(|m| m.engine == item.engine) {
            Some(m) => m.count += 1,
            None => more.push(MoreItems {
                href: engine_page(&item.engine).to_owned(),
                engine: item.engine,
                count: 1,
            }),
        }
    }
    (items, more)
}

/// The page listing an engine's items.
fn engine_page(engine: &str) -> &'static str {
    match engine {
        "lhc" => "/lhc?sort=state",
        "lms" => "/lms?sort=load&desc=1",
        "gslb" => "/gslb",
        "autoscale" => "/autoscale",
        _ => "/alerts",
    }
}

/// A count with its label, the page filtered to it, and its CSS state class: one tile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tile {
    /// What is counted ("Extended HA", "10,000 (full)").
    pub label: String,
    /// How many.
    pub count: u64,
    /// The list filtered to them.
    pub href: String,
    /// The state's key (`extended_ha`), for styling and tests.
    pub key: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::attention::Severity;

    fn item(engine: &str, n: usize) -> AttentionItem {
        AttentionItem {
            severity: Severity::Warning,
            engine: engine.into(),
            subject: format!("{engine}-{n}"),
            text: String::new(),
            href: String::new(),
        }
    }

    #[test]
    fn the_attention_list_keeps_the_first_ten_and_counts_the_rest_per_engine() {
        type Counts<'a> = &'a [(&'a str, usize)];
        let cases: &[(Counts, usize, Counts)] = &[
            (&[], 0, &[]),
            (&[("lhc", 3), ("gslb", 7)], 10, &[]),
            (&[("lhc", 3), ("gslb", 100)], 10, &[("gslb", 93)]),
            (
                &[("lhc", 12), ("gslb", 2), ("alert", 1)],
                10,
                &[("lhc", 2), ("gslb", 2), ("alert", 1)],
            ),
        ];
        for (input, shown, more) in cases {
            let items = input
                .iter()
                .flat_map(|(e, n)| (0..*n).map(|i| item(e, i)))
                .collect();
            let (kept, rest) = cap_attention(items);
            assert_eq!(kept.len(), *shown, "{input:?}");
            let rest: Vec<(&str, usize)> =
                rest.iter().map(|m| (m.engine.as_str(), m.count)).collect();
            assert_eq!(rest, *more, "{input:?}");
        }
        let (_, rest) = cap_attention((0..11).map(|i| item("lhc", i)).collect());
        assert_eq!(rest[0].href, "/lhc?sort=state");
    }
}
