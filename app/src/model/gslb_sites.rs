//! The GSLB page's answer at any scale: the totals, the laid-out graph ([`Picture`]) and one
//! page of the sites table, searched and filtered on the server
//! (`/gslb?q=C01&role=child&state=adopted&page=2&expand=P07`).

use engine::gslb::config::SiteRole;
use engine::gslb::views::{
    ClientLocationView, DomainView, GslbSettingView, MepStatus, SiteView, TopologyView,
};
use serde::{Deserialize, Serialize};

use crate::model::gslb_picture::Picture;

/// Rows per page of the sites table.
pub const SITE_PAGE_SIZE: u32 = 50;

/// A state the sites table keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SiteState {
    /// Powered and running.
    Up,
    /// Taken down.
    Down,
    /// A child under a parent other than its configured one.
    Adopted,
    /// A child without a parent.
    Orphaned,
    /// MEP not ACTIVE (INACTIVE or DOWN).
    NotActive,
}

impl SiteState {
    /// Every state with its URL key.
    pub const ALL: [(&'static str, SiteState); 5] = [
        ("up", SiteState::Up),
        ("down", SiteState::Down),
        ("adopted", SiteState::Adopted),
        ("orphaned", SiteState::Orphaned),
        ("not_active", SiteState::NotActive),
    ];

    /// The state named `key` in a URL.
    pub fn parse(key: &str) -> Option<SiteState> {
        Self::ALL.iter().find(|(k, _)| *k == key).map(|(_, s)| *s)
    }

    fn holds(self, s: &SiteView) -> bool {
        let child = s.role == SiteRole::Child;
        match self {
            SiteState::Up => s.up,
            SiteState::Down => !s.up,
            SiteState::Adopted => {
                child && s.current_parent.is_some() && s.current_parent != s.configured_parent
            }
            SiteState::Orphaned => child && s.current_parent.is_none(),
            SiteState::NotActive => s.mep_status != MepStatus::Active,
        }
    }
}

/// What the sites table shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SiteQuery {
    /// Only names containing this (case-insensitive).
    pub search: Option<String>,
    /// Only parents or only children.
    pub role: Option<SiteRole>,
    /// Only sites in this state.
    pub state: Option<SiteState>,
    /// Page, from 1.
    pub page: u32,
}

/// A page of the sites table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SitePage {
    /// Sites in all.
    pub total: u32,
    /// Those matching.
    pub matching: u32,
    /// This page, from 1.
    pub page: u32,
    /// Its rows (configuration order).
    pub rows: Vec<SiteView>,
}

/// The page of `sites` that `q` asks for.
pub fn select_sites(sites: &[SiteView], q: &SiteQuery) -> SitePage {
    let needle = q.search.as_deref().map(str::to_lowercase);
    let matching: Vec<&SiteView> = sites
        .iter()
        .filter(|s| q.role.is_none_or(|r| s.role == r))
        .filter(|s| q.state.is_none_or(|st| st.holds(s)))
        .filter(|s| {
            needle
                .as_deref()
                .is_none_or(|n| s.name.to_lowercase().contains(n))
        })
        .collect();
    let page = q.page.max(1);
    SitePage {
        total: u32::try_from(sites.len()).unwrap_or(u32::MAX),
        matching: u32::try_from(matching.len()).unwrap_or(u32::MAX),
        page,
        rows: matching
            .into_iter()
            .skip(((page - 1) as usize).saturating_mul(SITE_PAGE_SIZE as usize))
            .take(SITE_PAGE_SIZE as usize)
            .cloned()
            .collect(),
    }
}

/// The topology's counters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GslbTotals {
    /// Parents up.
    pub parents_up: u32,
    /// Parents in all.
    pub parents_total: u32,
    /// Children in all.
    pub children_total: u32,
    /// Children under a parent other than their configured one.
    pub children_adopted: u32,
    /// Children without a parent.
    pub children_orphaned: u32,
    /// Adoptions accepted.
    pub adoptions: u64,
    /// Adoptions rejected.
    pub rejections: u64,
    /// DNS queries answered.
    pub dns_answered: u64,
}

/// Everything the GSLB page shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GslbConsolePage {
    /// Simulated ms.
    pub now_ms: u64,
    /// The counters.
    pub totals: GslbTotals,
    /// The domains.
    pub domains: Vec<DomainView>,
    /// The settings (documented or assumed).
    pub settings: Vec<GslbSettingView>,
    /// The graph, laid out.
    pub picture: Picture,
    /// A page of the sites table.
    pub sites: SitePage,
    /// The parent sites (suggestions of the link-fault form).
    pub parents: Vec<String>,
    /// Client locations for the resolve panel.
    pub locations: Vec<ClientLocationView>,
}

impl GslbConsolePage {
    /// The page of `topology` with its graph and sites table as asked.
    pub fn of(
        topology: TopologyView,
        picture: Picture,
        sites: &SiteQuery,
        locations: Vec<ClientLocationView>,
        now_ms: u64,
    ) -> GslbConsolePage {
        let t = &topology;
        GslbConsolePage {
            now_ms,
            totals: GslbTotals {
                parents_up: t.parents_up,
                parents_total: t.parents_total,
                children_total: t.children_total,
                children_adopted: t.children_adopted,
                children_orphaned: t.children_orphaned,
                adoptions: t.adoptions,
                rejections: t.rejections,
                dns_answered: t.dns_answered,
            },
            sites: select_sites(&t.sites, sites),
            parents: t
                .sites
                .iter()
                .filter(|s| s.role == SiteRole::Parent)
                .map(|s| s.name.clone())
                .collect(),
            picture,
            locations,
            domains: topology.domains,
            settings: topology.settings,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::fixtures::topology;

    #[test]
    fn the_sites_table_is_searched_filtered_and_paged() {
        let mut t = topology(32, 1024);
        t.sites[40].up = false;
        t.sites[41].current_parent = Some("P10".to_owned());
        t.sites[42].current_parent = None;
        t.sites[43].mep_status = MepStatus::Inactive;
        let count = |q: SiteQuery| select_sites(&t.sites, &q).matching;
        let cases = [
            (SiteQuery::default(), 1056),
            (
                SiteQuery {
                    role: Some(SiteRole::Parent),
                    ..SiteQuery::default()
                },
                32,
            ),
            (
                SiteQuery {
                    search: Some("c01".to_owned()),
                    ..SiteQuery::default()
                },
                100,
            ),
            (
                SiteQuery {
                    state: Some(SiteState::Down),
                    ..SiteQuery::default()
                },
                1,
            ),
            (
                SiteQuery {
                    state: Some(SiteState::Adopted),
                    ..SiteQuery::default()
                },
                1,
            ),
            (
                SiteQuery {
                    state: Some(SiteState::Orphaned),
                    ..SiteQuery::default()
                },
                1,
            ),
            (
                SiteQuery {
                    state: Some(SiteState::NotActive),
                    role: Some(SiteRole::Child),
                    ..SiteQuery::default()
                },
                1,
            ),
        ];
        for (q, want) in cases {
            assert_eq!(count(q.clone()), want, "{q:?}");
        }
        let last = select_sites(
            &t.sites,
            &SiteQuery {
                page: 22,
                ..SiteQuery::default()
            },
        );
        assert_eq!(last.rows.len(), 1056 - 21 * 50);
        assert_eq!(last.page, 22);
        for (key, state) in SiteState::ALL {
            assert_eq!(SiteState::parse(key), Some(state));
        }
        assert_eq!(SiteState::parse("sideways"), None);
    }
}
