//! `[lms.throttle]` (per-logon load of each throttling level) and `[lms.workload]` (the seeded
//! workload model: sessions, disconnections, client addresses, performance counters and
//! recurring logon storms). Every value here is assumed [our default]; `docs/LMS.md` explains
//! each one.

use serde::{Deserialize, Serialize};

use super::rules::{IpRange, ThrottleLevel};
use crate::clock::SimDuration;
use crate::scenario::check::{fail, finite, in_range, non_empty};
use crate::scenario::error::{ConfigError, FieldPath};

/// `[lms.throttle]`: the load one logon in progress adds at each level (the vendor does not
/// publish these numbers). Each `1..=10000`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ThrottleTable {
    /// Extreme. Default 10000.
    pub extreme: u32,
    /// High (the product's default level). Default 5000 (seed 002: `LTLoad: 1388`).
    pub high: u32,
    /// Medium High. Default 2500.
    pub medium_high: u32,
    /// Medium. Default 1250.
    pub medium: u32,
    /// Medium Low. Default 625.
    pub medium_low: u32,
}

impl Default for ThrottleTable {
    fn default() -> Self {
        ThrottleTable {
            extreme: 10_000,
            high: 5_000,
            medium_high: 2_500,
            medium: 1_250,
            medium_low: 625,
        }
    }
}

impl ThrottleTable {
    /// Every level, strongest first.
    pub const LEVELS: [ThrottleLevel; 5] = [
        ThrottleLevel::Extreme,
        ThrottleLevel::High,
        ThrottleLevel::MediumHigh,
        ThrottleLevel::Medium,
        ThrottleLevel::MediumLow,
    ];

    /// The per-logon load of `level`.
    pub fn load(&self, level: ThrottleLevel) -> u32 {
        match level {
            ThrottleLevel::Extreme => self.extreme,
            ThrottleLevel::High => self.high,
            ThrottleLevel::MediumHigh => self.medium_high,
            ThrottleLevel::Medium => self.medium,
            ThrottleLevel::MediumLow => self.medium_low,
        }
    }

    pub(crate) fn validate(&self, path: &FieldPath) -> Result<(), ConfigError> {
        let levels = [
            ("extreme", self.extreme),
            ("high", self.high),
            ("medium_high", self.medium_high),
            ("medium", self.medium),
            ("medium_low", self.medium_low),
        ];
        for (key, value) in levels {
            in_range(value, 1, 10_000, path.key(key))?;
        }
        Ok(())
    }
}

/// `[lms.workload]`: how simulated users behave.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WorkloadConfig {
    /// Mean length of a session, from logon to logoff (exponential). Default `90m`.
    pub session_duration: SimDuration,
    /// Share of sessions, in percent, that disconnect once before logging off. Default 20.
    pub disconnect_share: u8,
    /// Mean time a disconnected user stays away before launching again (and reconnecting).
    /// Default `20m`.
    pub disconnected_for: SimDuration,
    /// Address ranges the clients come from (drawn uniformly: a range, then an address).
    /// Default `["10.1.0.1-10.1.255.254"]`.
    pub clients: Vec<IpRange>,
    /// `[lms.workload.counters]`.
    pub counters: CounterModel,
    /// `[lms.workload.recurring_storm]`: logon storms generated automatically, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recurring_storm: Option<RecurringStorm>,
}

impl Default for WorkloadConfig {
    fn default() -> Self {
        WorkloadConfig {
            session_duration: SimDuration::from_mins(90),
            disconnect_share: 20,
            disconnected_for: SimDuration::from_mins(20),
            clients: vec![IpRange {
                start: core::net::Ipv4Addr::new(10, 1, 0, 1),
                end: core::net::Ipv4Addr::new(10, 1, 255, 254),
            }],
            counters: CounterModel::default(),
            recurring_storm: None,
        }
    }
}

/// `[lms.workload.recurring_storm]`: a logon storm every `every`, the first at `every`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecurringStorm {
    /// Period (at least 1m).
    pub every: SimDuration,
    /// Users per storm, `1..=100000`.
    pub users: u32,
    /// Spread of each storm (shorter than `every`).
    pub over: SimDuration,
    /// The application; drawn per user among all applications when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app: Option<String>,
}

/// `[lms.workload.counters]`: performance counters as a function of sessions, plus seeded
/// noise (a factor drawn in `1 ± noise` per server and counter tick).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CounterModel {
    /// Idle CPU percent, lower bound (each server draws its own base once). Default 3.
    pub cpu_base_min: f64,
    /// Idle CPU percent, upper bound. Default 8.
    pub cpu_base_max: f64,
    /// CPU percent per connected session. Default 0.6.
    pub cpu_per_session: f64,
    /// CPU percent per disconnected session. Default 0.05.
    pub cpu_per_disconnected: f64,
    /// Extra CPU percent per logon in progress. Default 4.
    pub cpu_per_logon: f64,
    /// Memory percent with no session. Default 25.
    pub memory_base: f64,
    /// Memory percent per session (connected or disconnected). Default 0.5.
    pub memory_per_session: f64,
    /// Page faults per second, idle. Default 200.
    pub page_faults_base: f64,
    /// Page faults per second per connected session. Default 40.
    pub page_faults_per_session: f64,
    /// Context switches per second, idle. Default 2000.
    pub context_switches_base: f64,
    /// Context switches per second per connected session. Default 300.
    pub context_switches_per_session: f64,
    /// Disk data I/O in KB/s, idle. Default 100.
    pub disk_io_base: f64,
    /// Disk data I/O in KB/s per connected session. Default 20.
    pub disk_io_per_session: f64,
    /// Disk operations per second, idle. Default 20.
    pub disk_ops_base: f64,
    /// Disk operations per second per connected session. Default 4.
    pub disk_ops_per_session: f64,
    /// Page swaps per second per memory percent above 80. Default 5.
    pub page_swaps_per_pct: f64,
    /// Noise amplitude, a fraction `0..=1`. Default 0.1.
    pub noise: f64,
}

impl Default for CounterModel {
    fn default() -> Self {
        CounterModel {
            cpu_base_min: 3.0,
            cpu_base_max: 8.0,
            cpu_per_session: 0.6,
            cpu_per_disconnected: 0.05,
            cpu_per_logon: 4.0,
            memory_base: 25.0,
            memory_per_session: 0.5,
            page_faults_base: 200.0,
            page_faults_per_session: 40.0,
            context_switches_base: 2000.0,
            context_switches_per_session: 300.0,
            disk_io_base: 100.0,
            disk_io_per_session: 20.0,
            disk_ops_base: 20.0,
            disk_ops_per_session: 4.0,
            page_swaps_per_pct: 5.0,
            noise: 0.1,
        }
    }
}

impl CounterModel {
    fn validate(&self, path: &FieldPath) -> Result<(), ConfigError> {
        let values = [
            ("cpu_base_min", self.cpu_base_min),
            ("cpu_base_max", self.cpu_base_max),
            ("cpu_per_session", self.cpu_per_session),
            ("cpu_per_disconnected", self.cpu_per_disconnected),
            ("cpu_per_logon", self.cpu_per_logon),
            ("memory_base", self.memory_base),
            ("memory_per_session", self.memory_per_session),
            ("page_faults_base", self.page_faults_base),
            ("page_faults_per_session", self.page_faults_per_session),
            ("context_switches_base", self.context_switches_base),
            (
                "context_switches_per_session",
                self.context_switches_per_session,
            ),
            ("disk_io_base", self.disk_io_base),
            ("disk_io_per_session", self.disk_io_per_session),
            ("disk_ops_base", self.disk_ops_base),
            ("disk_ops_per_session", self.disk_ops_per_session),
            ("page_swaps_per_pct", self.page_swaps_per_pct),
            ("noise", self.noise),
        ];
        for (key, value) in values {
            finite(value, path.key(key))?;
            if value < 0.0 {
                return fail(path.key(key), format!("must not be negative; got {value}"));
            }
        }
        if self.cpu_base_max < self.cpu_base_min {
            return fail(
                path.key("cpu_base_max"),
                format!(
                    "must be at least cpu_base_min ({}); got {}",
                    self.cpu_base_min, self.cpu_base_max
                ),
            );
        }
        in_range(self.cpu_base_max, 0.0, 100.0, path.key("cpu_base_max"))?;
        in_range(self.memory_base, 0.0, 100.0, path.key("memory_base"))?;
        in_range(self.noise, 0.0, 1.0, path.key("noise"))
    }
}

impl WorkloadConfig {
    pub(crate) fn validate(&self, path: &FieldPath, apps: &[&str]) -> Result<(), ConfigError> {
        if self.session_duration < SimDuration::from_secs(1) {
            return fail(path.key("session_duration"), "must be at least 1s");
        }
        if self.disconnected_for < SimDuration::from_secs(1) {
            return fail(path.key("disconnected_for"), "must be at least 1s");
        }
        in_range(self.disconnect_share, 0, 100, path.key("disconnect_share"))?;
        if self.clients.is_empty() {
            return fail(
                path.key("clients"),
                "needs at least one range like \"10.1.0.1-10.1.255.254\"",
            );
        }
        self.counters.validate(&path.key("counters"))?;
        if let Some(storm) = &self.recurring_storm {
            let p = path.key("recurring_storm");
            if storm.every < SimDuration::from_mins(1) {
                return fail(
                    p.key("every"),
                    format!("must be at least 1m; got {}", storm.every),
                );
            }
            in_range(storm.users, 1, 100_000, p.key("users"))?;
            if storm.over >= storm.every {
                return fail(
                    p.key("over"),
                    format!(
                        "must be shorter than every ({}); got {}",
                        storm.every, storm.over
                    ),
                );
            }
            if let Some(app) = &storm.app {
                non_empty(app, p.key("app"))?;
                crate::scenario::check::known(
                    app,
                    "application",
                    apps.iter().copied(),
                    p.key("app"),
                )?;
            }
        }
        Ok(())
    }
}
