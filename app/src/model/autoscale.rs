//! What the autoscale pages receive: the engine's group views, each zone's timeline as a
//! chart draws it ([`Timeline`], reduced by the engine), the decisions read back from the
//! history, the editor's draft of a group's parameters and the what-if replay.

use engine::autoscale::chart::Timeline;
use engine::autoscale::config::{
    GroupParams, Metric, ThresholdConfig, MAX_CLUSTER_NODES, MAX_TIMING_MIN, MAX_TTL_S,
    MAX_WATCH_MIN,
};
use engine::autoscale::views::{GroupView, WhatIfSummary};
use engine::FieldPath;
use serde::{Deserialize, Serialize};

use super::EventRow;
use crate::error::AppError;

/// Every group now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupsPage {
    /// Groups, configuration order.
    pub groups: Vec<GroupView>,
    /// Simulated ms now.
    pub now_ms: u64,
}

/// One page of the groups table now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupListPage {
    /// The page, searched, filtered and sorted.
    pub groups: super::autoscale_groups::GroupPage,
    /// Simulated ms now.
    pub now_ms: u64,
}

/// One group: now, each zone's timeline and the recent decisions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupDetail {
    /// The group now.
    pub group: GroupView,
    /// One timeline per zone, the group's zone order.
    pub timelines: Vec<Timeline>,
    /// The group's recent decision events (newest first).
    pub decisions: Vec<EventRow>,
    /// The window shown, in simulated minutes.
    pub minutes: u32,
    /// Simulated ms now.
    pub now_ms: u64,
}

/// One zone of a what-if: what happened and what the edited parameters would have done.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WhatIfZoneCharts {
    /// Zone.
    pub zone: String,
    /// Recorded.
    pub real: Timeline,
    /// Replayed with the edited parameters.
    pub edited: Timeline,
    /// Totals of what happened.
    pub real_summary: WhatIfSummary,
    /// Totals with the edited parameters.
    pub edited_summary: WhatIfSummary,
}

/// The what-if answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WhatIfResult {
    /// Group.
    pub group: String,
    /// Hours asked for.
    pub hours: u32,
    /// First minute replayed.
    pub from_minute: u64,
    /// Last minute replayed.
    pub to_minute: u64,
    /// Per zone.
    pub zones: Vec<WhatIfZoneCharts>,
    /// Server-side time of the replay (engine only), microseconds.
    pub server_us: u64,
}

/// One threshold as typed in the editor.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ThresholdDraft {
    /// `cpu`, `memory` or `throughput`.
    pub parameter: String,
    /// Lower limit.
    pub min: String,
    /// Upper limit.
    pub max: String,
}

/// A group's parameters as typed in the editor (all text: the server parses and checks every
/// field and names the first bad one).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ParamsDraft {
    /// Fewest nodes per cluster.
    pub min_nodes: String,
    /// Most nodes per cluster.
    pub max_nodes: String,
    /// Watch time, minutes.
    pub watch_time_min: String,
    /// Cooldown, minutes.
    pub cooldown_min: String,
    /// Drain connection timeout, minutes.
    pub drain_timeout_min: String,
    /// DNS TTL, seconds.
    pub ttl_s: String,
    /// Threshold parameters.
    pub thresholds: Vec<ThresholdDraft>,
}

/// Each whole-number field with its label and the range the engine accepts:
/// `(field, label, low, high)`.
pub const NUMBER_FIELDS: [(&str, &str, u32, u32); 6] = [
    ("min_nodes", "Minimum nodes", 1, MAX_CLUSTER_NODES),
    ("max_nodes", "Maximum nodes", 1, MAX_CLUSTER_NODES),
    ("watch_time_min", "Watch time (min)", 1, MAX_WATCH_MIN),
    ("cooldown_min", "Cooldown (min)", 0, MAX_TIMING_MIN),
    (
        "drain_timeout_min",
        "Drain connection timeout (min)",
        0,
        MAX_TIMING_MIN,
    ),
    ("ttl_s", "DNS TTL (s)", 0, MAX_TTL_S),
];

/// The metrics a threshold may watch, as written in files.
pub const METRICS: [(&str, &str); 3] = [
    ("cpu", "CPU (%)"),
    ("memory", "memory (%)"),
    ("throughput", "throughput (Mbps)"),
];

/// A metric's name as written in files (`"cpu"`).
pub fn metric_name(metric: Metric) -> &'static str {
    metric.as_str()
}

/// A metric's unit (`%` or `Mbps`).
pub fn metric_unit(metric: Metric) -> &'static str {
    match metric {
        Metric::Cpu | Metric::Memory => "%",
        Metric::Throughput => "Mbps",
    }
}

/// A number as typed back into a form (`40`, `12.5`).
pub fn number_text(v: f64) -> String {
    format!("{v}")
}

impl ParamsDraft {
    /// The draft of `params` (what the editor opens with).
    pub fn from_params(p: &GroupParams) -> ParamsDraft {
        ParamsDraft {
            min_nodes: p.min_nodes.to_string(),
            max_nodes: p.max_nodes.to_string(),
            watch_time_min: p.watch_time_min.to_string(),
            cooldown_min: p.cooldown_min.to_string(),
            drain_timeout_min: p.drain_timeout_min.to_string(),
            ttl_s: p.ttl_s.to_string(),
            thresholds: p
                .thresholds
                .iter()
                .map(|t| ThresholdDraft {
                    parameter: metric_name(t.parameter).to_owned(),
                    min: number_text(t.min),
                    max: number_text(t.max),
                })
                .collect(),
        }
    }

    /// The text of a whole-number field by name.
    pub fn number(&self, field: &str) -> &str {
        match field {
            "min_nodes" => &self.min_nodes,
            "max_nodes" => &self.max_nodes,
            "watch_time_min" => &self.watch_time_min,
            "cooldown_min" => &self.cooldown_min,
            "drain_timeout_min" => &self.drain_timeout_min,
            _ => &self.ttl_s,
        }
    }

    /// Sets a whole-number field by name.
    pub fn set_number(&mut self, field: &str, value: String) {
        match field {
            "min_nodes" => self.min_nodes = value,
            "max_nodes" => self.max_nodes = value,
            "watch_time_min" => self.watch_time_min = value,
            "cooldown_min" => self.cooldown_min = value,
            "drain_timeout_min" => self.drain_timeout_min = value,
            _ => self.ttl_s = value,
        }
    }

    /// Parses and checks every field; the error names the first bad field (`max_nodes`,
    /// `thresholds[0].max`) and what it accepts.
    pub fn to_params(&self) -> Result<GroupParams, AppError> {
        let whole = |field: &str| -> Result<u32, AppError> {
            let (_, _, lo, hi) = NUMBER_FIELDS
                .iter()
                .find(|(f, ..)| *f == field)
                .copied()
                .unwrap_or((field, field, 0, u32::MAX));
            let text = self.number(field).trim();
            text.parse::<u32>()
                .ok()
                .filter(|n| (lo..=hi).contains(n))
                .ok_or_else(|| {
                    AppError::invalid(
                        field,
                        format!("must be a whole number between {lo} and {hi}; got \"{text}\""),
                    )
                })
        };
        let params = GroupParams {
            min_nodes: whole("min_nodes")?,
            max_nodes: whole("max_nodes")?,
            watch_time_min: whole("watch_time_min")?,
            cooldown_min: whole("cooldown_min")?,
            drain_timeout_min: whole("drain_timeout_min")?,
            ttl_s: whole("ttl_s")?,
            thresholds: self
                .thresholds
                .iter()
                .enumerate()
                .map(|(i, t)| t.to_threshold(i))
                .collect::<Result<_, _>>()?,
        };
        params
            .validate(&FieldPath::default())
            .map_err(|e| AppError::invalid(e.path.to_string(), e.message))?;
        Ok(params)
    }
}

impl ThresholdDraft {
    fn to_threshold(&self, i: usize) -> Result<ThresholdConfig, AppError> {
        let field = |name: &str| format!("thresholds[{i}].{name}");
        let parameter = match self.parameter.trim() {
            "cpu" => Metric::Cpu,
            "memory" => Metric::Memory,
            "throughput" => Metric::Throughput,
            other => {
                return Err(AppError::invalid(
                    field("parameter"),
                    format!("must be cpu, memory or throughput; got \"{other}\""),
                ))
            }
        };
        let number = |name: &str, text: &str| -> Result<f64, AppError> {
            let text = text.trim();
            text.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| {
                    AppError::invalid(field(name), format!("must be a number; got \"{text}\""))
                })
        };
        Ok(ThresholdConfig {
            parameter,
            min: number("min", &self.min)?,
            max: number("max", &self.max)?,
        })
    }
}

/// The error message of `error` if it is about `field` (for the text next to a form field).
pub fn field_error(error: &Option<AppError>, field: &str) -> Option<String> {
    match error {
        Some(AppError::Invalid { field: f, message }) if f == field => Some(message.clone()),
        _ => None,
    }
}

/// What switching `group` to the other distribution mode would do, one line per change (the
/// confirmation text).
pub fn switch_consequences(group: &GroupView) -> Vec<String> {
    use engine::autoscale::config::DistributionMode as Mode;
    let nodes: u32 = group.zones.iter().map(|z| z.nodes_in_service).sum();
    let zones = group.zones.len();
    let domain = &group.domain;
    let ttl = group.params.ttl_s;
    match group.mode {
        Mode::Dns => {
            let public: Vec<String> = group
                .zones
                .iter()
                .flat_map(|z| z.nodes.iter().filter_map(|n| n.public_ip.clone()))
                .collect();
            vec![
                format!(
                    "{} node public IP(s) released{}",
                    public.len(),
                    if public.is_empty() {
                        String::new()
                    } else {
                        format!(": {}", public.join(", "))
                    }
                ),
                format!("{zones} static NLB public IP(s) allocated, one per availability zone"),
                format!(
                    "the A records of {domain} ({nodes} node IPs, TTL {ttl} s) are deleted; {nodes} node private IPs become NLB targets"
                ),
                "new nodes will need no public IP (TCP traffic)".to_owned(),
            ]
        }
        Mode::Nlb => {
            let nlb: Vec<String> = group
                .zones
                .iter()
                .filter_map(|z| z.records.nlb.as_ref().map(|(ip, _)| ip.clone()))
                .collect();
            vec![
                format!("{nodes} node public IP(s) allocated, one per node in service"),
                format!(
                    "{} NLB static public IP(s) released{}",
                    nlb.len(),
                    if nlb.is_empty() {
                        String::new()
                    } else {
                        format!(": {}", nlb.join(", "))
                    }
                ),
                format!(
                    "{nodes} NLB target(s) moved to A records of {domain} with a TTL of {ttl} s; resolvers may keep old answers for the TTL"
                ),
                "every new node will need a public IP (UDP traffic)".to_owned(),
            ]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_draft_names_the_bad_field() {
        let good = ParamsDraft::from_params(&GroupParams::seed_example());
        assert_eq!(good.to_params().ok(), Some(GroupParams::seed_example()));
        type Edit = fn(&mut ParamsDraft);
        let table: Vec<(Edit, &str, &str)> = vec![
            (
                (|d: &mut ParamsDraft| d.max_nodes = "x".into()),
                "max_nodes",
                "between 1 and 32",
            ),
            (
                (|d: &mut ParamsDraft| d.max_nodes = "0".into()),
                "max_nodes",
                "between 1 and 32",
            ),
            (
                (|d: &mut ParamsDraft| d.min_nodes = "5".into()),
                "max_nodes",
                "at least min_nodes (5)",
            ),
            (
                (|d: &mut ParamsDraft| d.watch_time_min = "0".into()),
                "watch_time_min",
                "between 1 and 1440",
            ),
            (
                (|d: &mut ParamsDraft| d.thresholds[0].max = "30".into()),
                "thresholds[0].max",
                "must be greater than min (40); got 30",
            ),
            (
                (|d: &mut ParamsDraft| d.thresholds[0].min = "abc".into()),
                "thresholds[0].min",
                "a number",
            ),
            (
                (|d: &mut ParamsDraft| d.thresholds[0].parameter = "disk".into()),
                "thresholds[0].parameter",
                "cpu, memory or throughput",
            ),
            (
                (|d: &mut ParamsDraft| d.thresholds.clear()),
                "thresholds",
                "at least one",
            ),
            (
                (|d: &mut ParamsDraft| d.thresholds.push(d.thresholds[0].clone())),
                "thresholds[1].parameter",
                "",
            ),
        ];
        for (edit, field, text) in table {
            let mut d = good.clone();
            edit(&mut d);
            match d.to_params() {
                Err(AppError::Invalid { field: f, message }) => {
                    assert_eq!(f, field, "{message}");
                    assert!(message.contains(text), "{field}: {message}");
                }
                other => panic!("{field}: expected invalid, got {other:?}"),
            }
        }
    }
}
