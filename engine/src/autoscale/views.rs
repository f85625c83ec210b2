//! The read-only view types of the autoscale engine, as the console receives them. Every
//! view is `Serialize + Deserialize + Clone`; [`AutoscaleEngine`](super::AutoscaleEngine)
//! builds them.

use serde::{Deserialize, Serialize};

use super::config::{DistributionMode, GroupParams, Metric};

/// One autoscale group now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GroupView {
    /// Name.
    pub name: String,
    /// Traffic distribution.
    pub mode: DistributionMode,
    /// The application's domain.
    pub domain: String,
    /// The application is deployed (IPSets and records exist).
    pub deployed: bool,
    /// The parameters in force.
    pub params: GroupParams,
    /// One cluster per availability zone, configuration order.
    pub zones: Vec<ClusterView>,
    /// The latest decision over all zones.
    pub last_decision: Option<DecisionView>,
    /// Timings, each marked documented or assumed.
    pub settings: Vec<AutoscaleSettingView>,
}

/// One setting, as the console lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AutoscaleSettingView {
    /// Key (`stats_interval`).
    pub key: String,
    /// What it is.
    pub label: String,
    /// Value as text (`1m`).
    pub value: String,
    /// `documented` (seed or product documentation) or `assumed` (our default).
    pub source: String,
}

/// What a cluster is doing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClusterState {
    /// Statistics are compared with the limits every minute.
    Evaluating,
    /// A scale-out or scale-in is in progress; evaluation waits.
    Scaling,
    /// After a scale-out: evaluation skipped.
    Cooldown,
    /// After a scale-in: connections drain; evaluation skipped.
    Draining,
    /// DNS mode, after the drain: resolvers may still hold the removed IPs for the TTL.
    TtlWait,
    /// The application is not deployed: nothing to evaluate.
    Idle,
}

impl ClusterState {
    /// Label for the console.
    pub const fn label(self) -> &'static str {
        match self {
            ClusterState::Evaluating => "evaluating",
            ClusterState::Scaling => "scaling",
            ClusterState::Cooldown => "cooldown",
            ClusterState::Draining => "draining",
            ClusterState::TtlWait => "TTL wait",
            ClusterState::Idle => "idle",
        }
    }
}

/// One availability zone's cluster now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClusterView {
    /// Availability zone.
    pub zone: String,
    /// State.
    pub state: ClusterState,
    /// Last simulated minute of the current cooldown, drain or TTL wait.
    pub state_until_minute: Option<u64>,
    /// Nodes whose IPs are in DNS / behind the NLB.
    pub nodes_in_service: u32,
    /// Every node that exists (in service, draining, waiting for the TTL, provisioning).
    pub nodes: Vec<NodeView>,
    /// Latest statistics, in the group's threshold order.
    pub metrics: Vec<(Metric, f64)>,
    /// The breach streak in progress, if any.
    pub streak: Option<StreakView>,
    /// This zone's latest decision.
    pub last_decision: Option<DecisionView>,
    /// What the distributor holds now.
    pub records: RecordsView,
    /// Load injected by an operator that is in force or still to come, replacing the
    /// workload model's demand.
    pub injected: Option<InjectionView>,
}

/// Load injected on a cluster by a `load_inject` action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InjectionView {
    /// `spike` (for a number of minutes) or `step` (lasting until released).
    pub kind: String,
    /// Demand in percent of the capacity of `min_nodes` nodes.
    pub level: f64,
    /// First minute it applies to.
    pub from_minute: u64,
    /// Last minute of a spike; `None` for a lasting step.
    pub until_minute: Option<u64>,
}

/// A breach streak in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreakView {
    /// `above_max` or `below_min`.
    pub direction: String,
    /// Consecutive minutes so far.
    pub minutes: u32,
    /// Minutes needed (the watch time).
    pub needed: u32,
    /// The parameter(s) in breach (`memory`, or `all` below their minimum).
    pub parameter: String,
}

/// A node's lifecycle state (SPEC §4).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeState {
    /// Being provisioned, attached, synced and registered.
    Provisioning,
    /// Its IPs are in DNS / behind the NLB.
    InService,
    /// Removed from DNS / NLB; connections drain.
    Draining,
    /// DNS mode: drained; resolvers may still hold its IP for the TTL.
    TtlWait,
}

/// One node of a cluster.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeView {
    /// Node id (`asg_arn-eu-west-1a-3`).
    pub id: String,
    /// Private IP.
    pub ip: String,
    /// Public IP (DNS mode only).
    pub public_ip: Option<String>,
    /// Lifecycle state.
    pub state: NodeState,
    /// When it entered that state (ms).
    pub since_ms: u64,
}

/// The distributor's records for a cluster.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordsView {
    /// Mode.
    pub mode: DistributionMode,
    /// The IPSet on the cluster, while the application is deployed.
    pub ipset: Option<String>,
    /// DNS mode: the domain's A records (node public IPs) and their TTL.
    pub dns: Option<(String, Vec<String>, u32)>,
    /// NLB mode: the zone's static public IP and its targets (node private IPs).
    pub nlb: Option<(String, Vec<String>)>,
}

/// A decision (scale-out, scale-in) or a skipped evaluation, with its reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecisionView {
    /// When (ms).
    pub at_ms: u64,
    /// Zone.
    pub zone: String,
    /// `scale_out`, `scale_in`, `skipped`, `at_limit`.
    pub kind: String,
    /// Why, in words: the parameter, the streak, the limits.
    pub reason: String,
}

/// What one minute's evaluation found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MinuteOutcome {
    /// Every parameter inside its limits (streaks reset).
    Inside,
    /// A parameter above its maximum; `streak` consecutive minutes so far.
    AboveMax {
        /// Consecutive minutes.
        streak: u32,
    },
    /// Every parameter below its minimum; `streak` consecutive minutes so far.
    BelowMin {
        /// Consecutive minutes.
        streak: u32,
    },
    /// Scale-out decided this minute.
    ScaleOut {
        /// Nodes added.
        nodes: u32,
    },
    /// Scale-in decided this minute.
    ScaleIn {
        /// Nodes removed.
        nodes: u32,
    },
    /// A decision was due but the cluster is at max (out) or min (in) nodes.
    AtLimit,
    /// Evaluation skipped: `cooldown`, `drain`, `ttl` or `in_progress`.
    Skipped {
        /// Why.
        reason: String,
    },
    /// Application not deployed.
    Idle,
}

/// One minute of a cluster's timeline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MinuteView {
    /// Minute since the start (T1 is the first statistics collection, at 1 min).
    pub minute: u64,
    /// Statistics, in the group's threshold order.
    pub metrics: Vec<f64>,
    /// Demand offered (percent of the capacity of `min_nodes` nodes).
    pub demand: f64,
    /// Nodes in service after this minute.
    pub nodes: u32,
    /// The evaluation.
    pub outcome: MinuteOutcome,
    /// Cluster state after this minute.
    pub state: ClusterState,
}

/// One zone of a what-if replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WhatIfZone {
    /// Zone.
    pub zone: String,
    /// What happened (recorded).
    pub real: Vec<MinuteView>,
    /// What the edited parameters would have done with the same recorded demand.
    pub edited: Vec<MinuteView>,
    /// Totals of `real`.
    #[serde(default)]
    pub real_summary: WhatIfSummary,
    /// Totals of `edited`.
    #[serde(default)]
    pub edited_summary: WhatIfSummary,
}

/// Totals of one side of a what-if zone, to compare the two at a glance.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WhatIfSummary {
    /// Scale-out decisions.
    pub scale_outs: u32,
    /// Scale-in decisions.
    pub scale_ins: u32,
    /// Minutes a decision was due at the node limit.
    pub at_limit: u32,
    /// Minutes with every node saturated (utilisation 100 %: demand not served).
    pub saturated_minutes: u32,
    /// Nodes in service summed over the minutes (the cost, in node-minutes).
    pub node_minutes: u64,
    /// Most nodes in service.
    pub peak_nodes: u32,
}

/// A what-if replay of recorded demand against edited parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WhatIfView {
    /// Group.
    pub group: String,
    /// First minute replayed.
    pub from_minute: u64,
    /// Last minute replayed.
    pub to_minute: u64,
    /// The thresholds of the real run (for the chart's limit lines).
    pub real_params: GroupParams,
    /// The edited parameters.
    pub edited_params: GroupParams,
    /// Per zone.
    pub zones: Vec<WhatIfZone>,
}
