//! The autoscale groups table at any scale: searched, filtered, sorted and paged on the
//! server (`/autoscale?q=web&state=cooldown&mode=dns&sort=nodes&desc=1&page=2`).

use engine::autoscale::config::DistributionMode;
use engine::autoscale::views::{ClusterState, GroupView};

use crate::error::AppError;
use crate::model::listing::{contains, keyed, page_of, ListPage};

/// Rows per page of the groups table.
pub const GROUP_PAGE_SIZE: u32 = 25;

/// Every cluster state with its URL key (the overview tiles' keys), in the tiles' order.
pub const STATE_KEYS: [(&str, ClusterState); 6] = [
    ("evaluating", ClusterState::Evaluating),
    ("scaling", ClusterState::Scaling),
    ("cooldown", ClusterState::Cooldown),
    ("draining", ClusterState::Draining),
    ("ttl_wait", ClusterState::TtlWait),
    ("idle", ClusterState::Idle),
];

/// Every traffic distribution with its URL key.
pub const MODE_KEYS: [(&str, DistributionMode); 2] = [
    ("dns", DistributionMode::Dns),
    ("nlb", DistributionMode::Nlb),
];

/// A column of the table to sort by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GroupSort {
    /// Group name.
    #[default]
    Name,
    /// DNS before NLB.
    Mode,
    /// Nodes in service over the group's zones.
    Nodes,
    /// When the group last decided (never first).
    Decision,
}

/// The columns the table sorts by, with their URL keys and headers.
pub const GROUP_SORTS: [(&str, GroupSort, &str); 4] = [
    ("name", GroupSort::Name, "Group"),
    ("mode", GroupSort::Mode, "Mode"),
    ("nodes", GroupSort::Nodes, "Nodes in service"),
    ("decision", GroupSort::Decision, "Last decision"),
];

/// What the groups table shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupQuery {
    /// Only names or domains containing this (case-insensitive).
    pub search: Option<String>,
    /// Only groups with at least one cluster in this state.
    pub state: Option<ClusterState>,
    /// Only groups with this traffic distribution.
    pub mode: Option<DistributionMode>,
    /// Sort column.
    pub sort: GroupSort,
    /// Largest first.
    pub desc: bool,
    /// Page, from 1.
    pub page: u32,
}

impl GroupQuery {
    /// The query as typed in the page's URL; each bad value is refused naming its field and
    /// what it may be.
    pub fn parse(
        search: Option<String>,
        state: Option<&str>,
        mode: Option<&str>,
        sort: Option<&str>,
        desc: bool,
        page: u32,
    ) -> Result<GroupQuery, AppError> {
        let sorts: Vec<(&'static str, GroupSort)> =
            GROUP_SORTS.iter().map(|(k, s, _)| (*k, *s)).collect();
        Ok(GroupQuery {
            search,
            state: keyed("state", &STATE_KEYS, state)?,
            mode: keyed("mode", &MODE_KEYS, mode)?,
            sort: keyed("sort", &sorts, sort)?.unwrap_or_default(),
            desc,
            page,
        })
    }
}

/// A page of the groups table.
pub type GroupPage = ListPage<GroupView>;

/// Nodes in service over a group's zones.
pub fn nodes_in_service(g: &GroupView) -> u32 {
    g.zones.iter().map(|z| z.nodes_in_service).sum()
}

/// The page of `groups` that `q` asks for. Ties keep the name order, so a page never
/// shuffles between two requests.
pub fn select_groups(mut groups: Vec<GroupView>, q: &GroupQuery) -> GroupPage {
    let total = groups.len();
    // Name order first; the stable sort by the asked column then keeps it among ties.
    groups.sort_by(|a, b| a.name.cmp(&b.name));
    let needle = q.search.as_deref().map(str::to_lowercase);
    let matching: Vec<GroupView> = groups
        .into_iter()
        .filter(|g| q.state.is_none_or(|s| g.zones.iter().any(|z| z.state == s)))
        .filter(|g| q.mode.is_none_or(|m| g.mode == m))
        .filter(|g| {
            needle
                .as_deref()
                .is_none_or(|n| contains(&g.name, n) || contains(&g.domain, n))
        })
        .collect();
    let key = |g: &GroupView| -> u64 {
        match q.sort {
            GroupSort::Name => 0,
            GroupSort::Mode => u64::from(matches!(g.mode, DistributionMode::Nlb)),
            GroupSort::Nodes => u64::from(nodes_in_service(g)),
            GroupSort::Decision => g.last_decision.as_ref().map_or(0, |d| d.at_ms + 1),
        }
    };
    let order = |a: &GroupView, b: &GroupView| match q.sort {
        GroupSort::Name => a.name.cmp(&b.name),
        _ => key(a).cmp(&key(b)),
    };
    page_of(total, matching, order, q.desc, q.page, GROUP_PAGE_SIZE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{Scenario, Simulation};

    const DEMO: &str = include_str!("../../../scenarios/demo.toml");

    /// A test group: name, mode, its clusters' (state, nodes in service), its last decision.
    type Spec<'a> = (
        &'a str,
        DistributionMode,
        &'a [(ClusterState, u32)],
        Option<u64>,
    );

    /// Groups made from the demo's first.
    fn groups(specs: &[Spec<'_>]) -> Vec<GroupView> {
        let scenario = Scenario::from_toml_str(DEMO, "demo.toml").unwrap_or_else(|e| panic!("{e}"));
        let sim = Simulation::new(&scenario, 1);
        let Some(template) = sim.autoscale().groups().into_iter().next() else {
            panic!("the demo has autoscale groups")
        };
        let Some(cluster) = template.zones.first().cloned() else {
            panic!("a group has zones")
        };
        specs
            .iter()
            .map(|(name, mode, zones, decided)| GroupView {
                name: (*name).to_owned(),
                domain: format!("{name}.example.com"),
                mode: *mode,
                zones: zones
                    .iter()
                    .map(|(state, nodes)| engine::autoscale::views::ClusterView {
                        state: *state,
                        nodes_in_service: *nodes,
                        ..cluster.clone()
                    })
                    .collect(),
                last_decision: decided.map(|at_ms| engine::autoscale::views::DecisionView {
                    at_ms,
                    zone: "z".into(),
                    kind: "scale_out".into(),
                    reason: String::new(),
                }),
                ..template.clone()
            })
            .collect()
    }

    fn names(page: &GroupPage) -> Vec<&str> {
        page.rows.iter().map(|g| g.name.as_str()).collect()
    }

    #[test]
    fn groups_are_searched_filtered_and_sorted_with_ties_in_name_order() {
        use ClusterState::*;
        use DistributionMode::*;
        let all = groups(&[
            ("web", Nlb, &[(Evaluating, 4), (Cooldown, 3)], Some(60_000)),
            ("api", Dns, &[(Evaluating, 2)], None),
            ("batch", Dns, &[(Draining, 7)], Some(120_000)),
            ("web-eu", Dns, &[(Evaluating, 3)], Some(60_000)),
        ]);
        let query = |search: Option<&str>,
                     state: Option<&str>,
                     mode: Option<&str>,
                     sort: Option<&str>,
                     desc: bool| {
            GroupQuery::parse(search.map(str::to_owned), state, mode, sort, desc, 1)
                .unwrap_or_else(|e| panic!("{e}"))
        };
        let cases: [(GroupQuery, &[&str]); 9] = [
            (
                query(None, None, None, None, false),
                &["api", "batch", "web", "web-eu"],
            ),
            (
                query(None, None, None, Some("name"), true),
                &["web-eu", "web", "batch", "api"],
            ),
            (
                query(Some("WEB"), None, None, None, false),
                &["web", "web-eu"],
            ),
            (
                query(Some("eu.example"), None, None, None, false),
                &["web-eu"],
            ),
            (query(None, Some("cooldown"), None, None, false), &["web"]),
            (
                query(None, Some("evaluating"), Some("dns"), None, false),
                &["api", "web-eu"],
            ),
            (
                query(None, None, None, Some("nodes"), true),
                &["batch", "web", "web-eu", "api"],
            ),
            (
                query(None, None, None, Some("decision"), false),
                &["api", "web", "web-eu", "batch"],
            ),
            (
                query(None, None, None, Some("mode"), true),
                &["web", "api", "batch", "web-eu"],
            ),
        ];
        for (q, want) in cases {
            let page = select_groups(all.clone(), &q);
            assert_eq!(names(&page), want, "{q:?}");
            assert_eq!(page.total, 4);
            assert_eq!(page.matching as usize, want.len());
        }
    }

    #[test]
    fn groups_are_paged_and_a_page_past_the_end_is_empty() {
        let called: Vec<String> = (0..60).map(|i| format!("g{i:02}")).collect();
        let one = [(ClusterState::Evaluating, 1)];
        let specs: Vec<Spec<'_>> = called
            .iter()
            .map(|n| (n.as_str(), DistributionMode::Dns, &one[..], None))
            .collect();
        let all = groups(&specs);
        let page = |n: u32| {
            select_groups(
                all.clone(),
                &GroupQuery {
                    page: n,
                    ..GroupQuery::default()
                },
            )
        };
        assert_eq!(page(1).rows.len(), GROUP_PAGE_SIZE as usize);
        assert_eq!(
            names(&page(3)),
            ["g50", "g51", "g52", "g53", "g54", "g55", "g56", "g57", "g58", "g59"]
        );
        assert!(page(4).rows.is_empty());
        assert_eq!(page(4).matching, 60);
    }

    #[test]
    fn a_bad_filter_is_refused_naming_its_field() {
        let cases = [
            (Some("sideways"), None, None, "state"),
            (None, Some("anycast"), None, "mode"),
            (None, None, Some("colour"), "sort"),
        ];
        for (state, mode, sort, field) in cases {
            let Err(e) = GroupQuery::parse(None, state, mode, sort, false, 1) else {
                panic!("{field} accepted")
            };
            assert!(e.to_string().contains(field), "{e}");
        }
    }
}
