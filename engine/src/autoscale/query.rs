//! Read-only queries for the console; each returns a type of [`views`](super::views).

use super::decide::{MetricModel, Threshold};
use super::engine::AutoscaleEngine;
use super::history::{outcome_view, state_of, Minute, HISTORY_MINUTES};
use super::lifecycle::phase_until;
use super::model::{ip_text, Cluster, Group};
use super::views::{
    AutoscaleSettingView, ClusterView, DecisionView, GroupView, MinuteView, NodeView, RecordsView,
    StreakView,
};
use crate::clock::SimDuration;
use crate::duration::format_duration;

/// The view of recorded minute `minute`.
pub(crate) fn minute_view(
    minute: u64,
    rec: &Minute,
    thresholds: &[Threshold],
    model: &MetricModel,
) -> MinuteView {
    let deployed = rec.deployed();
    let values = model.values(rec.demand, rec.n_eval(), deployed, thresholds);
    MinuteView {
        minute,
        metrics: values[..thresholds.len()].to_vec(),
        demand: rec.demand,
        nodes: rec.n_after(),
        outcome: outcome_view(rec.outcome()),
        state: state_of(rec.phase(), !deployed),
    }
}

fn setting(key: &str, label: &str, value: String, documented: bool) -> AutoscaleSettingView {
    AutoscaleSettingView {
        key: key.to_owned(),
        label: label.to_owned(),
        value,
        source: if documented { "documented" } else { "assumed" }.to_owned(),
    }
}

fn minutes_text(min: u32) -> String {
    format_duration(SimDuration::from_mins(u64::from(min)))
}

/// The timings and model choices of a group, each marked documented or assumed.
fn settings(g: &Group) -> Vec<AutoscaleSettingView> {
    let p = &g.params;
    vec![
        setting(
            "stats_interval",
            "statistics collected from each cluster every",
            "1m".to_owned(),
            true,
        ),
        setting(
            "watch_time",
            "consecutive minutes of breach before scaling",
            minutes_text(p.watch_time_min),
            true,
        ),
        setting(
            "cooldown",
            "evaluation skipped after a scale-out for",
            minutes_text(p.cooldown_min),
            true,
        ),
        setting(
            "drain_timeout",
            "connections drain after a scale-in for",
            minutes_text(p.drain_timeout_min),
            true,
        ),
        setting(
            "ttl",
            "DNS TTL (DNS mode: waited after the drain, in whole minutes)",
            format!("{} s", p.ttl_s),
            true,
        ),
        setting(
            "deprovision",
            "detach, deprovision and deregister take (evaluation waits)",
            "1m".to_owned(),
            true,
        ),
        setting(
            "nodes_per_decision",
            "nodes added or removed per decision",
            "1".to_owned(),
            false,
        ),
        setting(
            "provisioning",
            "provision, attach + sync, register, add IPs",
            "within the decision minute".to_owned(),
            false,
        ),
        setting(
            "scale_in_choice",
            "node removed by a scale-in",
            "the newest in service".to_owned(),
            false,
        ),
        setting(
            "at_limit",
            "a decision due at min/max nodes",
            "reported once per breach; the streak restarts".to_owned(),
            false,
        ),
        setting(
            "metric_model",
            "cpu and memory of each node",
            format!(
                "demand × {} / nodes in service, capped at 100 %",
                g.model.base_nodes
            ),
            false,
        ),
        setting(
            "node_mbps",
            "throughput of one node at 100 %",
            format!("{} Mbps", g.model.node_mbps),
            false,
        ),
        setting(
            "noise",
            "seeded noise on the demand",
            format!("±{} %", g.noise),
            false,
        ),
        setting(
            "history",
            "per-minute history kept in memory",
            "7d".to_owned(),
            false,
        ),
    ]
}

fn records(g: &Group, c: &Cluster) -> RecordsView {
    let dns = g.dns();
    let ips = if g.deployed {
        c.service_ips(dns)
    } else {
        Vec::new()
    };
    RecordsView {
        mode: g.mode,
        ipset: g.deployed.then(|| g.ipset()),
        dns: (dns && g.deployed).then(|| (g.domain.clone(), ips.clone(), g.params.ttl_s)),
        nlb: if dns {
            None
        } else {
            c.nlb_ip.map(|ip| (ip_text(ip), ips))
        },
    }
}

fn streak(g: &Group, c: &Cluster) -> Option<StreakView> {
    let s = c.core.streak;
    if s == 0 {
        return None;
    }
    let parameter = if s > 0 {
        let values = c.history.last().map_or([0.0; 3], |r| {
            g.model
                .values(r.demand, r.n_eval(), r.deployed(), g.limits.thresholds())
        });
        let above: Vec<&str> = g
            .limits
            .thresholds()
            .iter()
            .zip(values)
            .filter(|(t, v)| *v > t.max)
            .map(|(t, _)| t.metric.as_str())
            .collect();
        above.join(", ")
    } else {
        "all".to_owned()
    };
    Some(StreakView {
        direction: if s > 0 { "above_max" } else { "below_min" }.to_owned(),
        minutes: s.unsigned_abs(),
        needed: g.params.watch_time_min,
        parameter,
    })
}

/// A cluster now; `next` is the next minute to be evaluated.
fn cluster_view(g: &Group, c: &Cluster, next: u64) -> ClusterView {
    let thresholds = g.limits.thresholds();
    let values = c.history.last().map_or([0.0; 3], |r| {
        g.model
            .values(r.demand, r.n_eval(), r.deployed(), thresholds)
    });
    ClusterView {
        zone: c.zone.clone(),
        state: state_of(c.core.phase, !g.deployed),
        state_until_minute: if g.deployed {
            phase_until(c.core.phase)
        } else {
            None
        },
        nodes_in_service: c.core.in_service,
        nodes: c
            .nodes
            .iter()
            .map(|n| NodeView {
                id: n.id.clone(),
                ip: ip_text(n.ip),
                public_ip: n.public_ip.map(ip_text),
                state: n.state,
                since_ms: n.since_ms,
            })
            .collect(),
        metrics: thresholds
            .iter()
            .zip(values)
            .map(|(t, v)| (t.metric, v))
            .collect(),
        streak: streak(g, c),
        last_decision: c.last_decision.clone(),
        records: records(g, c),
        injected: c.injection(next),
    }
}

fn group_view(g: &Group, next: u64) -> GroupView {
    let zones: Vec<ClusterView> = g
        .clusters
        .iter()
        .map(|c| cluster_view(g, c, next))
        .collect();
    let mut last = None;
    for z in &zones {
        if let Some(d) = &z.last_decision {
            if last
                .as_ref()
                .is_none_or(|l: &DecisionView| d.at_ms > l.at_ms)
            {
                last = Some(d.clone());
            }
        }
    }
    GroupView {
        name: g.name.clone(),
        mode: g.mode,
        domain: g.domain.clone(),
        deployed: g.deployed,
        params: g.params.clone(),
        zones,
        last_decision: last,
        settings: settings(g),
    }
}

impl AutoscaleEngine {
    /// Every group now, configuration order.
    pub fn groups(&self) -> Vec<GroupView> {
        let next = self.minute + 1;
        self.groups.iter().map(|g| group_view(g, next)).collect()
    }

    /// One group now.
    pub fn group(&self, name: &str) -> Option<GroupView> {
        let next = self.minute + 1;
        self.groups
            .iter()
            .find(|g| g.name == name)
            .map(|g| group_view(g, next))
    }

    /// The last `minutes` minutes of a zone's timeline (as recorded, at most 7 days), oldest
    /// first; `None` for an unknown group or zone. Metrics are in the group's current
    /// threshold order.
    pub fn timeline(&self, group: &str, zone: &str, minutes: u32) -> Option<Vec<MinuteView>> {
        self.timeline_until(group, zone, minutes, u64::MAX)
    }

    /// The `minutes` minutes of a zone's timeline that end with minute `until` (or with the
    /// last one recorded before it), oldest first: a past range of the chart.
    pub fn timeline_until(
        &self,
        group: &str,
        zone: &str,
        minutes: u32,
        until: u64,
    ) -> Option<Vec<MinuteView>> {
        let g = self.groups.iter().find(|g| g.name == group)?;
        let c = g.clusters.iter().find(|c| c.zone == zone)?;
        let h = &c.history;
        // Minutes are recorded one after the other: index i holds minute(0) + i.
        let end = match h.len() {
            0 => 0,
            len => until.checked_sub(h.minute(0)).map_or(0, |past| {
                usize::try_from(past.saturating_add(1)).map_or(len, |n| n.min(len))
            }),
        };
        let n = (minutes as usize).min(end).min(HISTORY_MINUTES);
        let start = end - n;
        Some(
            (start..end)
                .map(|i| minute_view(h.minute(i), h.get(i), g.limits.thresholds(), &g.model))
                .collect(),
        )
    }

    /// The last minute evaluated (0 before the first).
    pub fn last_minute(&self) -> u64 {
        self.minute
    }
}
