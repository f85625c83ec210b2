//! The node lifecycle and the events of a cluster's minute: scale-out (provision, attach and
//! sync, register, add IPs), scale-in (remove IPs, drain), deprovisioning (detach,
//! deprovision, deregister), skip windows, at-limit reports and the hourly sample.

use serde_json::{json, Value};

use super::decide::{Direction, Limits, MetricModel, Phase, Skip, StepResult};
use super::events::{
    at_limit_reason, ev, leading, parameters_json, round2, scale_in_reason, scale_out_reason,
    skip_message,
};
use super::model::{ip_text, Cluster, PublicIps};
use super::views::{DecisionView, NodeState};
use crate::event::Event;

/// What the steps of one group's clusters read (borrowed beside the clusters).
pub(crate) struct Ctx<'a> {
    pub(crate) name: &'a str,
    pub(crate) no: u32,
    pub(crate) domain: &'a str,
    pub(crate) dns: bool,
    pub(crate) deployed: bool,
    pub(crate) ttl_s: u32,
    pub(crate) limits: &'a Limits,
    pub(crate) model: &'a MetricModel,
    /// The workload's demand this minute.
    pub(crate) profile: f64,
    pub(crate) noise: f64,
}

/// A decision due at the node limit (reported once per breach).
#[expect(
    clippy::too_many_arguments,
    reason = "one call site, all borrowed pieces"
)]
pub(crate) fn at_limit(
    ctx: &Ctx<'_>,
    c: &mut Cluster,
    r: &StepResult,
    d: Direction,
    before: u32,
    m: u64,
    now: u64,
    out: &mut Vec<Event>,
) {
    let reason = at_limit_reason(ctx.limits, r, d, before);
    let (parameter, value) = leading(ctx.limits, &r.values, d);
    let (limit, bound) = match d {
        Direction::Out => ("max_nodes", ctx.limits.max_nodes),
        Direction::In => ("min_nodes", ctx.limits.min_nodes),
    };
    let details = json!({
        "direction": d.as_str(),
        "limit": limit,
        "limit_nodes": bound,
        "minute": m,
        "nodes": before,
        "parameter": parameter,
        "parameters": parameters_json(ctx.limits, &r.values),
        "reason": reason,
        "streak": r.streak,
        "value": value,
        "watch_time_min": ctx.limits.watch,
        "zone": c.zone,
    });
    out.push(ev(now, ctx.name, "autoscale.at_limit", details));
    decided(c, now, "at_limit", reason);
}

/// Remembers the cluster's latest decision.
pub(crate) fn decided(c: &mut Cluster, now: u64, kind: &str, reason: String) {
    c.last_decision = Some(DecisionView {
        at_ms: now,
        zone: c.zone.clone(),
        kind: kind.to_owned(),
        reason,
    });
}

/// The last minute of the phase the cluster is in.
pub(crate) fn phase_until(phase: Phase) -> Option<u64> {
    match phase {
        Phase::Evaluating => None,
        Phase::Cooldown { until } | Phase::Draining { until, .. } | Phase::TtlWait { until } => {
            Some(until)
        }
        Phase::Deprovisioning { at } => Some(at),
    }
}

/// Opens a skip window: one `evaluation.skipped` for its whole length.
pub(crate) fn skipped(
    ctx: &Ctx<'_>,
    c: &mut Cluster,
    s: Skip,
    m: u64,
    now: u64,
    out: &mut Vec<Event>,
) {
    let until = phase_until(c.core.phase).unwrap_or(m);
    let message = skip_message(s, m, until, ctx.ttl_s);
    let details = json!({
        "from_minute": m,
        "message": message,
        "reason": s.as_str(),
        "until_minute": until,
        "zone": c.zone,
    });
    out.push(ev(now, ctx.name, "evaluation.skipped", details));
    c.skip = Some((s, m));
    decided(c, now, "skipped", message);
}

/// The distributor's side of a records change: `{domain, ips, mode, nlb_ip, records, ttl_s,
/// zone}`.
fn records_details(ctx: &Ctx<'_>, c: &Cluster, ips: Vec<String>) -> Value {
    json!({
        "domain": ctx.domain,
        "ips": ips,
        "mode": if ctx.dns { "dns" } else { "nlb" },
        "nlb_ip": c.nlb_ip.map(ip_text),
        "records": c.service_ips(ctx.dns),
        "ttl_s": ctx.dns.then_some(ctx.ttl_s),
        "zone": c.zone,
    })
}

/// Scale-out of `k` nodes: the decision, then provision, attach and sync, register with ADM,
/// add the IPs to DNS / the NLB (all within the decision minute).
#[expect(
    clippy::too_many_arguments,
    reason = "one call site, all borrowed pieces"
)]
pub(crate) fn scale_out(
    ctx: &Ctx<'_>,
    c: &mut Cluster,
    r: &StepResult,
    k: u32,
    before: u32,
    m: u64,
    now: u64,
    ips: &mut PublicIps,
    out: &mut Vec<Event>,
) {
    let first = c.nodes.len();
    for _ in 0..k {
        c.add_node(ctx.name, ctx.no, ctx.dns, ips, now);
    }
    let until = phase_until(c.core.phase).unwrap_or(m);
    let after = c.core.in_service;
    let reason = scale_out_reason(ctx.limits, r, before, after, until);
    let (parameter, value) = leading(ctx.limits, &r.values, Direction::Out);
    let added = &c.nodes[first..];
    let ids: Vec<&str> = added.iter().map(|n| n.id.as_str()).collect();
    let details = json!({
        "cooldown_until_minute": until,
        "max_nodes": ctx.limits.max_nodes,
        "minute": m,
        "nodes": ids,
        "nodes_after": after,
        "nodes_before": before,
        "parameter": parameter,
        "parameters": parameters_json(ctx.limits, &r.values),
        "reason": reason,
        "streak": r.streak,
        "trigger": r.trigger.as_str(),
        "value": value,
        "watch_time_min": ctx.limits.watch,
        "zone": c.zone,
    });
    out.push(ev(now, ctx.name, "autoscale.scale_out", details));
    let provisioned: Vec<Value> = added
        .iter()
        .map(
            |n| json!({ "ip": ip_text(n.ip), "node": n.id, "public_ip": n.public_ip.map(ip_text) }),
        )
        .collect();
    out.push(ev(
        now,
        ctx.name,
        "node.provisioned",
        json!({ "nodes": provisioned, "zone": c.zone }),
    ));
    out.push(ev(
        now,
        ctx.name,
        "node.attached",
        json!({ "config_synced": true, "nodes": ids, "zone": c.zone }),
    ));
    out.push(ev(
        now,
        ctx.name,
        "node.registered",
        json!({ "nodes": ids, "registered_with": "ADM", "zone": c.zone }),
    ));
    let new_ips: Vec<String> = added
        .iter()
        .filter_map(|n| if ctx.dns { n.public_ip } else { Some(n.ip) })
        .map(ip_text)
        .collect();
    let details = records_details(ctx, c, new_ips);
    out.push(ev(now, ctx.name, "records.added", details));
    c.sample.decisions += 1;
    c.last_scale = Some(Direction::Out);
    decided(c, now, "scale_out", reason);
}

/// Scale-in of `k` nodes (the newest in service): the decision, then their IPs leave DNS /
/// the NLB and their connections drain.
#[expect(
    clippy::too_many_arguments,
    reason = "one call site, all borrowed pieces"
)]
pub(crate) fn scale_in(
    ctx: &Ctx<'_>,
    c: &mut Cluster,
    r: &StepResult,
    k: u32,
    before: u32,
    m: u64,
    now: u64,
    out: &mut Vec<Event>,
) {
    let mut chosen: Vec<usize> = Vec::new();
    for _ in 0..k {
        let newest = c
            .nodes
            .iter()
            .enumerate()
            .filter(|(i, n)| n.state == NodeState::InService && !chosen.contains(i))
            .max_by_key(|(_, n)| n.serial)
            .map(|(i, _)| i);
        if let Some(i) = newest {
            chosen.push(i);
        }
    }
    let mut removed_ips = Vec::new();
    let mut ids = Vec::new();
    for &i in &chosen {
        let n = &mut c.nodes[i];
        n.state = NodeState::Draining;
        n.since_ms = now;
        ids.push(n.id.clone());
        if let Some(ip) = if ctx.dns { n.public_ip } else { Some(n.ip) } {
            removed_ips.push(ip_text(ip));
        }
    }
    let (until, ttl) = match c.core.phase {
        Phase::Draining { until, ttl } => (until, ttl),
        _ => (m, 0),
    };
    let after = c.core.in_service;
    let reason = scale_in_reason(ctx.limits, r, before, after, until, ttl);
    let (parameter, value) = leading(ctx.limits, &r.values, Direction::In);
    let details = json!({
        "drain_until_minute": until,
        "min_nodes": ctx.limits.min_nodes,
        "minute": m,
        "nodes": ids,
        "nodes_after": after,
        "nodes_before": before,
        "parameter": parameter,
        "parameters": parameters_json(ctx.limits, &r.values),
        "reason": reason,
        "streak": r.streak,
        "trigger": r.trigger.as_str(),
        "ttl_wait_min": ttl,
        "value": value,
        "watch_time_min": ctx.limits.watch,
        "zone": c.zone,
    });
    out.push(ev(now, ctx.name, "autoscale.scale_in", details));
    let details = records_details(ctx, c, removed_ips);
    out.push(ev(now, ctx.name, "records.removed", details));
    c.sample.decisions += 1;
    c.last_scale = Some(Direction::In);
    decided(c, now, "scale_in", reason);
}

/// The drained nodes are detached from the cluster, deprovisioned (public IPs released) and
/// deregistered from ADM.
pub(crate) fn deprovision(ctx: &Ctx<'_>, c: &mut Cluster, now: u64, out: &mut Vec<Event>) {
    let (gone, kept): (Vec<_>, Vec<_>) = c.nodes.drain(..).partition(|n| n.leaving());
    c.nodes = kept;
    if gone.is_empty() {
        return;
    }
    let ids: Vec<&str> = gone.iter().map(|n| n.id.as_str()).collect();
    let released: Vec<String> = gone
        .iter()
        .filter_map(|n| n.public_ip)
        .map(ip_text)
        .collect();
    out.push(ev(
        now,
        ctx.name,
        "node.detached",
        json!({ "nodes": ids, "zone": c.zone }),
    ));
    out.push(ev(
        now,
        ctx.name,
        "node.deprovisioned",
        json!({ "nodes": ids, "public_ips_released": released, "zone": c.zone }),
    ));
    out.push(ev(
        now,
        ctx.name,
        "node.deregistered",
        json!({ "nodes": ids, "registered_with": "ADM", "zone": c.zone }),
    ));
}

/// `autoscale.sample`: the hour's aggregates of every cluster of a group, column-wise (one
/// array entry per zone, in zone order) to keep the event small and cheap to build.
pub(crate) fn sample_event(ctx: &Ctx<'_>, clusters: &mut [Cluster], m: u64, now: u64) -> Event {
    let k = ctx.limits.thresholds().len();
    let n = clusters.len();
    let mut zones = Vec::with_capacity(n);
    let (mut d_max, mut d_mean) = (Vec::with_capacity(n), Vec::with_capacity(n));
    let (mut n_min, mut n_max, mut n_now) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    let mut decisions = Vec::with_capacity(n);
    let mut m_max: Vec<Vec<f64>> = vec![Vec::with_capacity(n); k];
    let mut m_mean: Vec<Vec<f64>> = vec![Vec::with_capacity(n); k];
    for c in clusters.iter_mut() {
        let s = core::mem::take(&mut c.sample);
        let minutes = f64::from(s.minutes.max(1));
        zones.push(Value::from(c.zone.as_str()));
        d_max.push(round2(s.demand_max));
        d_mean.push(round2(s.demand_sum / minutes));
        n_min.push(s.nodes_min);
        n_max.push(s.nodes_max);
        n_now.push(c.core.in_service);
        decisions.push(s.decisions);
        for i in 0..k {
            m_max[i].push(round2(s.max[i]));
            m_mean[i].push(round2(s.sum[i] / minutes));
        }
    }
    let metrics: Vec<Value> = ctx
        .limits
        .thresholds()
        .iter()
        .zip(m_max.into_iter().zip(m_mean))
        .map(|(t, (max, mean))| json!({ "max": max, "mean": mean, "parameter": t.metric.as_str() }))
        .collect();
    let details = json!({
        "decisions": decisions,
        "demand": { "max": d_max, "mean": d_mean },
        "from_minute": m.saturating_sub(59).max(1),
        "metrics": metrics,
        "nodes": { "max": n_max, "min": n_min, "now": n_now },
        "to_minute": m,
        "zones": zones,
    });
    ev(now, ctx.name, "autoscale.sample", details)
}
