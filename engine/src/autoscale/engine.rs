//! [`AutoscaleEngine`]: construction, the [`Engine`] implementation and the minute loop: per
//! cluster, the decision step (`decide`), then the node lifecycle and the events it causes.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::config::AutoscaleConfig;
use super::decide::{Direction, Outcome};
use super::events::ev;
use super::history::Minute;
use super::lifecycle::{at_limit, deprovision, sample_event, scale_in, scale_out, skipped, Ctx};
use super::model::{ip_text, profile_demand, Cluster, Group, PublicIps};
use super::views::NodeState;
use crate::action::error::ActionError;
use crate::clock::SimTime;
use crate::event::{EngineId, Event};
use crate::rng::Rng;
use crate::step::Engine;

/// Milliseconds in a minute.
pub(crate) const MINUTE_MS: u64 = 60_000;

/// The autoscale engine: groups of ADC clusters, one cluster per availability zone, whose
/// statistics are collected and evaluated every simulated minute (SPEC §4). Read it through
/// [`groups`](Self::groups), [`group`](Self::group), [`timeline`](Self::timeline) and
/// [`what_if`](Self::what_if); change it only through actions. `docs/AUTOSCALE.md` describes
/// the model.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AutoscaleEngine {
    /// The configuration as loaded (names and zones never change during a run).
    pub(crate) cfg: AutoscaleConfig,
    pub(crate) groups: Vec<Group>,
    pub(crate) ips: PublicIps,
    /// The last minute evaluated (0: none yet).
    pub(crate) minute: u64,
    pub(crate) started: bool,
}

impl AutoscaleEngine {
    /// The engine at the start of a run: each cluster has `min_nodes` nodes in service. Noise
    /// draws come from `rng.fork("autoscale")`, forked per cluster (`<group>/<zone>`).
    pub fn new(config: &AutoscaleConfig, rng: &Rng) -> AutoscaleEngine {
        let rng = rng.fork("autoscale");
        let mut ips = PublicIps::default();
        let groups = config
            .groups
            .iter()
            .enumerate()
            .map(|(i, g)| Group::new(g, u32::try_from(i + 1).unwrap_or(u32::MAX), &rng, &mut ips))
            .collect();
        AutoscaleEngine {
            cfg: config.clone(),
            groups,
            ips,
            minute: 0,
            started: false,
        }
    }

    /// The index of a group, or the "unknown autoscale group" error.
    pub(crate) fn group_of(&self, name: &str) -> Result<usize, ActionError> {
        self.groups
            .iter()
            .position(|g| g.name == name)
            .ok_or_else(|| self.cfg.unknown_group(name))
    }

    /// `group.started` for every group, at t = 0.
    pub(crate) fn start(&mut self, out: &mut Vec<Event>) {
        if self.started {
            return;
        }
        self.started = true;
        for g in &self.groups {
            let zones: Vec<Value> = g
                .clusters
                .iter()
                .map(|c| {
                    let nodes: Vec<&str> = c.nodes.iter().map(|n| n.id.as_str()).collect();
                    json!({
                        "nlb_ip": c.nlb_ip.map(ip_text),
                        "nodes": nodes,
                        "zone": c.zone,
                    })
                })
                .collect();
            let details = json!({
                "deployed": g.deployed,
                "domain": g.domain,
                "max_nodes": g.params.max_nodes,
                "min_nodes": g.params.min_nodes,
                "mode": g.mode,
                "zones": zones,
            });
            out.push(ev(0, &g.name, "group.started", details));
        }
    }

    /// Minute `m` of every group, in configuration order.
    fn run_minute(&mut self, m: u64, out: &mut Vec<Event>) {
        self.minute = m;
        let now = m * MINUTE_MS;
        let ips = &mut self.ips;
        for g in &mut self.groups {
            let ctx = Ctx {
                name: &g.name,
                no: g.no,
                domain: &g.domain,
                dns: g.dns(),
                deployed: g.deployed,
                ttl_s: g.params.ttl_s,
                limits: &g.limits,
                model: &g.model,
                profile: profile_demand(&g.workload, m),
                noise: g.noise,
            };
            for c in &mut g.clusters {
                step_cluster(&ctx, c, m, now, ips, out);
            }
            if m.is_multiple_of(60) {
                out.push(sample_event(&ctx, &mut g.clusters, m, now));
            }
        }
    }
}

/// One cluster's minute: the step, then lifecycle, skip windows, decisions, history.
fn step_cluster(
    ctx: &Ctx<'_>,
    c: &mut Cluster,
    m: u64,
    now: u64,
    ips: &mut PublicIps,
    out: &mut Vec<Event>,
) {
    let demand = c.demand(m, ctx.profile, ctx.noise);
    let before = c.core.in_service;
    let r = c.core.step(m, demand, ctx.deployed, ctx.limits, ctx.model);
    if r.ttl_started {
        for n in c
            .nodes
            .iter_mut()
            .filter(|n| n.state == NodeState::Draining)
        {
            n.state = NodeState::TtlWait;
            n.since_ms = now;
        }
    }
    if r.deprovisioned {
        deprovision(ctx, c, now, out);
    }
    match r.outcome {
        Outcome::Skipped(s) => {
            if c.skip.map(|(k, _)| k) != Some(s) {
                skipped(ctx, c, s, m, now, out);
            }
        }
        Outcome::Idle => c.skip = None,
        _ => {
            if let Some((s, from)) = c.skip.take() {
                let details = json!({
                    "after": s.as_str(),
                    "minute": m,
                    "skipped_from_minute": from,
                    "skipped_minutes": m - from,
                    "zone": c.zone,
                });
                out.push(ev(now, ctx.name, "evaluation.resumed", details));
            }
        }
    }
    let reported = c.limit_reported;
    c.limit_reported = match r.outcome {
        Outcome::AboveMax(_) if reported == Some(Direction::Out) => reported,
        Outcome::BelowMin(_) if reported == Some(Direction::In) => reported,
        Outcome::AtLimit(d) => Some(d),
        _ => None,
    };
    match r.outcome {
        Outcome::ScaleOut(k) => scale_out(ctx, c, &r, k, before, m, now, ips, out),
        Outcome::ScaleIn(k) => scale_in(ctx, c, &r, k, before, m, now, out),
        Outcome::AtLimit(d) if reported != Some(d) => at_limit(ctx, c, &r, d, before, m, now, out),
        _ => {}
    }
    c.history.push(m, Minute::new(m, demand, &r, &c.core));
    c.sample.add(demand, &r.values, c.core.in_service);
}

impl Engine for AutoscaleEngine {
    fn id(&self) -> EngineId {
        EngineId::Autoscale
    }

    /// t = 0 (the start events), then once per simulated minute while any group exists.
    fn next_wakeup(&self) -> Option<SimTime> {
        if self.groups.is_empty() {
            return None;
        }
        if !self.started {
            return Some(SimTime::ZERO);
        }
        Some(SimTime((self.minute + 1) * MINUTE_MS))
    }

    fn advance(&mut self, now: SimTime, out: &mut Vec<Event>) {
        if self.groups.is_empty() {
            return;
        }
        self.start(out);
        while (self.minute + 1) * MINUTE_MS <= now.as_millis() {
            self.run_minute(self.minute + 1, out);
        }
    }
}
