//! The engine's state: groups, their clusters (one per availability zone) and nodes, the
//! demand a cluster is offered each minute, and the addresses the distributor knows.

use core::net::Ipv4Addr;

use serde::{Deserialize, Serialize};

use super::config::{DistributionMode, GroupConfig, GroupParams, Workload};
use super::decide::{Core, Direction, Limits, MetricModel, Skip};
use super::history::History;
use super::views::{DecisionView, InjectionView, NodeState};
use crate::rng::Rng;

/// First address of the public pool, `198.19.0.0/16`: the upper half of the benchmarking
/// range 198.18.0.0/15 (addresses that look public and are never routed; the GSLB engine's
/// derived client ranges use the lower half).
const PUBLIC_BASE: u32 = 0xC613_0000;
/// Addresses in the public pool.
const PUBLIC_SIZE: u32 = 65_534;

/// Hands out public addresses in order (never reused within a run, wrapping after 65,534).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct PublicIps {
    next: u32,
}

impl PublicIps {
    pub(crate) fn allocate(&mut self) -> u32 {
        let ip = PUBLIC_BASE + 1 + self.next % PUBLIC_SIZE;
        self.next = self.next.wrapping_add(1);
        ip
    }
}

/// An address as text.
pub(crate) fn ip_text(ip: u32) -> String {
    Ipv4Addr::from(ip).to_string()
}

/// One ADC node of a cluster.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Node {
    pub(crate) id: String,
    pub(crate) serial: u32,
    /// Private address.
    pub(crate) ip: u32,
    /// Public address (DNS mode).
    pub(crate) public_ip: Option<u32>,
    pub(crate) state: NodeState,
    pub(crate) since_ms: u64,
}

impl Node {
    /// In service, or on its way out.
    pub(crate) fn leaving(&self) -> bool {
        matches!(self.state, NodeState::Draining | NodeState::TtlWait)
    }
}

/// Hourly aggregates of a cluster for `autoscale.sample`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct Sample {
    pub(crate) minutes: u32,
    pub(crate) demand_sum: f64,
    pub(crate) demand_max: f64,
    pub(crate) sum: [f64; 3],
    pub(crate) max: [f64; 3],
    pub(crate) nodes_min: u32,
    pub(crate) nodes_max: u32,
    pub(crate) decisions: u32,
}

impl Sample {
    pub(crate) fn add(&mut self, demand: f64, values: &[f64; 3], nodes: u32) {
        if self.minutes == 0 {
            *self = Sample {
                nodes_min: nodes,
                ..Sample::default()
            };
        }
        self.minutes += 1;
        self.demand_sum += demand;
        self.demand_max = self.demand_max.max(demand);
        for ((sum, max), v) in self.sum.iter_mut().zip(&mut self.max).zip(values) {
            *sum += v;
            *max = max.max(*v);
        }
        self.nodes_min = self.nodes_min.min(nodes);
        self.nodes_max = self.nodes_max.max(nodes);
    }
}

/// One availability zone's cluster.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Cluster {
    pub(crate) zone: String,
    /// 1-based position of the zone in the group (the third octet of private addresses).
    pub(crate) zone_no: u32,
    pub(crate) core: Core,
    pub(crate) nodes: Vec<Node>,
    pub(crate) next_serial: u32,
    /// NLB mode: the zone's static public address.
    pub(crate) nlb_ip: Option<u32>,
    /// Noise of the demand (`autoscale/<group>/<zone>`).
    pub(crate) rng: Rng,
    /// An injected spike: (level, first minute, last minute).
    pub(crate) spike: Option<(f64, u64, u64)>,
    /// An injected lasting step: (level, first minute).
    pub(crate) step: Option<(f64, u64)>,
    pub(crate) history: History,
    /// The skip window in progress (one `evaluation.skipped` per window).
    pub(crate) skip: Option<(Skip, u64)>,
    /// A decision due at the node limit was reported (once per breach).
    pub(crate) limit_reported: Option<Direction>,
    pub(crate) last_decision: Option<DecisionView>,
    /// The direction of the latest scale event (what flap detection watches).
    pub(crate) last_scale: Option<Direction>,
    pub(crate) sample: Sample,
}

impl Cluster {
    /// The demand offered at minute `m`: an injected spike, else an injected step, else the
    /// workload's `profile` (the same for every zone of the group); then the seeded noise
    /// (never below 0).
    pub(crate) fn demand(&mut self, m: u64, profile: f64, noise: f64) -> f64 {
        let base = match (self.spike, self.step) {
            (Some((level, from, to)), _) if (from..=to).contains(&m) => level,
            (_, Some((level, from))) if m >= from => level,
            _ => profile,
        };
        if noise > 0.0 {
            (base + noise * (2.0 * self.rng.unit_f64() - 1.0)).max(0.0)
        } else {
            base
        }
    }

    /// The injected load in force at minute `m` or to come after it: a spike that has not
    /// ended, else a lasting step. What [`Cluster::demand`] would use instead of the model.
    pub(crate) fn injection(&self, m: u64) -> Option<InjectionView> {
        match (self.spike, self.step) {
            (Some((level, from, to)), _) if to >= m => Some(InjectionView {
                kind: "spike".into(),
                level,
                from_minute: from,
                until_minute: Some(to),
            }),
            (_, Some((level, from))) => Some(InjectionView {
                kind: "step".into(),
                level,
                from_minute: from,
                until_minute: None,
            }),
            _ => None,
        }
    }

    /// The lowest host number free in the cluster (addresses are reused once a node is gone).
    fn free_host(&self, group_no: u32) -> u32 {
        let base = private_base(group_no, self.zone_no);
        (1..)
            .map(|h| base + 10 + h)
            .find(|ip| self.nodes.iter().all(|n| n.ip != *ip))
            .unwrap_or(base + 10)
    }

    /// Adds a node in service (provisioned, attached, synced, registered) at `now_ms`.
    pub(crate) fn add_node(
        &mut self,
        group: &str,
        group_no: u32,
        dns: bool,
        ips: &mut PublicIps,
        now_ms: u64,
    ) -> usize {
        self.next_serial += 1;
        let ip = self.free_host(group_no);
        self.nodes.push(Node {
            id: format!("{group}-{}-{}", self.zone, self.next_serial),
            serial: self.next_serial,
            ip,
            public_ip: dns.then(|| ips.allocate()),
            state: NodeState::InService,
            since_ms: now_ms,
        });
        self.nodes.len() - 1
    }

    /// Addresses the distributor holds for the nodes in service: public ones in DNS mode,
    /// private ones (NLB targets) in NLB mode.
    pub(crate) fn service_ips(&self, dns: bool) -> Vec<String> {
        self.nodes
            .iter()
            .filter(|n| n.state == NodeState::InService)
            .filter_map(|n| if dns { n.public_ip } else { Some(n.ip) })
            .map(ip_text)
            .collect()
    }
}

/// `10.<group>.<zone>.0`: the private block of a cluster (hosts from `.11`).
fn private_base(group_no: u32, zone_no: u32) -> u32 {
    (10 << 24) | ((group_no & 0xFF) << 16) | ((zone_no & 0xFF) << 8)
}

/// The workload's own demand at minute `m` (minute 1 is the first collection).
pub(crate) fn profile_demand(w: &Workload, m: u64) -> f64 {
    match w {
        Workload::Constant { level } => *level,
        Workload::Diurnal {
            base,
            amplitude,
            period_min,
            peak_at_min,
        } => {
            let period = u64::from((*period_min).max(1));
            let offset = (m % period + period - u64::from(*peak_at_min) % period) % period;
            let angle = core::f64::consts::TAU * offset as f64 / period as f64;
            (base + amplitude * angle.cos()).max(0.0)
        }
        Workload::Step {
            before,
            after,
            at_min,
        } => {
            if m >= u64::from(*at_min) {
                *after
            } else {
                *before
            }
        }
        Workload::Spike {
            base,
            peak,
            at_min,
            duration_min,
        } => {
            let from = u64::from(*at_min);
            if m >= from && m < from + u64::from(*duration_min) {
                *peak
            } else {
                *base
            }
        }
        Workload::Trace { values } => {
            let i = usize::try_from(m.saturating_sub(1)).unwrap_or(usize::MAX);
            values
                .get(i)
                .or_else(|| values.last())
                .copied()
                .unwrap_or(0.0)
        }
        Workload::Csv { .. } => 0.0,
    }
}

/// One autoscale group.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Group {
    pub(crate) name: String,
    /// 1-based position (the second octet of private addresses).
    pub(crate) no: u32,
    pub(crate) domain: String,
    pub(crate) mode: DistributionMode,
    pub(crate) deployed: bool,
    pub(crate) params: GroupParams,
    pub(crate) limits: Limits,
    pub(crate) model: MetricModel,
    pub(crate) workload: Workload,
    pub(crate) noise: f64,
    pub(crate) clusters: Vec<Cluster>,
}

impl Group {
    /// The group at the start of a run: `min_nodes` nodes in service per cluster.
    pub(crate) fn new(cfg: &GroupConfig, no: u32, rng: &Rng, ips: &mut PublicIps) -> Group {
        let dns = cfg.mode == DistributionMode::Dns;
        let params = cfg.params();
        let mut clusters = Vec::with_capacity(cfg.zones.len());
        for (z, zone) in cfg.zones.iter().enumerate() {
            let core = Core::new(cfg.min_nodes);
            let mut c = Cluster {
                zone: zone.clone(),
                zone_no: u32::try_from(z + 1).unwrap_or(u32::MAX),
                core,
                nodes: Vec::new(),
                next_serial: 0,
                nlb_ip: (!dns).then(|| ips.allocate()),
                rng: rng.fork(&format!("{}/{zone}", cfg.name)),
                spike: None,
                step: None,
                history: History::new(core),
                skip: None,
                limit_reported: None,
                last_decision: None,
                last_scale: None,
                sample: Sample::default(),
            };
            for _ in 0..cfg.min_nodes {
                c.add_node(&cfg.name, no, dns, ips, 0);
            }
            clusters.push(c);
        }
        Group {
            name: cfg.name.clone(),
            no,
            domain: cfg.domain_name(),
            mode: cfg.mode,
            deployed: cfg.deployed,
            limits: Limits::new(&params, dns),
            params,
            model: MetricModel {
                base_nodes: f64::from(cfg.min_nodes.max(1)),
                node_mbps: cfg.node_mbps,
            },
            workload: cfg.workload.clone(),
            noise: cfg.noise,
            clusters,
        }
    }

    pub(crate) fn dns(&self) -> bool {
        self.mode == DistributionMode::Dns
    }

    /// The IPSet name on each cluster while the application is deployed.
    pub(crate) fn ipset(&self) -> String {
        format!("{}-ipset", self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles() {
        let d = Workload::Diurnal {
            base: 50.0,
            amplitude: 30.0,
            period_min: 1440,
            peak_at_min: 840,
        };
        assert!((profile_demand(&d, 840) - 80.0).abs() < 1e-9);
        assert!((profile_demand(&d, 840 + 720) - 20.0).abs() < 1e-9);
        assert!((profile_demand(&d, 840 + 1440) - 80.0).abs() < 1e-9);
        let t = Workload::Trace {
            values: vec![1.0, 2.0],
        };
        assert_eq!(
            [0, 1, 2, 3, 99].map(|m| profile_demand(&t, m)),
            [1.0, 1.0, 2.0, 2.0, 2.0]
        );
        let s = Workload::Spike {
            base: 10.0,
            peak: 90.0,
            at_min: 5,
            duration_min: 2,
        };
        assert_eq!(
            [4, 5, 6, 7].map(|m| profile_demand(&s, m)),
            [10.0, 90.0, 90.0, 10.0]
        );
        let st = Workload::Step {
            before: 1.0,
            after: 2.0,
            at_min: 3,
        };
        assert_eq!([2, 3].map(|m| profile_demand(&st, m)), [1.0, 2.0]);
    }

    #[test]
    fn public_addresses_are_handed_out_in_order() {
        let mut ips = PublicIps::default();
        assert_eq!(ip_text(ips.allocate()), "198.19.0.1");
        assert_eq!(ip_text(ips.allocate()), "198.19.0.2");
        assert_eq!(ip_text(private_base(1, 2) + 11), "10.1.2.11");
    }
}
