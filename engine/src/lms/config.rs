//! `[lms]`: load management of a farm (SPEC §2): zones, load evaluators, servers and
//! published applications.

use serde::{Deserialize, Serialize};

pub mod formats;
pub mod rules;
pub mod workload;

use self::rules::{builtin_rules, Rule, ADVANCED_EVALUATOR, DEFAULT_EVALUATOR};
pub use self::workload::{CounterModel, RecurringStorm, ThrottleTable, WorkloadConfig};
use crate::action::error::ActionError;
use crate::clock::SimDuration;
use crate::scenario::check::{fail, in_range, known, non_empty, some_of, unique};
use crate::scenario::error::{ConfigError, FieldPath};

/// `[lms]`. Timing defaults: `push_threshold`, `dc_refresh`, `ping_after`, `request_after`
/// [seed 004]; the others are assumed [our default] (see `docs/LMS.md`). Simulated time 0 is
/// a Monday, 00:00 (for scheduling rules).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LmsConfig {
    /// How rule loads combine into the load index. Default `sum` [seed 004].
    pub formula: LoadFormula,
    /// A freshly started server reports full load until its services are up (the fix of the
    /// black hole effect). Default `true`.
    pub black_hole_fix: bool,
    /// A member pushes its load when it moved this much since its last push, `1..=10000`.
    /// Default 500 [seed 004].
    pub push_threshold: u32,
    /// The data collector refreshes its own values (and checks on its members) this often.
    /// Default `30s` [seed 004].
    pub dc_refresh: SimDuration,
    /// The data collector pings a member silent this long. Default `60s` [seed 004].
    pub ping_after: SimDuration,
    /// The data collector requests the values of a member with no update this long. Default
    /// `300s` [seed 004].
    pub request_after: SimDuration,
    /// Performance counters are sampled (and members check the push threshold) this often.
    /// Default `30s` (assumed).
    pub counter_interval: SimDuration,
    /// A `load.sample` per zone (its changed servers, for the charts) at most this often.
    /// Default `5m` (assumed).
    pub sample_interval: SimDuration,
    /// How long a logon takes on a server that is up. Default `30s` (assumed).
    pub logon_duration: SimDuration,
    /// How long a rebooting server is down. Default `60s` (assumed).
    pub reboot_duration: SimDuration,
    /// How long a booted server takes to start its services. Default `3m` (assumed).
    pub services_start: SimDuration,
    /// Logons on a starting server take this many times longer, `1..=100`. Default 4
    /// (assumed).
    pub starting_logon_factor: u32,
    /// `[lms.throttle]`: per-logon load of each throttling level (assumed).
    pub throttle: ThrottleTable,
    /// `[lms.workload]`: the seeded workload model (assumed).
    pub workload: WorkloadConfig,
    /// `[[lms.zones]]`.
    pub zones: Vec<ZoneConfig>,
    /// `[[lms.evaluators]]`: custom evaluators (`Default` and `Advanced` always exist).
    pub evaluators: Vec<EvaluatorConfig>,
    /// `[[lms.servers]]`.
    pub servers: Vec<ServerConfig>,
    /// `[[lms.applications]]`: published applications.
    pub applications: Vec<ApplicationConfig>,
}

impl Default for LmsConfig {
    fn default() -> Self {
        LmsConfig {
            formula: LoadFormula::Sum,
            black_hole_fix: true,
            push_threshold: 500,
            dc_refresh: SimDuration::from_secs(30),
            ping_after: SimDuration::from_secs(60),
            request_after: SimDuration::from_secs(300),
            counter_interval: SimDuration::from_secs(30),
            sample_interval: SimDuration::from_mins(5),
            logon_duration: SimDuration::from_secs(30),
            reboot_duration: SimDuration::from_secs(60),
            services_start: SimDuration::from_mins(3),
            starting_logon_factor: 4,
            throttle: ThrottleTable::default(),
            workload: WorkloadConfig::default(),
            zones: Vec::new(),
            evaluators: Vec::new(),
            servers: Vec::new(),
            applications: Vec::new(),
        }
    }
}

/// Load-index formula.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoadFormula {
    /// `max + 5% x sum(others)` [seed 004].
    #[default]
    Sum,
    /// `max + 5% x average(others)` (later 7.x product).
    Average,
}

/// `[[lms.zones]]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZoneConfig {
    /// Unique id.
    pub id: String,
    /// Display name.
    pub name: String,
}

/// `[[lms.evaluators]]`: a named set of rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvaluatorConfig {
    /// Unique name, other than `Default` and `Advanced`.
    pub name: String,
    /// `[[lms.evaluators.rules]]` (at least one; each kind once, except
    /// `application_user_load` once per application).
    pub rules: Vec<Rule>,
}

/// `[[lms.servers]]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerConfig {
    /// Host name, unique (case-insensitively).
    pub host: String,
    /// Zone id (must exist).
    pub zone: String,
    /// Evaluator name (must exist; built-ins included). Default `Default`.
    #[serde(default = "default_evaluator")]
    pub evaluator: String,
    /// Published applications the server hosts (each must exist).
    #[serde(default)]
    pub apps: Vec<String>,
    /// Preference in the data-collector election. Default `default`.
    #[serde(default)]
    pub election_preference: ElectionPreference,
}

fn default_evaluator() -> String {
    DEFAULT_EVALUATOR.to_owned()
}

/// Data-collector election preference, most preferred first.
#[derive(
    Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum ElectionPreference {
    /// Most Preferred.
    MostPreferred,
    /// Preferred.
    Preferred,
    /// Default Preference.
    #[default]
    Default,
    /// Not Preferred.
    NotPreferred,
}

/// `[[lms.applications]]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApplicationConfig {
    /// Unique name.
    pub name: String,
    /// Evaluator applied to the application's servers as well (the higher load wins).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evaluator: Option<String>,
}

impl LmsConfig {
    /// The rules of evaluator `name`, custom or built-in.
    pub fn evaluator_rules(&self, name: &str) -> Option<Vec<Rule>> {
        self.evaluators
            .iter()
            .find(|e| e.name == name)
            .map(|e| e.rules.clone())
            .or_else(|| builtin_rules(name))
    }

    pub(crate) fn evaluator_names(&self) -> Vec<&str> {
        let mut names = vec![DEFAULT_EVALUATOR, ADVANCED_EVALUATOR];
        names.extend(self.evaluators.iter().map(|e| e.name.as_str()));
        names
    }

    /// Checks ids and names, rules, and references to zones, evaluators and applications.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let root = FieldPath::root("lms");
        self.validate_timing(&root)?;
        let zone_path = |i: usize| root.key("zones").index(i);
        for (i, z) in self.zones.iter().enumerate() {
            non_empty(&z.id, zone_path(i).key("id"))?;
            non_empty(&z.name, zone_path(i).key("name"))?;
        }
        unique(
            self.zones.len(),
            "zone id",
            |i| self.zones[i].id.clone(),
            |i| zone_path(i).key("id"),
        )?;
        let app_path = |i: usize| root.key("applications").index(i);
        for (i, a) in self.applications.iter().enumerate() {
            non_empty(&a.name, app_path(i).key("name"))?;
        }
        unique(
            self.applications.len(),
            "application",
            |i| self.applications[i].name.clone(),
            |i| app_path(i).key("name"),
        )?;
        self.validate_evaluators(&root)?;
        let evaluators = self.evaluator_names();
        for (i, a) in self.applications.iter().enumerate() {
            if let Some(e) = &a.evaluator {
                known(
                    e,
                    "evaluator",
                    evaluators.iter().copied(),
                    app_path(i).key("evaluator"),
                )?;
            }
        }
        self.validate_servers(&root, &evaluators)
    }

    fn validate_timing(&self, root: &FieldPath) -> Result<(), ConfigError> {
        in_range(self.push_threshold, 1, 10_000, root.key("push_threshold"))?;
        let timers = [
            ("dc_refresh", self.dc_refresh),
            ("ping_after", self.ping_after),
            ("request_after", self.request_after),
            ("counter_interval", self.counter_interval),
            ("sample_interval", self.sample_interval),
            ("logon_duration", self.logon_duration),
            ("reboot_duration", self.reboot_duration),
            ("services_start", self.services_start),
        ];
        for (name, value) in timers {
            if value < SimDuration::from_secs(1) {
                return fail(root.key(name), format!("must be at least 1s; got {value}"));
            }
        }
        in_range(
            self.starting_logon_factor,
            1,
            100,
            root.key("starting_logon_factor"),
        )?;
        self.throttle.validate(&root.key("throttle"))?;
        let apps: Vec<&str> = self.applications.iter().map(|a| a.name.as_str()).collect();
        self.workload.validate(&root.key("workload"), &apps)
    }

    fn validate_evaluators(&self, root: &FieldPath) -> Result<(), ConfigError> {
        let path = |i: usize| root.key("evaluators").index(i);
        let apps: Vec<&str> = self.applications.iter().map(|a| a.name.as_str()).collect();
        for (i, e) in self.evaluators.iter().enumerate() {
            non_empty(&e.name, path(i).key("name"))?;
            if builtin_rules(&e.name).is_some() {
                return fail(
                    path(i).key("name"),
                    format!(
                        "\"{}\" is a built-in evaluator; choose another name",
                        e.name
                    ),
                );
            }
            if e.rules.is_empty() {
                return fail(path(i).key("rules"), "an evaluator needs at least one rule");
            }
            for (j, rule) in e.rules.iter().enumerate() {
                let rp = path(i).key("rules").index(j);
                rule.validate(&rp)?;
                if let Rule::ApplicationUserLoad { app, .. } = rule {
                    known(app, "application", apps.iter().copied(), rp.key("app"))?;
                }
            }
            unique(
                e.rules.len(),
                "rule",
                |j| match &e.rules[j] {
                    Rule::ApplicationUserLoad { app, .. } => {
                        format!("application_user_load({app})")
                    }
                    other => other.name().to_owned(),
                },
                |j| path(i).key("rules").index(j).key("rule"),
            )?;
        }
        unique(
            self.evaluators.len(),
            "evaluator",
            |i| self.evaluators[i].name.clone(),
            |i| path(i).key("name"),
        )
    }

    fn validate_servers(&self, root: &FieldPath, evaluators: &[&str]) -> Result<(), ConfigError> {
        let path = |i: usize| root.key("servers").index(i);
        let zones = || self.zones.iter().map(|z| z.id.as_str());
        let apps = || self.applications.iter().map(|a| a.name.as_str());
        for (i, s) in self.servers.iter().enumerate() {
            non_empty(&s.host, path(i).key("host"))?;
            known(&s.zone, "zone", zones(), path(i).key("zone"))?;
            known(
                &s.evaluator,
                "evaluator",
                evaluators.iter().copied(),
                path(i).key("evaluator"),
            )?;
            for (j, app) in s.apps.iter().enumerate() {
                known(app, "application", apps(), path(i).key("apps").index(j))?;
            }
        }
        unique(
            self.servers.len(),
            "server host",
            |i| self.servers[i].host.to_lowercase(),
            |i| path(i).key("host"),
        )
    }
}

impl LmsConfig {
    /// The index of the server with this host (case-insensitive).
    pub fn server_index(&self, host: &str) -> Option<usize> {
        self.servers
            .iter()
            .position(|s| s.host.eq_ignore_ascii_case(host))
    }

    /// The index of the application with this name (exact).
    pub fn app_index(&self, name: &str) -> Option<usize> {
        self.applications.iter().position(|a| a.name == name)
    }

    pub(crate) fn unknown_server(&self, field: &'static str, host: &str) -> ActionError {
        ActionError::Unknown {
            field,
            what: "server",
            name: host.to_owned(),
            known: some_of(self.servers.iter().map(|s| s.host.as_str())),
        }
    }

    pub(crate) fn unknown_app(&self, field: &'static str, app: &str) -> ActionError {
        ActionError::Unknown {
            field,
            what: "application",
            name: app.to_owned(),
            known: some_of(self.applications.iter().map(|a| a.name.as_str())),
        }
    }

    pub(crate) fn require_server(
        &self,
        field: &'static str,
        host: &str,
    ) -> Result<(), ActionError> {
        self.server_index(host)
            .map(|_| ())
            .ok_or_else(|| self.unknown_server(field, host))
    }

    pub(crate) fn require_app(&self, field: &'static str, app: &str) -> Result<(), ActionError> {
        self.app_index(app)
            .map(|_| ())
            .ok_or_else(|| self.unknown_app(field, app))
    }
}
