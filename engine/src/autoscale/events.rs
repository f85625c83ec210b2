//! Event details and the words of reasons. Keys are written in alphabetical order (see
//! [`Event`]); numbers are rounded to two decimals.

use serde_json::{json, Value};

use super::config::GroupParams;
use super::decide::{Direction, Limits, Skip, StepResult, Trigger};
use crate::clock::SimTime;
use crate::event::{EngineId, Event};

/// An event of this engine (the subject is always the group).
pub(crate) fn ev(now_ms: u64, group: &str, kind: &str, details: Value) -> Event {
    Event::new(SimTime(now_ms), EngineId::Autoscale, group, kind, details)
}

/// `x` rounded to two decimals.
pub(crate) fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// `x` as short text (`85`, `56.67`).
pub(crate) fn num(x: f64) -> String {
    let r = round2(x);
    if r == r.trunc() && r.abs() < 1e15 {
        format!("{}", r as i64)
    } else {
        format!("{r}")
    }
}

/// Every threshold with its statistic: `[{max, min, parameter, value}]`.
pub(crate) fn parameters_json(lim: &Limits, values: &[f64; 3]) -> Value {
    Value::Array(
        lim.thresholds()
            .iter()
            .zip(values)
            .map(|(t, v)| {
                json!({
                    "max": t.max,
                    "min": t.min,
                    "parameter": t.metric.as_str(),
                    "value": round2(*v),
                })
            })
            .collect(),
    )
}

/// `memory 90 > 85, cpu 80 > 75`: the parameters above their maximum.
fn above_text(lim: &Limits, values: &[f64; 3]) -> String {
    let parts: Vec<String> = lim
        .thresholds()
        .iter()
        .zip(values)
        .filter(|(t, v)| **v > t.max)
        .map(|(t, v)| format!("{} {} > {}", t.metric.as_str(), num(*v), num(t.max)))
        .collect();
    parts.join(", ")
}

/// `memory 30 < 40, cpu 20 < 25`: every parameter against its minimum.
fn below_text(lim: &Limits, values: &[f64; 3]) -> String {
    let parts: Vec<String> = lim
        .thresholds()
        .iter()
        .zip(values)
        .map(|(t, v)| format!("{} {} < {}", t.metric.as_str(), num(*v), num(t.min)))
        .collect();
    parts.join(", ")
}

/// The first parameter above its maximum (scale-out), else the first one (scale-in):
/// `(parameter, value)`.
pub(crate) fn leading(lim: &Limits, values: &[f64; 3], dir: Direction) -> (&'static str, f64) {
    let ts = lim.thresholds();
    let pick = match dir {
        Direction::Out => ts.iter().zip(values).find(|(t, v)| **v > t.max),
        Direction::In => None,
    };
    pick.or_else(|| ts.iter().zip(values).next())
        .map_or(("none", 0.0), |(t, v)| (t.metric.as_str(), round2(*v)))
}

fn watch_text(streak: u32, watch: u32) -> String {
    format!("for {streak} consecutive minutes (watch time {watch} min)")
}

/// Why a scale-out was decided.
pub(crate) fn scale_out_reason(
    lim: &Limits,
    r: &StepResult,
    before: u32,
    after: u32,
    until: u64,
) -> String {
    let why = match r.trigger {
        Trigger::Threshold => format!(
            "a parameter above its maximum ({}) {}",
            above_text(lim, &r.values),
            watch_text(r.streak, lim.watch)
        ),
        _ => format!(
            "{before} nodes in service, fewer than min_nodes ({})",
            lim.min_nodes
        ),
    };
    format!(
        "{why}: scale-out from {before} to {after} nodes (max {}); cooldown until minute {until}",
        lim.max_nodes
    )
}

/// Why a scale-in was decided.
pub(crate) fn scale_in_reason(
    lim: &Limits,
    r: &StepResult,
    before: u32,
    after: u32,
    until: u64,
    ttl_wait: u64,
) -> String {
    let why = match r.trigger {
        Trigger::Threshold => format!(
            "every parameter below its minimum ({}) {}",
            below_text(lim, &r.values),
            watch_text(r.streak, lim.watch)
        ),
        _ => format!(
            "{before} nodes in service, more than max_nodes ({})",
            lim.max_nodes
        ),
    };
    let ttl = if ttl_wait > 0 {
        format!(", then a DNS TTL wait of {ttl_wait} min")
    } else {
        String::new()
    };
    format!(
        "{why}: scale-in from {before} to {after} nodes (min {}); IPs removed, connections \
         drain until minute {until}{ttl}",
        lim.min_nodes
    )
}

/// Why a due decision could not be made.
pub(crate) fn at_limit_reason(lim: &Limits, r: &StepResult, dir: Direction, nodes: u32) -> String {
    match dir {
        Direction::Out => format!(
            "a parameter above its maximum ({}) {}, but the cluster already has max_nodes \
             ({nodes}) nodes",
            above_text(lim, &r.values),
            watch_text(r.streak, lim.watch)
        ),
        Direction::In => format!(
            "every parameter below its minimum ({}) {}, but the cluster has only min_nodes \
             ({nodes}) nodes",
            below_text(lim, &r.values),
            watch_text(r.streak, lim.watch)
        ),
    }
}

/// Why evaluations are skipped from `from` to `until`.
pub(crate) fn skip_message(skip: Skip, from: u64, until: u64, ttl_s: u32) -> String {
    let what = match skip {
        Skip::Cooldown => "cooldown after a scale-out".to_owned(),
        Skip::Drain => "connections drain after a scale-in (drain timeout)".to_owned(),
        Skip::Ttl => format!(
            "DNS TTL ({ttl_s} s) in effect after the drain: resolvers may still hold the \
             removed IPs"
        ),
        Skip::InProgress => {
            "an autoscale event is in progress (the removed nodes are detached, deprovisioned \
             and deregistered); evaluation waits for it"
                .to_owned()
        }
    };
    if from == until {
        format!("{what}: evaluation skipped at minute {from}")
    } else {
        format!("{what}: evaluation skipped from minute {from} until minute {until}")
    }
}

/// A group's parameters as details (keys in alphabetical order).
pub(crate) fn params_json(p: &GroupParams) -> Value {
    let thresholds: Vec<Value> = p
        .thresholds
        .iter()
        .map(|t| json!({ "max": t.max, "min": t.min, "parameter": t.parameter.as_str() }))
        .collect();
    json!({
        "cooldown_min": p.cooldown_min,
        "drain_timeout_min": p.drain_timeout_min,
        "max_nodes": p.max_nodes,
        "min_nodes": p.min_nodes,
        "thresholds": thresholds,
        "ttl_s": p.ttl_s,
        "watch_time_min": p.watch_time_min,
    })
}

/// The names of the parameters that differ.
pub(crate) fn changed_fields(a: &GroupParams, b: &GroupParams) -> Vec<&'static str> {
    let mut out = Vec::new();
    let pairs = [
        ("min_nodes", a.min_nodes != b.min_nodes),
        ("max_nodes", a.max_nodes != b.max_nodes),
        ("watch_time_min", a.watch_time_min != b.watch_time_min),
        ("cooldown_min", a.cooldown_min != b.cooldown_min),
        (
            "drain_timeout_min",
            a.drain_timeout_min != b.drain_timeout_min,
        ),
        ("ttl_s", a.ttl_s != b.ttl_s),
        ("thresholds", a.thresholds != b.thresholds),
    ];
    for (name, differs) in pairs {
        if differs {
            out.push(name);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short() {
        assert_eq!(num(85.0), "85");
        assert_eq!(num(56.666_666), "56.67");
        assert_eq!(num(0.0), "0");
        assert_eq!(
            skip_message(Skip::Ttl, 31, 31, 60),
            "DNS TTL (60 s) in effect after the drain: resolvers may still hold the removed \
             IPs: evaluation skipped at minute 31"
        );
    }
}
