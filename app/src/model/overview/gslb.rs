//! The GSLB card: sites per MEP status, children adopted or orphaned, the worst few sites.

use engine::gslb::config::SiteRole;
use engine::gslb::views::{MepStatus, SiteView, TopologyView};
use serde::{Deserialize, Serialize};

use super::{Tile, WORST_SHOWN};

/// One site that needs a look, in a line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiteLine {
    /// Site name (its page is `/gslb/sites/<name>`).
    pub name: String,
    /// Parent or child.
    pub role: SiteRole,
    /// MEP status.
    pub mep_status: MepStatus,
    /// What is wrong, in words ("down", "orphaned", "adopted by P2").
    pub problem: String,
}

/// How bad a site's state is (lower is worse), or `None` when it is fine.
fn problem(s: &SiteView) -> Option<(u8, String)> {
    if !s.up {
        return Some((0, "down".to_owned()));
    }
    if s.role == SiteRole::Parent {
        return (s.mep_status == MepStatus::Down).then(|| (1, "MEP down".to_owned()));
    }
    match (&s.current_parent, &s.configured_parent) {
        (None, _) => Some((2, "orphaned: its services are not advertised".to_owned())),
        (Some(now), Some(configured)) if now != configured => {
            Some((3, format!("adopted by {now} (configured: {configured})")))
        }
        _ => (s.mep_status == MepStatus::Down).then(|| (4, "MEP down".to_owned())),
    }
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
    /// Sites per MEP status (ACTIVE, INACTIVE, DOWN).
    pub by_status: Vec<Tile>,
    /// The sites that need a look, worst first, at most [`WORST_SHOWN`].
    pub worst: Vec<SiteLine>,
    /// How many sites need a look in all.
    pub needing_a_look: u64,
}

impl GslbSummary {
    /// From the engine's view of the topology.
    pub fn of(t: &TopologyView) -> GslbSummary {
        let by_status = [
            (MepStatus::Active, "ACTIVE", "active"),
            (MepStatus::Inactive, "INACTIVE", "inactive"),
            (MepStatus::Down, "DOWN", "down"),
        ]
        .into_iter()
        .map(|(status, label, key)| Tile {
            label: label.to_owned(),
            count: t.sites.iter().filter(|s| s.mep_status == status).count() as u64,
            href: "/gslb#site-table".to_owned(),
            key: key.to_owned(),
        })
        .collect();
        let mut worst: Vec<(u8, SiteLine)> = t
            .sites
            .iter()
            .filter_map(|s| {
                problem(s).map(|(rank, problem)| {
                    let line = SiteLine {
                        name: s.name.clone(),
                        role: s.role,
                        mep_status: s.mep_status,
                        problem,
                    };
                    (rank, line)
                })
            })
            .collect();
        let needing_a_look = worst.len() as u64;
        worst.sort_by_key(|(rank, _)| *rank);
        GslbSummary {
            parents_up: t.parents_up,
            parents_total: t.parents_total,
            children_total: t.children_total,
            children_adopted: t.children_adopted,
            children_orphaned: t.children_orphaned,
            dns_answered: t.dns_answered,
            by_status,
            worst: worst
                .into_iter()
                .take(WORST_SHOWN)
                .map(|(_, line)| line)
                .collect(),
            needing_a_look,
        }
    }
}
