//! The resource-location list's search, state filter, sort and paging, done on the server so
//! a page carries at most [`RL_PAGE_SIZE`] rows however many locations the estate has, and a
//! view is shared by its URL (`/lhc?q=par&state=extended_ha&sort=unregistered&desc=1`).

use engine::lhc::{HaState, RlView};
use serde::{Deserialize, Serialize};

use crate::model::overview::lhc_state_rank;

/// Rows per page of the resource-location list.
pub const RL_PAGE_SIZE: u32 = 50;

/// A column of the list to sort by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RlSort {
    /// Configuration order.
    #[default]
    Config,
    /// Display name.
    Name,
    /// HA state, the worst first (Extended HA, HA Initial, Pending HA, Pending Recovery).
    State,
    /// Elected secondary broker.
    Elected,
    /// Cloud Connectors up.
    Connectors,
    /// VDAs on the cloud broker.
    Cloud,
    /// VDAs on a secondary broker.
    Secondary,
    /// VDAs unregistered.
    Unregistered,
}

impl RlSort {
    /// Every sort with its URL key, in the table's column order.
    pub const ALL: [(&'static str, RlSort); 8] = [
        ("config", RlSort::Config),
        ("name", RlSort::Name),
        ("state", RlSort::State),
        ("elected", RlSort::Elected),
        ("connectors", RlSort::Connectors),
        ("cloud", RlSort::Cloud),
        ("secondary", RlSort::Secondary),
        ("unregistered", RlSort::Unregistered),
    ];

    /// The sort named `key` in a URL.
    pub fn parse(key: &str) -> Option<RlSort> {
        Self::ALL.iter().find(|(k, _)| *k == key).map(|(_, s)| *s)
    }

    /// Its URL key.
    pub fn key(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, s)| *s == self)
            .map_or("config", |(k, _)| k)
    }
}

/// What the list shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RlListQuery {
    /// Only names or ids containing this (case-insensitive).
    pub search: Option<String>,
    /// Only this HA state.
    pub state: Option<HaState>,
    /// Sort column.
    pub sort: RlSort,
    /// Descending order.
    pub descending: bool,
    /// Page, from 1.
    pub page: u32,
}

/// A page of the list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RlPage {
    /// Resource locations in all.
    pub total: u32,
    /// Those matching the search and the filter.
    pub matching: u32,
    /// This page, from 1.
    pub page: u32,
    /// Its rows.
    pub rows: Vec<RlView>,
}

/// The page of `rls` (configuration order) that `q` asks for.
pub fn select(rls: Vec<RlView>, q: &RlListQuery) -> RlPage {
    let total = u32::try_from(rls.len()).unwrap_or(u32::MAX);
    let needle = q.search.as_deref().map(str::to_lowercase);
    let rows: Vec<RlView> = rls
        .into_iter()
        .filter(|rl| q.state.is_none_or(|s| rl.ha_state == s))
        .filter(|rl| {
            needle.as_deref().is_none_or(|n| {
                rl.name.to_lowercase().contains(n) || rl.id.to_lowercase().contains(n)
            })
        })
        .collect();
    // A stable sort: equal rows keep configuration order, whichever the direction.
    let mut rows: Vec<(usize, RlView)> = rows.into_iter().enumerate().collect();
    let cmp = |(ia, a): &(usize, RlView), (ib, b): &(usize, RlView)| match q.sort {
        RlSort::Config => ia.cmp(ib),
        RlSort::Name => a.name.to_lowercase().cmp(&b.name.to_lowercase()),
        RlSort::State => lhc_state_rank(a.ha_state).cmp(&lhc_state_rank(b.ha_state)),
        RlSort::Elected => a.elected.cmp(&b.elected),
        RlSort::Connectors => a.connectors_up.cmp(&b.connectors_up),
        RlSort::Cloud => a.on_cloud.cmp(&b.on_cloud),
        RlSort::Secondary => a.on_secondary.cmp(&b.on_secondary),
        RlSort::Unregistered => a.unregistered.cmp(&b.unregistered),
    };
    rows.sort_by(|a, b| {
        let order = cmp(a, b);
        if q.descending {
            order.reverse()
        } else {
            order
        }
    });
    let matching = u32::try_from(rows.len()).unwrap_or(u32::MAX);
    let page = q.page.max(1);
    let rows = rows
        .into_iter()
        .skip(((page - 1) as usize).saturating_mul(RL_PAGE_SIZE as usize))
        .take(RL_PAGE_SIZE as usize)
        .map(|(_, rl)| rl)
        .collect();
    RlPage {
        total,
        matching,
        page,
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::fixtures::rl;

    fn estate() -> Vec<RlView> {
        (0..120)
            .map(|i| {
                let mut r = rl(&format!("rl-{i:03}"));
                r.name = format!(
                    "{} datacenter {i}",
                    if i % 2 == 0 { "Paris" } else { "Lyon" }
                );
                r.unregistered = (i * 7 % 13) as u32;
                r.ha_state = match i {
                    17 | 42 | 73 => HaState::ExtendedHa,
                    5 => HaState::PendingHa,
                    _ => HaState::WorkingNormally,
                };
                r
            })
            .collect()
    }

    fn ids(page: &RlPage) -> Vec<&str> {
        page.rows.iter().map(|r| r.id.as_str()).collect()
    }

    #[test]
    fn the_state_filter_and_the_search_combine() {
        let cases: &[(Option<&str>, Option<HaState>, u32)] = &[
            (None, None, 120),
            (None, Some(HaState::ExtendedHa), 3),
            (Some("PARIS"), None, 60),
            (Some("paris"), Some(HaState::ExtendedHa), 1),
            (Some("rl-04"), None, 10),
            (Some("nowhere"), None, 0),
        ];
        for (search, state, matching) in cases {
            let q = RlListQuery {
                search: search.map(str::to_owned),
                state: *state,
                ..RlListQuery::default()
            };
            let page = select(estate(), &q);
            assert_eq!(page.total, 120);
            assert_eq!(page.matching, *matching, "{search:?} {state:?}");
        }
        let extended = select(
            estate(),
            &RlListQuery {
                state: Some(HaState::ExtendedHa),
                ..RlListQuery::default()
            },
        );
        assert_eq!(ids(&extended), ["rl-017", "rl-042", "rl-073"]);
    }

    #[test]
    fn pages_hold_fifty_rows_and_the_sort_keeps_configuration_order_for_ties() {
        let first = select(estate(), &RlListQuery::default());
        assert_eq!(first.rows.len(), 50);
        let third = select(
            estate(),
            &RlListQuery {
                page: 3,
                ..RlListQuery::default()
            },
        );
        assert_eq!(third.rows.len(), 20);
        assert_eq!(third.rows[0].id, "rl-100");
        let worst = select(
            estate(),
            &RlListQuery {
                sort: RlSort::State,
                ..RlListQuery::default()
            },
        );
        assert_eq!(&ids(&worst)[..4], ["rl-017", "rl-042", "rl-073", "rl-005"]);
        let most = select(
            estate(),
            &RlListQuery {
                sort: RlSort::Unregistered,
                descending: true,
                ..RlListQuery::default()
            },
        );
        let unregistered: Vec<u32> = most.rows.iter().map(|r| r.unregistered).collect();
        assert!(unregistered.windows(2).all(|w| w[0] >= w[1]));
        assert_eq!(unregistered[0], 12);
        // Ties stay in configuration order when descending too.
        let tied: Vec<&str> = most
            .rows
            .iter()
            .filter(|r| r.unregistered == 12)
            .map(|r| r.id.as_str())
            .collect();
        let mut sorted = tied.clone();
        sorted.sort_unstable();
        assert_eq!(tied, sorted);
    }

    #[test]
    fn every_sort_key_reads_back() {
        for (key, sort) in RlSort::ALL {
            assert_eq!(RlSort::parse(key), Some(sort));
            assert_eq!(sort.key(), key);
        }
        assert_eq!(RlSort::parse("load"), None);
    }
}
