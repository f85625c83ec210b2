//! The autoscale card: clusters per state, the groups that need a look, the latest decision.

use engine::autoscale::config::DistributionMode;
use engine::autoscale::views::{ClusterState, DecisionView, GroupView};
use serde::{Deserialize, Serialize};

use super::{Tile, WORST_SHOWN};
use crate::model::autoscale_groups::STATE_KEYS;

/// One availability zone's cluster in a group's line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClusterLine {
    /// State.
    pub state: ClusterState,
    /// Nodes in DNS / behind the NLB.
    pub nodes_in_service: u32,
}

/// One autoscale group in a line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupLine {
    /// Group name (its page is `/autoscale/<name>`).
    pub name: String,
    /// Traffic distribution.
    pub mode: DistributionMode,
    /// One cluster per availability zone, configuration order.
    pub zones: Vec<ClusterLine>,
    /// A cluster is at the group's maximum nodes (it cannot scale out).
    pub at_max: bool,
}

impl GroupLine {
    /// Nodes in service over the group's zones.
    pub fn nodes_in_service(&self) -> u32 {
        self.zones.iter().map(|z| z.nodes_in_service).sum()
    }

    fn of(g: &GroupView) -> GroupLine {
        GroupLine {
            name: g.name.clone(),
            mode: g.mode,
            zones: g
                .zones
                .iter()
                .map(|z| ClusterLine {
                    state: z.state,
                    nodes_in_service: z.nodes_in_service,
                })
                .collect(),
            at_max: g.deployed
                && g.zones
                    .iter()
                    .any(|z| z.nodes_in_service >= g.params.max_nodes),
        }
    }

    /// How much the group needs a look (lower is more), or `None` when every cluster is
    /// evaluating below its maximum.
    fn rank(&self) -> Option<u8> {
        let busy = |states: &[ClusterState]| self.zones.iter().any(|z| states.contains(&z.state));
        if self.at_max {
            Some(0)
        } else if busy(&[ClusterState::Scaling]) {
            Some(1)
        } else if busy(&[ClusterState::Draining, ClusterState::TtlWait]) {
            Some(2)
        } else if busy(&[ClusterState::Cooldown]) {
            Some(3)
        } else {
            None
        }
    }
}

/// The autoscale card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AutoscaleSummary {
    /// Groups in all.
    pub groups_total: u64,
    /// Clusters (group × availability zone) in all.
    pub clusters_total: u64,
    /// Nodes in service over every cluster.
    pub nodes_in_service: u64,
    /// Clusters per state.
    pub by_state: Vec<Tile>,
    /// The groups that need a look (at their maximum, scaling, draining, cooling down), at most
    /// [`WORST_SHOWN`].
    pub worst: Vec<GroupLine>,
    /// How many groups need a look in all.
    pub needing_a_look: u64,
    /// The latest decision over every group, with the group's name.
    pub last_decision: Option<(String, DecisionView)>,
}

impl AutoscaleSummary {
    /// From the engine's view of every group.
    pub fn of(groups: &[GroupView]) -> AutoscaleSummary {
        let clusters = || groups.iter().flat_map(|g| g.zones.iter());
        let by_state = STATE_KEYS
            .into_iter()
            .map(|(key, state)| Tile {
                label: state.label().to_owned(),
                count: clusters().filter(|c| c.state == state).count() as u64,
                href: format!("/autoscale?state={key}#group-table"),
                key: key.to_owned(),
            })
            .collect();
        let mut worst: Vec<(u8, GroupLine)> = groups
            .iter()
            .map(GroupLine::of)
            .filter_map(|line| line.rank().map(|r| (r, line)))
            .collect();
        let needing_a_look = worst.len() as u64;
        worst.sort_by_key(|(rank, _)| *rank);
        AutoscaleSummary {
            groups_total: groups.len() as u64,
            clusters_total: clusters().count() as u64,
            nodes_in_service: clusters().map(|c| u64::from(c.nodes_in_service)).sum(),
            by_state,
            worst: worst
                .into_iter()
                .take(WORST_SHOWN)
                .map(|(_, line)| line)
                .collect(),
            needing_a_look,
            last_decision: groups
                .iter()
                .filter_map(|g| g.last_decision.clone().map(|d| (g.name.clone(), d)))
                .max_by_key(|(_, d)| d.at_ms),
        }
    }

    /// "2 groups · 4 clusters · 9 nodes in service · 1 scaling · 0 cooling down · 0 draining".
    pub fn line(&self) -> String {
        let count = |keys: &[&str]| -> u64 {
            self.by_state
                .iter()
                .filter(|t| keys.contains(&t.key.as_str()))
                .map(|t| t.count)
                .sum()
        };
        format!(
            "{} groups · {} clusters · {} nodes in service · {} scaling · {} cooling down · {} draining",
            self.groups_total,
            self.clusters_total,
            self.nodes_in_service,
            count(&["scaling"]),
            count(&["cooldown"]),
            count(&["draining", "ttl_wait"]),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(name: &str, zones: &[(ClusterState, u32)]) -> GroupLine {
        GroupLine {
            name: name.into(),
            mode: DistributionMode::Dns,
            zones: zones
                .iter()
                .map(|(state, nodes_in_service)| ClusterLine {
                    state: *state,
                    nodes_in_service: *nodes_in_service,
                })
                .collect(),
            at_max: false,
        }
    }

    #[test]
    fn a_group_needs_a_look_at_its_maximum_then_scaling_draining_cooling_down() {
        use ClusterState::*;
        let at_max = GroupLine {
            at_max: true,
            ..group("m", &[(Evaluating, 8)])
        };
        let cases = [
            (at_max, Some(0)),
            (group("s", &[(Evaluating, 2), (Scaling, 3)]), Some(1)),
            (group("d", &[(Draining, 2), (Cooldown, 3)]), Some(2)),
            (group("t", &[(TtlWait, 2)]), Some(2)),
            (group("c", &[(Cooldown, 2)]), Some(3)),
            (group("e", &[(Evaluating, 2), (Idle, 0)]), None),
        ];
        for (line, want) in cases {
            assert_eq!(line.rank(), want, "{}", line.name);
        }
        assert_eq!(
            group("n", &[(Scaling, 3), (Draining, 2)]).nodes_in_service(),
            5
        );
    }

    #[test]
    fn the_line_counts_clusters_by_state() {
        let tile = |key: &str, count| Tile {
            label: key.into(),
            count,
            href: String::new(),
            key: key.into(),
        };
        let summary = AutoscaleSummary {
            groups_total: 2,
            clusters_total: 4,
            nodes_in_service: 10,
            by_state: vec![
                tile("scaling", 1),
                tile("draining", 1),
                tile("ttl_wait", 1),
                tile("cooldown", 1),
            ],
            worst: Vec::new(),
            needing_a_look: 0,
            last_decision: None,
        };
        assert_eq!(
            summary.line(),
            "2 groups · 4 clusters · 10 nodes in service · 1 scaling · 1 cooling down · 2 draining"
        );
    }
}
