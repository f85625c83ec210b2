//! The GSLB page's answer at any scale: the totals, the laid-out graph ([`Picture`]) and one
//! page of the sites table, searched and filtered on the server
//! (`/gslb?q=C01&role=child&state=adopted&page=2&expand=P07`).

use engine::gslb::config::SiteRole;
use engine::gslb::views::{
    ClientLocationView, DomainView, GslbSettingView, MepStatus, SiteView, TopologyView,
};
use serde::{Deserialize, Serialize};

use crate::model::gslb_picture::Picture;
use crate::model::listing::{contains, page_of, ListPage};

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

/// A column of the sites table to sort by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SiteSort {
    /// The topology's order: parents, then children, each in configuration order.
    #[default]
    Topology,
    /// Site name.
    Name,
    /// Parents before children.
    Role,
    /// Down before up.
    State,
    /// MEP DOWN, then INACTIVE, then ACTIVE.
    Mep,
    /// Current parent: orphaned children first, parents last.
    Parent,
}

/// Every sort with its URL key and column heading.
pub const SITE_SORTS: [(&str, SiteSort, &str); 5] = [
    ("name", SiteSort::Name, "Site"),
    ("role", SiteSort::Role, "Role"),
    ("state", SiteSort::State, "State"),
    ("mep", SiteSort::Mep, "MEP"),
    ("parent", SiteSort::Parent, "Parent (configured)"),
];

/// What the sites table shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SiteQuery {
    /// Only names containing this (case-insensitive).
    pub search: Option<String>,
    /// Only parents or only children.
    pub role: Option<SiteRole>,
    /// Only sites in this state.
    pub state: Option<SiteState>,
    /// Sort column.
    pub sort: SiteSort,
    /// Descending order.
    pub descending: bool,
    /// Page, from 1.
    pub page: u32,
}

/// A page of the sites table.
pub type SitePage = ListPage<SiteView>;

/// How bad a MEP status is: DOWN first.
pub fn mep_rank(status: MepStatus) -> u8 {
    match status {
        MepStatus::Down => 0,
        MepStatus::Inactive => 1,
        MepStatus::Active => 2,
    }
}

/// Where a site sorts by parent: orphaned children, then children by current parent, then
/// the parents (which have none).
fn parent_key(s: &SiteView) -> (u8, &str) {
    match (s.role, s.current_parent.as_deref()) {
        (SiteRole::Child, None) => (0, ""),
        (SiteRole::Child, Some(p)) => (1, p),
        (SiteRole::Parent, _) => (2, ""),
    }
}

/// The page of `sites` that `q` asks for.
pub fn select_sites(sites: &[SiteView], q: &SiteQuery) -> SitePage {
    let needle = q.search.as_deref().map(str::to_lowercase);
    let matching: Vec<&SiteView> = sites
        .iter()
        .filter(|s| q.role.is_none_or(|r| s.role == r))
        .filter(|s| q.state.is_none_or(|st| st.holds(s)))
        .filter(|s| needle.as_deref().is_none_or(|n| contains(&s.name, n)))
        .collect();
    let order = |a: &&SiteView, b: &&SiteView| match q.sort {
        SiteSort::Topology => std::cmp::Ordering::Equal,
        SiteSort::Name => a.name.cmp(&b.name),
        SiteSort::Role => (a.role == SiteRole::Child).cmp(&(b.role == SiteRole::Child)),
        SiteSort::State => a.up.cmp(&b.up),
        SiteSort::Mep => mep_rank(a.mep_status).cmp(&mep_rank(b.mep_status)),
        SiteSort::Parent => parent_key(a).cmp(&parent_key(b)),
    };
    let page = page_of(
        sites.len(),
        matching,
        order,
        q.descending,
        q.page,
        SITE_PAGE_SIZE,
    );
    ListPage {
        total: page.total,
        matching: page.matching,
        page: page.page,
        rows: page.rows.into_iter().cloned().collect(),
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
        // Sorted: the down site first by state, the orphan first by parent; names either way.
        let sorted = |sort, descending| {
            let q = SiteQuery {
                sort,
                descending,
                ..SiteQuery::default()
            };
            select_sites(&t.sites, &q).rows
        };
        assert_eq!(sorted(SiteSort::State, false)[0].name, t.sites[40].name);
        assert_eq!(sorted(SiteSort::Parent, false)[0].name, t.sites[42].name);
        assert_eq!(
            sorted(SiteSort::Mep, false)[0].mep_status,
            MepStatus::Inactive
        );
        let by_name = sorted(SiteSort::Name, true);
        assert!(by_name.windows(2).all(|w| w[0].name >= w[1].name));
        assert_eq!(sorted(SiteSort::Role, true)[0].role, SiteRole::Child);
        for (key, state) in SiteState::ALL {
            assert_eq!(SiteState::parse(key), Some(state));
        }
        assert_eq!(SiteState::parse("sideways"), None);
    }
}
