//! `[autoscale]`: autoscale groups of ADC clusters (SPEC §4) and the synthetic workload that
//! drives their metrics.

use serde::{Deserialize, Serialize};

use super::check::{fail, finite, in_range, non_empty, unique};
use super::error::{ConfigError, FieldPath};

/// `[autoscale]`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AutoscaleConfig {
    /// `[[autoscale.groups]]`.
    pub groups: Vec<GroupConfig>,
}

/// `[[autoscale.groups]]`. Defaults of the timing fields are those of the seed's worked
/// example (`asg_arn`) [seed 001].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupConfig {
    /// Unique group name.
    pub name: String,
    /// Traffic distribution.
    pub mode: DistributionMode,
    /// The application's domain registered with DNS or the NLB. Default `<name>.example.com`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
    /// Whether the application is deployed at the start (IPSets and records exist). Default
    /// true.
    #[serde(default = "yes")]
    pub deployed: bool,
    /// Availability zones, one cluster each (at least one, unique).
    pub zones: Vec<String>,
    /// Fewest nodes per cluster, at least 1.
    pub min_nodes: u32,
    /// Most nodes per cluster, at least `min_nodes`.
    pub max_nodes: u32,
    /// Minutes of consecutive breach before scaling, at least 1. Default 3.
    #[serde(default = "three")]
    pub watch_time_min: u32,
    /// Minutes after a scale-out during which evaluation is skipped. Default 10.
    #[serde(default = "ten")]
    pub cooldown_min: u32,
    /// Minutes after a scale-in before nodes are deprovisioned. Default 10.
    #[serde(default = "ten")]
    pub drain_timeout_min: u32,
    /// DNS TTL in seconds (DNS mode). Default 60.
    #[serde(default = "sixty")]
    pub ttl_s: u32,
    /// `[[autoscale.groups.thresholds]]` (at least one; each parameter once).
    pub thresholds: Vec<ThresholdConfig>,
    /// `[autoscale.groups.workload]`. Default: constant 50.
    #[serde(default)]
    pub workload: Workload,
}

fn yes() -> bool {
    true
}
fn three() -> u32 {
    3
}
fn ten() -> u32 {
    10
}
fn sixty() -> u32 {
    60
}

/// The parameters of a group an administrator edits (the product's min_node, max_node,
/// watch_time, cool_down_period, drain_connection_timeout, ttl_timeout and the threshold
/// parameters).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupParams {
    /// Fewest nodes per cluster, at least 1.
    pub min_nodes: u32,
    /// Most nodes per cluster, at least `min_nodes`.
    pub max_nodes: u32,
    /// Minutes of consecutive breach before scaling, at least 1.
    pub watch_time_min: u32,
    /// Minutes after a scale-out during which evaluation is skipped.
    pub cooldown_min: u32,
    /// Minutes after a scale-in before nodes are deprovisioned.
    pub drain_timeout_min: u32,
    /// DNS TTL in seconds (DNS mode).
    pub ttl_s: u32,
    /// Threshold parameters (at least one; each parameter once).
    pub thresholds: Vec<ThresholdConfig>,
}

impl GroupConfig {
    /// The editable parameters of this group.
    pub fn params(&self) -> GroupParams {
        GroupParams {
            min_nodes: self.min_nodes,
            max_nodes: self.max_nodes,
            watch_time_min: self.watch_time_min,
            cooldown_min: self.cooldown_min,
            drain_timeout_min: self.drain_timeout_min,
            ttl_s: self.ttl_s,
            thresholds: self.thresholds.clone(),
        }
    }

    /// The application domain (`domain`, or `<name>.example.com`).
    pub fn domain_name(&self) -> String {
        self.domain
            .clone()
            .unwrap_or_else(|| format!("{}.example.com", self.name))
    }
}

/// How traffic reaches the clusters.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DistributionMode {
    /// DNS (Route53) maps the domain to node IPs; every node has a public IP.
    Dns,
    /// One static public IP per zone in front of private nodes.
    Nlb,
}

/// `[[autoscale.groups.thresholds]]`: scale out when the metric is above `max` for the watch
/// time; scale in when every threshold is below its `min`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThresholdConfig {
    /// Which metric.
    pub parameter: Metric,
    /// Lower limit (`cpu`/`memory`: 0..=100 %; `throughput`: Mbps, >= 0).
    pub min: f64,
    /// Upper limit, greater than `min`.
    pub max: f64,
}

/// A cluster metric collected every minute.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// CPU, percent.
    Cpu,
    /// Memory, percent.
    Memory,
    /// Throughput, Mbps.
    Throughput,
}

impl Metric {
    /// The name used in files (`"cpu"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Metric::Cpu => "cpu",
            Metric::Memory => "memory",
            Metric::Throughput => "throughput",
        }
    }
}

/// `[autoscale.groups.workload]`: the demand offered to the group over time, in percent of the
/// capacity of `min_nodes` nodes; the engine spreads it over the nodes in service, so a
/// scale-out lowers the metrics. `profile` is the tag; times are minutes since the start.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "profile", rename_all = "snake_case", deny_unknown_fields)]
pub enum Workload {
    /// Always `level`.
    Constant {
        /// Demand, percent.
        level: f64,
    },
    /// `base + amplitude * sin(2π (t - peak_at_min) / period_min + π/2)`: a daily wave.
    Diurnal {
        /// Mean demand, percent.
        base: f64,
        /// Half the peak-to-trough swing, percent.
        amplitude: f64,
        /// Period in minutes. Default 1440.
        #[serde(default = "day_minutes")]
        period_min: u32,
        /// Minute of the first peak. Default 0.
        #[serde(default)]
        peak_at_min: u32,
    },
    /// `before` until `at_min`, then `after`.
    Step {
        /// Demand before the step, percent.
        before: f64,
        /// Demand from the step on, percent.
        after: f64,
        /// Minute of the step.
        at_min: u32,
    },
    /// `base`, except `peak` during `[at_min, at_min + duration_min)`.
    Spike {
        /// Demand outside the spike, percent.
        base: f64,
        /// Demand during the spike, percent.
        peak: f64,
        /// Minute the spike starts.
        at_min: u32,
        /// Length of the spike in minutes (at least 1).
        duration_min: u32,
    },
    /// One value per minute (minute 1 is the first), then the last value forever.
    Trace {
        /// Demand per minute, percent (at least one value).
        values: Vec<f64>,
    },
}

fn day_minutes() -> u32 {
    1440
}

impl Default for Workload {
    fn default() -> Self {
        Workload::Constant { level: 50.0 }
    }
}

impl Workload {
    /// The numeric levels with their field names (for validation and display).
    fn levels(&self) -> Vec<(&'static str, Option<usize>, f64)> {
        match self {
            Workload::Constant { level } => vec![("level", None, *level)],
            Workload::Diurnal {
                base, amplitude, ..
            } => vec![("base", None, *base), ("amplitude", None, *amplitude)],
            Workload::Step { before, after, .. } => {
                vec![("before", None, *before), ("after", None, *after)]
            }
            Workload::Spike { base, peak, .. } => {
                vec![("base", None, *base), ("peak", None, *peak)]
            }
            Workload::Trace { values } => values
                .iter()
                .enumerate()
                .map(|(i, v)| ("values", Some(i), *v))
                .collect(),
        }
    }

    /// Checks levels are finite and non-negative, and the profile's own constraints.
    pub fn validate(&self, path: &FieldPath) -> Result<(), ConfigError> {
        for (name, index, value) in self.levels() {
            let p = match index {
                Some(i) => path.key(name).index(i),
                None => path.key(name),
            };
            finite(value, p.clone())?;
            if value < 0.0 {
                return fail(p, format!("must not be negative; got {value}"));
            }
        }
        match self {
            Workload::Diurnal { period_min: 0, .. } => {
                fail(path.key("period_min"), "must be at least 1")
            }
            Workload::Spike {
                duration_min: 0, ..
            } => fail(path.key("duration_min"), "must be at least 1"),
            Workload::Trace { values } if values.is_empty() => {
                fail(path.key("values"), "needs at least one value")
            }
            _ => Ok(()),
        }
    }
}

impl AutoscaleConfig {
    /// Checks names, zones, node bounds, timings, thresholds and workloads.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let path = |i: usize| FieldPath::root("autoscale").key("groups").index(i);
        for (i, g) in self.groups.iter().enumerate() {
            g.validate(&path(i))?;
        }
        unique(
            self.groups.len(),
            "group",
            |i| self.groups[i].name.clone(),
            |i| path(i).key("name"),
        )
    }
}

impl GroupConfig {
    fn validate(&self, path: &FieldPath) -> Result<(), ConfigError> {
        non_empty(&self.name, path.key("name"))?;
        if self.zones.is_empty() {
            return fail(path.key("zones"), "needs at least one availability zone");
        }
        for (j, z) in self.zones.iter().enumerate() {
            non_empty(z, path.key("zones").index(j))?;
        }
        unique(
            self.zones.len(),
            "zone",
            |j| self.zones[j].clone(),
            |j| path.key("zones").index(j),
        )?;
        if let Some(d) = &self.domain {
            non_empty(d, path.key("domain"))?;
        }
        self.params().validate(path)?;
        self.workload.validate(&path.key("workload"))
    }
}

impl GroupParams {
    /// Checks node bounds, watch time and thresholds; `path` is the group's (fields are
    /// reported as `path.min_nodes`, `path.thresholds[i].max`, ...).
    pub fn validate(&self, path: &FieldPath) -> Result<(), ConfigError> {
        in_range(self.min_nodes, 1, u32::MAX, path.key("min_nodes"))?;
        if self.max_nodes < self.min_nodes {
            return fail(
                path.key("max_nodes"),
                format!(
                    "must be at least min_nodes ({}); got {}",
                    self.min_nodes, self.max_nodes
                ),
            );
        }
        in_range(self.watch_time_min, 1, u32::MAX, path.key("watch_time_min"))?;
        if self.thresholds.is_empty() {
            return fail(path.key("thresholds"), "needs at least one threshold");
        }
        for (j, t) in self.thresholds.iter().enumerate() {
            t.validate(&path.key("thresholds").index(j))?;
        }
        unique(
            self.thresholds.len(),
            "threshold parameter",
            |j| self.thresholds[j].parameter.as_str().to_owned(),
            |j| path.key("thresholds").index(j).key("parameter"),
        )?;
        Ok(())
    }
}

impl ThresholdConfig {
    fn validate(&self, path: &FieldPath) -> Result<(), ConfigError> {
        finite(self.min, path.key("min"))?;
        finite(self.max, path.key("max"))?;
        let percent = matches!(self.parameter, Metric::Cpu | Metric::Memory);
        for (name, value) in [("min", self.min), ("max", self.max)] {
            if percent && !(0.0..=100.0).contains(&value) {
                return fail(
                    path.key(name),
                    format!("must be between 0 and 100 (percent); got {value}"),
                );
            }
            if value < 0.0 {
                return fail(path.key(name), format!("must not be negative; got {value}"));
            }
        }
        if self.min >= self.max {
            return fail(
                path.key("max"),
                format!("must be greater than min ({}); got {}", self.min, self.max),
            );
        }
        Ok(())
    }
}
