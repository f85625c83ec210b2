//! `[autoscale]`: autoscale groups of ADC clusters (SPEC §4) and the synthetic workload that
//! drives their metrics.

use serde::{Deserialize, Serialize};

mod trace;

pub use self::trace::parse_metrics_csv;
use crate::action::error::ActionError;
use crate::scenario::check::{fail, finite, in_range, non_empty, some_of, unique};
use crate::scenario::error::{ConfigError, FieldPath};

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
    /// Fewest nodes per cluster, `1..=32`. Also the reference of the workload's demand
    /// (percent of the capacity of this many nodes), fixed for the run.
    pub min_nodes: u32,
    /// Most nodes per cluster, `min_nodes..=32`.
    pub max_nodes: u32,
    /// Minutes of consecutive breach before scaling, `1..=1440`. Default 3.
    #[serde(default = "three")]
    pub watch_time_min: u32,
    /// Minutes after a scale-out during which evaluation is skipped, `0..=10080`. Default 10.
    #[serde(default = "ten")]
    pub cooldown_min: u32,
    /// Minutes after a scale-in before nodes are deprovisioned, `0..=10080`. Default 10.
    #[serde(default = "ten")]
    pub drain_timeout_min: u32,
    /// DNS TTL in seconds (DNS mode), `0..=86400`. Default 60.
    #[serde(default = "sixty")]
    pub ttl_s: u32,
    /// `[[autoscale.groups.thresholds]]` (at least one; each parameter once).
    pub thresholds: Vec<ThresholdConfig>,
    /// `[autoscale.groups.workload]`. Default: constant 50.
    #[serde(default)]
    pub workload: Workload,
    /// Seeded noise added to the demand each minute: uniform in `±noise` percent points,
    /// drawn per cluster (`0..=100`). Default 0 (none), so a trace replays exactly.
    #[serde(default)]
    pub noise: f64,
    /// Throughput of one node at 100 % utilisation, in Mbps (`throughput` metric = the
    /// utilisation of a node × this / 100). Default 500 [our default].
    #[serde(default = "default_node_mbps")]
    pub node_mbps: f64,
}

/// Most nodes of one ADC cluster [product docs: a Citrix ADC cluster has up to 32 nodes].
pub const MAX_CLUSTER_NODES: u32 = 32;
/// Longest watch time, in minutes (one day) [our default].
pub const MAX_WATCH_MIN: u32 = 1440;
/// Longest cooldown or drain timeout, in minutes (one week) [our default].
pub const MAX_TIMING_MIN: u32 = 10_080;
/// Longest DNS TTL, in seconds (one day) [our default].
pub const MAX_TTL_S: u32 = 86_400;
/// Default of [`GroupConfig::node_mbps`].
pub const DEFAULT_NODE_MBPS: f64 = 500.0;
/// Most values of a trace (366 days of minutes).
pub const MAX_TRACE_VALUES: usize = 527_040;
/// Highest demand a `load_inject` action may offer, in percent of the capacity of the group's
/// configured `min_nodes` nodes.
pub const MAX_INJECT_LEVEL: f64 = 1000.0;
/// Longest spike of a `load_inject` action, in minutes (one week).
pub const MAX_INJECT_MIN: u32 = 10_080;

fn default_node_mbps() -> f64 {
    DEFAULT_NODE_MBPS
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
    /// Fewest nodes per cluster, `1..=32`.
    pub min_nodes: u32,
    /// Most nodes per cluster, `min_nodes..=32` (a Citrix ADC cluster has at most 32 nodes).
    pub max_nodes: u32,
    /// Minutes of consecutive breach before scaling, `1..=1440`.
    pub watch_time_min: u32,
    /// Minutes after a scale-out during which evaluation is skipped, `0..=10080`.
    pub cooldown_min: u32,
    /// Minutes after a scale-in before nodes are deprovisioned, `0..=10080`.
    pub drain_timeout_min: u32,
    /// DNS TTL in seconds (DNS mode), `0..=86400`.
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

impl DistributionMode {
    /// The serialized name (`"dns"`, `"nlb"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            DistributionMode::Dns => "dns",
            DistributionMode::Nlb => "nlb",
        }
    }
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
    /// A trace read from a CSV file (format: [`parse_metrics_csv`]). The engine does no IO:
    /// whoever loads the scenario turns it into a [`Workload::Trace`] with
    /// [`AutoscaleConfig::resolve_csv`]; an unresolved one offers no demand.
    Csv {
        /// The file, as the loader understands it (e.g. relative to the scenario file).
        file: String,
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
            Workload::Csv { .. } => Vec::new(),
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
            Workload::Trace { values } if values.len() > MAX_TRACE_VALUES => fail(
                path.key("values"),
                format!(
                    "must have at most {MAX_TRACE_VALUES} values (366 days); got {}",
                    values.len()
                ),
            ),
            Workload::Csv { file } => non_empty(file, path.key("file")),
            _ => Ok(()),
        }
    }
}

impl AutoscaleConfig {
    /// The index of the group with this name (exact).
    pub fn group_index(&self, name: &str) -> Option<usize> {
        self.groups.iter().position(|g| g.name == name)
    }

    /// The error for a group name that is not configured.
    pub(crate) fn unknown_group(&self, name: &str) -> ActionError {
        ActionError::Unknown {
            field: "group",
            what: "autoscale group",
            name: name.to_owned(),
            known: some_of(self.groups.iter().map(|g| g.name.as_str())),
        }
    }

    /// Replaces every `csv` workload by the trace its file holds. `read` returns a file's
    /// text (the engine does no IO: the scenario loader passes a reader, e.g. one that
    /// resolves names relative to the scenario file). Errors name
    /// `autoscale.groups[i].workload.file` and, for a bad line, `file:line: message`.
    pub fn resolve_csv<E: core::fmt::Display>(
        &mut self,
        mut read: impl FnMut(&str) -> Result<String, E>,
    ) -> Result<(), ConfigError> {
        for (i, g) in self.groups.iter_mut().enumerate() {
            let Workload::Csv { file } = &g.workload else {
                continue;
            };
            let path = FieldPath::root("autoscale")
                .key("groups")
                .index(i)
                .key("workload")
                .key("file");
            let text = read(file)
                .map_err(|e| ConfigError::new(path.clone(), format!("cannot read {file}: {e}")))?;
            let values = parse_metrics_csv(&text).map_err(|(line, msg)| {
                ConfigError::new(path.clone(), format!("{file}:{line}: {msg}"))
            })?;
            g.workload = Workload::Trace { values };
        }
        Ok(())
    }

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
        finite(self.noise, path.key("noise"))?;
        in_range(self.noise, 0.0, 100.0, path.key("noise"))?;
        finite(self.node_mbps, path.key("node_mbps"))?;
        if !(self.node_mbps > 0.0 && self.node_mbps <= 1_000_000.0) {
            return fail(
                path.key("node_mbps"),
                format!(
                    "must be greater than 0 and at most 1000000 (Mbps); got {}",
                    self.node_mbps
                ),
            );
        }
        self.workload.validate(&path.key("workload"))
    }
}

impl GroupParams {
    /// The parameters of the seed's worked example (SPEC §4, group `asg_arn`): memory, min 40,
    /// max 85, watch time 3 min, cooldown 10 min, drain 10 min, TTL 60 s, 1 to 4 nodes.
    pub fn seed_example() -> GroupParams {
        GroupParams {
            min_nodes: 1,
            max_nodes: 4,
            watch_time_min: 3,
            cooldown_min: 10,
            drain_timeout_min: 10,
            ttl_s: 60,
            thresholds: vec![ThresholdConfig {
                parameter: Metric::Memory,
                min: 40.0,
                max: 85.0,
            }],
        }
    }
}

impl GroupParams {
    /// Checks node bounds, watch time and thresholds; `path` is the group's (fields are
    /// reported as `path.min_nodes`, `path.thresholds[i].max`, ...).
    pub fn validate(&self, path: &FieldPath) -> Result<(), ConfigError> {
        in_range(self.min_nodes, 1, MAX_CLUSTER_NODES, path.key("min_nodes"))?;
        if self.max_nodes > MAX_CLUSTER_NODES {
            return fail(
                path.key("max_nodes"),
                format!(
                    "must be at most {MAX_CLUSTER_NODES} (nodes of one ADC cluster); got {}",
                    self.max_nodes
                ),
            );
        }
        if self.max_nodes < self.min_nodes {
            return fail(
                path.key("max_nodes"),
                format!(
                    "must be at least min_nodes ({}); got {}",
                    self.min_nodes, self.max_nodes
                ),
            );
        }
        let minutes = |value: u32, lo: u32, hi: u32, key: &str| {
            if value < lo || value > hi {
                return fail(
                    path.key(key),
                    format!("must be between {lo} and {hi} (minutes); got {value}"),
                );
            }
            Ok(())
        };
        minutes(self.watch_time_min, 1, MAX_WATCH_MIN, "watch_time_min")?;
        minutes(self.cooldown_min, 0, MAX_TIMING_MIN, "cooldown_min")?;
        minutes(
            self.drain_timeout_min,
            0,
            MAX_TIMING_MIN,
            "drain_timeout_min",
        )?;
        if self.ttl_s > MAX_TTL_S {
            return fail(
                path.key("ttl_s"),
                format!(
                    "must be between 0 and {MAX_TTL_S} (seconds); got {}",
                    self.ttl_s
                ),
            );
        }
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
