//! The overview's cards in one answer: what needs attention, a few lines per engine and each
//! engine's recent changes, all built from one read of each engine's state. The cards show a
//! summary, so the answer carries only what they print (a site's name, status and child
//! count, not its links and settings): the page's hydration data stays small however large
//! the estate is.

use engine::autoscale::config::DistributionMode;
use engine::autoscale::views::{ClusterState, DecisionView, GroupView};
use engine::gslb::config::SiteRole;
use engine::gslb::views::{MepStatus, TopologyView};
use engine::lhc::views::RlView;
use engine::lhc::HaState;
use engine::lms::views::FarmView;
use serde::{Deserialize, Serialize};

use crate::model::activity::ActivityView;
use crate::model::attention::AttentionItem;

/// Everything the overview's cards show.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Overview {
    /// What needs attention, most serious first.
    pub attention: Vec<AttentionItem>,
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

/// One resource location in a line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RlLine {
    /// Id (its page is `/lhc/<id>`).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Aggregated HA state.
    pub ha_state: HaState,
    /// VDAs registered with the cloud broker.
    pub on_cloud: u32,
    /// VDAs registered with a secondary broker.
    pub on_secondary: u32,
    /// VDAs registered nowhere.
    pub unregistered: u32,
}

/// The resource locations card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LhcSummary {
    /// Every resource location, configuration order.
    pub locations: Vec<RlLine>,
}

impl LhcSummary {
    /// From the engine's view of every resource location.
    pub fn of(rls: &[RlView]) -> LhcSummary {
        LhcSummary {
            locations: rls
                .iter()
                .map(|rl| RlLine {
                    id: rl.id.clone(),
                    name: rl.name.clone(),
                    ha_state: rl.ha_state,
                    on_cloud: rl.on_cloud,
                    on_secondary: rl.on_secondary,
                    unregistered: rl.unregistered,
                })
                .collect(),
        }
    }

    /// "3 resource locations · 2 Working Normally · 1 Extended HA": the states present.
    pub fn state_counts(&self) -> String {
        let mut parts = vec![format!("{} resource locations", self.locations.len())];
        for state in HaState::ALL {
            let n = self
                .locations
                .iter()
                .filter(|rl| rl.ha_state == state)
                .count();
            if n > 0 {
                parts.push(format!("{n} {}", state.label()));
            }
        }
        parts.join(" · ")
    }
}

/// The load-management card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LmsSummary {
    /// Servers up (services running, not starting).
    pub servers_up: u32,
    /// Servers in all.
    pub servers_total: u32,
    /// Connected sessions.
    pub sessions_connected: u32,
    /// Disconnected sessions.
    pub sessions_disconnected: u32,
    /// Launches placed so far.
    pub placements: u64,
    /// Launches refused.
    pub rejected: u64,
    /// Whether the black-hole fix is on.
    pub black_hole_fix: bool,
    /// Each zone with its data collector (host name), configuration order.
    pub zones: Vec<(String, Option<String>)>,
}

impl LmsSummary {
    /// From the engine's view of the farm.
    pub fn of(farm: &FarmView) -> LmsSummary {
        LmsSummary {
            servers_up: farm.servers_up,
            servers_total: farm.servers_total,
            sessions_connected: farm.sessions_connected,
            sessions_disconnected: farm.sessions_disconnected,
            placements: farm.placements,
            rejected: farm.rejected,
            black_hole_fix: farm.black_hole_fix,
            zones: farm
                .zones
                .iter()
                .map(|z| (z.name.clone(), z.collector.clone()))
                .collect(),
        }
    }
}

/// One GSLB parent site in a line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParentLine {
    /// Site name.
    pub name: String,
    /// MEP status.
    pub mep_status: MepStatus,
    /// Children attached now.
    pub children: usize,
}

/// The GSLB card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GslbSummary {
    /// Parents up.
    pub parents_up: u32,
    /// Parents in all.
    pub parents_total: u32,
    /// Children in all.
    pub children_total: u32,
    /// Children attached to a parent other than their configured one.
    pub children_adopted: u32,
    /// Children with no parent.
    pub children_orphaned: u32,
    /// DNS queries answered since the start.
    pub dns_answered: u64,
    /// The parent sites, configuration order.
    pub parents: Vec<ParentLine>,
}

impl GslbSummary {
    /// From the engine's view of the topology.
    pub fn of(t: &TopologyView) -> GslbSummary {
        GslbSummary {
            parents_up: t.parents_up,
            parents_total: t.parents_total,
            children_total: t.children_total,
            children_adopted: t.children_adopted,
            children_orphaned: t.children_orphaned,
            dns_answered: t.dns_answered,
            parents: t
                .sites
                .iter()
                .filter(|s| s.role == SiteRole::Parent)
                .map(|s| ParentLine {
                    name: s.name.clone(),
                    mep_status: s.mep_status,
                    children: s.children.len(),
                })
                .collect(),
        }
    }
}

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
}

impl GroupLine {
    /// Nodes in service over the group's zones.
    pub fn nodes_in_service(&self) -> u32 {
        self.zones.iter().map(|z| z.nodes_in_service).sum()
    }
}

/// The autoscale card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AutoscaleSummary {
    /// Every group, configuration order.
    pub groups: Vec<GroupLine>,
    /// The latest decision over every group, with the group's name.
    pub last_decision: Option<(String, DecisionView)>,
}

impl AutoscaleSummary {
    /// From the engine's view of every group.
    pub fn of(groups: &[GroupView]) -> AutoscaleSummary {
        AutoscaleSummary {
            groups: groups
                .iter()
                .map(|g| GroupLine {
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
                })
                .collect(),
            last_decision: groups
                .iter()
                .filter_map(|g| g.last_decision.clone().map(|d| (g.name.clone(), d)))
                .max_by_key(|(_, d)| d.at_ms),
        }
    }

    /// "2 groups · 4 clusters · 9 nodes in service · 1 scaling · 0 cooling down · 0 draining".
    pub fn line(&self) -> String {
        let zones = || self.groups.iter().flat_map(|g| g.zones.iter());
        let count = |wanted: &[ClusterState]| zones().filter(|z| wanted.contains(&z.state)).count();
        let nodes: u32 = self.groups.iter().map(GroupLine::nodes_in_service).sum();
        format!(
            "{} groups · {} clusters · {nodes} nodes in service · {} scaling · {} cooling down · {} draining",
            self.groups.len(),
            zones().count(),
            count(&[ClusterState::Scaling]),
            count(&[ClusterState::Cooldown]),
            count(&[ClusterState::Draining, ClusterState::TtlWait]),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rl(id: &str, ha_state: HaState) -> RlLine {
        RlLine {
            id: id.into(),
            name: id.into(),
            ha_state,
            on_cloud: 0,
            on_secondary: 0,
            unregistered: 0,
        }
    }

    #[test]
    fn state_counts_name_only_the_states_present() {
        let cases: &[(&[HaState], &str)] = &[
            (&[], "0 resource locations"),
            (
                &[HaState::WorkingNormally, HaState::WorkingNormally],
                "2 resource locations · 2 Working Normally",
            ),
        ];
        for (states, want) in cases {
            let summary = LhcSummary {
                locations: states.iter().map(|s| rl("rl", *s)).collect(),
            };
            assert_eq!(summary.state_counts(), *want);
        }
        let mixed = LhcSummary {
            locations: vec![
                rl("a", HaState::WorkingNormally),
                rl("b", HaState::ExtendedHa),
            ],
        };
        let line = mixed.state_counts();
        assert!(line.starts_with("2 resource locations · "), "{line}");
        assert!(
            line.contains(&format!("1 {}", HaState::ExtendedHa.label())),
            "{line}"
        );
        assert!(
            line.contains(&format!("1 {}", HaState::WorkingNormally.label())),
            "{line}"
        );
    }

    #[test]
    fn the_autoscale_line_counts_clusters_by_state() {
        let zone = |state, nodes_in_service| ClusterLine {
            state,
            nodes_in_service,
        };
        let summary = AutoscaleSummary {
            groups: vec![
                GroupLine {
                    name: "web".into(),
                    mode: DistributionMode::Dns,
                    zones: vec![
                        zone(ClusterState::Scaling, 3),
                        zone(ClusterState::Draining, 2),
                    ],
                },
                GroupLine {
                    name: "api".into(),
                    mode: DistributionMode::Nlb,
                    zones: vec![
                        zone(ClusterState::TtlWait, 4),
                        zone(ClusterState::Cooldown, 1),
                    ],
                },
            ],
            last_decision: None,
        };
        assert_eq!(summary.groups[0].nodes_in_service(), 5);
        assert_eq!(
            summary.line(),
            "2 groups · 4 clusters · 10 nodes in service · 1 scaling · 1 cooling down · 2 draining"
        );
    }
}
