//! The autoscale nodes list at any scale: every node of every group's clusters, searched by
//! node id, IP or group, filtered by lifecycle state and traffic distribution, sorted and
//! paged on the server (`/autoscale/nodes?q=web&state=draining&sort=since&desc=1&page=2`).

use engine::autoscale::config::DistributionMode;
use engine::autoscale::views::{GroupView, NodeState, NodeView};
use serde::{Deserialize, Serialize};

use crate::error::AppError;
use crate::model::autoscale_groups::MODE_KEYS;
use crate::model::listing::{contains, keyed, page_of, ListPage};

/// Rows per page of the nodes list.
pub const NODE_PAGE_SIZE: u32 = 50;

/// Every node state with its URL key and label, in lifecycle order.
pub const NODE_STATES: [(&str, NodeState, &str); 4] = [
    ("provisioning", NodeState::Provisioning, "provisioning"),
    ("in_service", NodeState::InService, "in service"),
    ("draining", NodeState::Draining, "draining"),
    ("ttl_wait", NodeState::TtlWait, "TTL wait"),
];

/// A node state's label.
pub fn node_state_label(state: NodeState) -> &'static str {
    NODE_STATES
        .iter()
        .find(|(_, s, _)| *s == state)
        .map_or("", |(_, _, label)| label)
}

/// A column of the list to sort by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NodeSort {
    /// Group (by name), zone (configuration order), then the cluster's node order.
    #[default]
    Group,
    /// Node id.
    Node,
    /// Availability zone.
    Zone,
    /// Lifecycle state.
    State,
    /// When it entered its state.
    Since,
}

/// Every sort with its URL key and column heading, in the table's order.
pub const NODE_SORTS: [(&str, NodeSort, &str); 5] = [
    ("node", NodeSort::Node, "Node"),
    ("group", NodeSort::Group, "Group"),
    ("zone", NodeSort::Zone, "Zone"),
    ("state", NodeSort::State, "State"),
    ("since", NodeSort::Since, "Since"),
];

/// One node with the group and zone it serves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeRow {
    /// Its group.
    pub group: String,
    /// Its cluster's availability zone.
    pub zone: String,
    /// Its group's traffic distribution.
    pub mode: DistributionMode,
    /// The node.
    pub node: NodeView,
}

/// What the nodes list shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeQuery {
    /// Only node ids, IPs or groups containing this (case-insensitive).
    pub search: Option<String>,
    /// Only nodes in this state.
    pub state: Option<NodeState>,
    /// Only nodes of groups with this traffic distribution.
    pub mode: Option<DistributionMode>,
    /// Sort column.
    pub sort: NodeSort,
    /// Descending order.
    pub descending: bool,
    /// Page, from 1.
    pub page: u32,
}

impl NodeQuery {
    /// The query as typed in the page's URL; a bad key is refused naming its field and the
    /// keys it takes.
    pub fn parse(
        search: Option<String>,
        state: Option<&str>,
        mode: Option<&str>,
        sort: Option<&str>,
        descending: bool,
        page: u32,
    ) -> Result<NodeQuery, AppError> {
        let states: Vec<(&'static str, NodeState)> =
            NODE_STATES.iter().map(|(k, s, _)| (*k, *s)).collect();
        let sorts: Vec<(&'static str, NodeSort)> =
            NODE_SORTS.iter().map(|(k, s, _)| (*k, *s)).collect();
        Ok(NodeQuery {
            search,
            state: keyed("state", &states, state)?,
            mode: keyed("mode", &MODE_KEYS, mode)?,
            sort: keyed("sort", &sorts, sort)?.unwrap_or_default(),
            descending,
            page,
        })
    }
}

/// A page of the nodes list.
pub type NodePage = ListPage<NodeRow>;

/// Every node of `groups`, by group name, then zone and node order.
pub fn node_rows(mut groups: Vec<GroupView>) -> Vec<NodeRow> {
    groups.sort_by(|a, b| a.name.cmp(&b.name));
    groups
        .into_iter()
        .flat_map(|g| {
            let (group, mode) = (g.name, g.mode);
            g.zones.into_iter().flat_map(move |z| {
                let (group, zone) = (group.clone(), z.zone);
                z.nodes.into_iter().map(move |node| NodeRow {
                    group: group.clone(),
                    zone: zone.clone(),
                    mode,
                    node,
                })
            })
        })
        .collect()
}

/// The page of `rows` (see [`node_rows`]) that `q` asks for.
pub fn select_nodes(rows: Vec<NodeRow>, q: &NodeQuery) -> NodePage {
    let total = rows.len();
    let needle = q.search.as_deref().map(str::to_lowercase);
    let matching: Vec<NodeRow> = rows
        .into_iter()
        .filter(|r| q.state.is_none_or(|s| r.node.state == s))
        .filter(|r| q.mode.is_none_or(|m| r.mode == m))
        .filter(|r| {
            needle.as_deref().is_none_or(|n| {
                contains(&r.node.id, n)
                    || r.node.ip.contains(n)
                    || r.node.public_ip.as_deref().is_some_and(|p| p.contains(n))
                    || contains(&r.group, n)
            })
        })
        .collect();
    let state_rank = |r: &NodeRow| NODE_STATES.iter().position(|(_, s, _)| *s == r.node.state);
    let order = |x: &NodeRow, y: &NodeRow| match q.sort {
        NodeSort::Group => std::cmp::Ordering::Equal,
        NodeSort::Node => x.node.id.cmp(&y.node.id),
        NodeSort::Zone => x.zone.cmp(&y.zone),
        NodeSort::State => state_rank(x).cmp(&state_rank(y)),
        NodeSort::Since => x.node.since_ms.cmp(&y.node.since_ms),
    };
    page_of(total, matching, order, q.descending, q.page, NODE_PAGE_SIZE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(group: &str, zone: &str, n: u32, state: NodeState, since_ms: u64) -> NodeRow {
        NodeRow {
            group: group.into(),
            zone: zone.into(),
            mode: if group == "api" {
                DistributionMode::Nlb
            } else {
                DistributionMode::Dns
            },
            node: NodeView {
                id: format!("{group}-{zone}-{n}"),
                ip: format!("10.0.{n}.{}", zone.len()),
                public_ip: (group != "api").then(|| format!("203.0.113.{n}")),
                state,
                since_ms,
            },
        }
    }

    fn rows() -> Vec<NodeRow> {
        use NodeState::{Draining, InService, Provisioning, TtlWait};
        vec![
            row("api", "1a", 1, InService, 0),
            row("api", "1b", 2, Draining, 9_000),
            row("web", "1a", 3, InService, 1_000),
            row("web", "1a", 4, Provisioning, 12_000),
            row("web", "1b", 5, TtlWait, 7_000),
        ]
    }

    fn ids(page: &NodePage) -> Vec<&str> {
        page.rows.iter().map(|r| r.node.id.as_str()).collect()
    }

    #[test]
    fn nodes_are_searched_filtered_and_sorted() {
        let q = |f: fn(&mut NodeQuery)| {
            let mut q = NodeQuery::default();
            f(&mut q);
            q
        };
        // (query, nodes shown in order)
        let cases: [(NodeQuery, &[&str]); 8] = [
            (
                q(|_| {}),
                &["api-1a-1", "api-1b-2", "web-1a-3", "web-1a-4", "web-1b-5"],
            ),
            (
                q(|q| q.search = Some("WEB".into())),
                &["web-1a-3", "web-1a-4", "web-1b-5"],
            ),
            (q(|q| q.search = Some("10.0.2.".into())), &["api-1b-2"]),
            (q(|q| q.search = Some("203.0.113.5".into())), &["web-1b-5"]),
            (
                q(|q| q.state = Some(NodeState::InService)),
                &["api-1a-1", "web-1a-3"],
            ),
            (
                q(|q| q.mode = Some(DistributionMode::Nlb)),
                &["api-1a-1", "api-1b-2"],
            ),
            (
                q(|q| q.sort = NodeSort::State),
                &["web-1a-4", "api-1a-1", "web-1a-3", "api-1b-2", "web-1b-5"],
            ),
            (
                q(|q| {
                    q.sort = NodeSort::Since;
                    q.descending = true;
                }),
                &["web-1a-4", "api-1b-2", "web-1b-5", "web-1a-3", "api-1a-1"],
            ),
        ];
        for (query, shown) in cases {
            let page = select_nodes(rows(), &query);
            assert_eq!(ids(&page), shown, "{query:?}");
            assert_eq!((page.total, page.matching as usize), (5, shown.len()));
        }
    }

    #[test]
    fn a_groups_clusters_become_one_row_per_node_in_group_order() {
        use engine::{Scenario, SimTime, Simulation};
        const DEMO: &str = include_str!("../../../scenarios/demo.toml");
        let scenario = Scenario::from_toml_str(DEMO, "demo.toml").ok();
        let Some(scenario) = scenario else {
            panic!("the demo scenario loads");
        };
        let mut sim = Simulation::new(&scenario, scenario.seed());
        sim.advance_to(SimTime::from_millis(30 * 60_000));
        let groups = sim.autoscale().groups();
        let expected: usize = groups
            .iter()
            .flat_map(|g| &g.zones)
            .map(|z| z.nodes.len())
            .sum();
        let rows = node_rows(groups);
        assert!(expected > 0);
        assert_eq!(rows.len(), expected);
        let groups: Vec<&str> = rows.iter().map(|r| r.group.as_str()).collect();
        assert!(groups.is_sorted(), "{groups:?}");
    }

    #[test]
    fn the_url_keys_parse_and_a_bad_one_names_its_field() {
        let q = NodeQuery::parse(None, Some("ttl_wait"), Some("nlb"), Some("since"), true, 2);
        let q = q.ok().unwrap_or_default();
        assert_eq!(
            (q.state, q.mode, q.sort, q.descending, q.page),
            (
                Some(NodeState::TtlWait),
                Some(DistributionMode::Nlb),
                NodeSort::Since,
                true,
                2
            )
        );
        for (state, mode, sort, field) in [
            (Some("gone"), None, None, "state"),
            (None, Some("anycast"), None, "mode"),
            (None, None, Some("ip"), "sort"),
        ] {
            let err = NodeQuery::parse(None, state, mode, sort, false, 1).err();
            let text = err.map(|e| e.to_string()).unwrap_or_default();
            assert!(text.starts_with(field), "{text}");
        }
    }
}
