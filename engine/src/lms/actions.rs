//! [`LmsAction`]: what an operator does to the farm (storms, launches, reboots, sessions,
//! evaluators, settings), with its check against `[lms]` ([`LmsConfig::check_action`]: names
//! that must exist, ranges) and against the state (`LmsEngine::check_state`) side by side,
//! then its application at `now`. A rejected action changes nothing.

use core::net::Ipv4Addr;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::config::rules::{builtin_rules, Rule};
use super::config::{LmsConfig, LoadFormula};
use super::engine::{ev, LmsEngine};
use super::model::draw_ip;
use super::sessions::Launch;
use super::views::ServerPower;
use crate::action::error::ActionError;
use crate::clock::SimDuration;
use crate::clock::SimTime;
use crate::event::{attribute, Event};
use crate::scenario::check::{invalid, list, some_of, within};
use crate::scenario::error::FieldPath;
use crate::step::Apply;

/// Most users of one logon storm.
pub const MAX_STORM_USERS: u32 = 100_000;
/// Longest spread of one logon storm.
pub const MAX_STORM_SPREAD: SimDuration = SimDuration::from_hours(24);
/// Most sessions one disconnect or logoff action touches.
pub const MAX_SESSION_COUNT: u32 = 100_000;
/// Longest evaluator name.
pub const MAX_EVALUATOR_NAME: usize = 64;

/// An action of the load-management engine. Serialized flat with a `kind` tag in snake_case,
/// like every engine's actions (see [`Action`](crate::Action)).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum LmsAction {
    /// Load management: `users` new users log on, evenly spread over `over` (zero: all at
    /// once), each launching `app` (or an application drawn from the seeded workload).
    LogonStorm {
        /// Users, `1..=100000`.
        users: u32,
        /// Spread of the logons.
        over: SimDuration,
        /// The application; drawn per user when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        app: Option<String>,
    },
    /// Load management: one user launches an application (reconnecting to a disconnected
    /// session of theirs first).
    AppLaunch {
        /// User name.
        user: String,
        /// Published application.
        app: String,
        /// Client address (for IP-range rules); drawn from the workload's clients when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        client_ip: Option<Ipv4Addr>,
    },
    /// Load management: a server reboots (its sessions end; it is down, then starting, then
    /// up).
    ServerReboot {
        /// Host name (case-insensitive).
        server: String,
    },
    /// Load management: the data collector of a zone crashes (its server goes down and
    /// reboots); the zone elects another.
    KillCollector {
        /// Zone id.
        zone: String,
    },
    /// Load management: a performance counter of a server is held at `percent` for
    /// `duration`.
    CounterSpike {
        /// Host name.
        server: String,
        /// Which counter.
        counter: SpikeCounter,
        /// Value held, `0..=100`.
        percent: u8,
        /// How long, at least 1s.
        duration: SimDuration,
    },
    /// Load management: disconnects connected sessions (they keep counting towards load).
    DisconnectSessions {
        /// Every session of this user, or
        #[serde(default, skip_serializing_if = "Option::is_none")]
        user: Option<String>,
        /// `count` connected sessions of this server (oldest first).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        server: Option<String>,
        /// With `server`: how many, `1..=100000`. Default 1.
        #[serde(default = "one")]
        count: u32,
    },
    /// Load management: logs sessions off (connected or disconnected).
    LogoffSessions {
        /// Every session of this user, or
        #[serde(default, skip_serializing_if = "Option::is_none")]
        user: Option<String>,
        /// `count` sessions of this server (disconnected first, then oldest).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        server: Option<String>,
        /// With `server`: how many, `1..=100000`. Default 1.
        #[serde(default = "one")]
        count: u32,
    },
    /// Load management: creates an evaluator, or replaces one (`replaces` names it; a
    /// built-in keeps its name).
    EvaluatorSave {
        /// Name (unique).
        name: String,
        /// Rules (at least one; each kind once, application user load once per application).
        rules: Vec<Rule>,
        /// The evaluator being edited (renamed when `name` differs); a new one when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        replaces: Option<String>,
    },
    /// Load management: deletes a custom evaluator that nothing uses.
    EvaluatorDelete {
        /// Name.
        name: String,
    },
    /// Load management: assigns an evaluator to servers and applications.
    EvaluatorAssign {
        /// Evaluator name.
        evaluator: String,
        /// Hosts that get it.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        servers: Vec<String>,
        /// Applications that get it.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        applications: Vec<String>,
    },
    /// Load management: removes an application's own evaluator.
    EvaluatorUnassign {
        /// Application.
        application: String,
    },
    /// Load management: farm settings.
    FarmSettings {
        /// Turns the black-hole fix on or off.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        black_hole_fix: Option<bool>,
        /// Changes the load-index formula.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        formula: Option<LoadFormula>,
    },
}

fn one() -> u32 {
    1
}

/// A performance counter a spike can hold (SPEC §2 rules 1 and 3).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpikeCounter {
    /// CPU utilization.
    Cpu,
    /// Memory usage.
    Memory,
}

impl LmsAction {
    /// Every `kind` of this engine's actions, in declaration order.
    pub const KINDS: [&'static str; 12] = [
        "logon_storm",
        "app_launch",
        "server_reboot",
        "kill_collector",
        "counter_spike",
        "disconnect_sessions",
        "logoff_sessions",
        "evaluator_save",
        "evaluator_delete",
        "evaluator_assign",
        "evaluator_unassign",
        "farm_settings",
    ];

    /// The `kind` tag, as written in files (`"logon_storm"`).
    pub fn kind(&self) -> &'static str {
        match self {
            LmsAction::LogonStorm { .. } => "logon_storm",
            LmsAction::AppLaunch { .. } => "app_launch",
            LmsAction::ServerReboot { .. } => "server_reboot",
            LmsAction::KillCollector { .. } => "kill_collector",
            LmsAction::CounterSpike { .. } => "counter_spike",
            LmsAction::DisconnectSessions { .. } => "disconnect_sessions",
            LmsAction::LogoffSessions { .. } => "logoff_sessions",
            LmsAction::EvaluatorSave { .. } => "evaluator_save",
            LmsAction::EvaluatorDelete { .. } => "evaluator_delete",
            LmsAction::EvaluatorAssign { .. } => "evaluator_assign",
            LmsAction::EvaluatorUnassign { .. } => "evaluator_unassign",
            LmsAction::FarmSettings { .. } => "farm_settings",
        }
    }
}

/// Checks an evaluator's name and rules as an action gives them: name not blank and at most
/// 64 characters, at least one rule, each rule in range (`rules[2].high: ...`), each kind once
/// (application user load once per application), applications known.
pub fn check_evaluator(name: &str, rules: &[Rule], apps: &[&str]) -> Result<(), ActionError> {
    if name.trim().is_empty() {
        return Err(ActionError::Blank("name"));
    }
    if name.chars().count() > MAX_EVALUATOR_NAME {
        return invalid(
            "name",
            format!(
                "must be at most {MAX_EVALUATOR_NAME} characters; got {}",
                name.chars().count()
            ),
        );
    }
    if rules.is_empty() {
        return invalid("rules", "an evaluator needs at least one rule");
    }
    let mut seen: Vec<String> = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        let path = FieldPath(Vec::new()).key("rules").index(i);
        rule.validate(&path).map_err(|e| ActionError::Invalid {
            field: "rules",
            message: e.to_string(),
        })?;
        let key = match rule {
            Rule::ApplicationUserLoad { app, .. } => {
                if !apps.contains(&app.as_str()) {
                    return invalid(
                        "rules",
                        format!(
                            "rules[{i}].app: unknown application \"{app}\" (known: {})",
                            list(apps)
                        ),
                    );
                }
                format!("application_user_load({app})")
            }
            other => other.name().to_owned(),
        };
        if let Some(first) = seen.iter().position(|k| *k == key) {
            return invalid(
                "rules",
                format!(
                    "rules[{i}].rule: duplicate rule \"{key}\" (first defined at rules[{first}])"
                ),
            );
        }
        seen.push(key);
    }
    Ok(())
}

impl LmsConfig {
    /// Checks a load-management action against this configuration: names that must exist,
    /// ranges. What depends on the state (a server already down, an evaluator still
    /// assigned) is checked when the action runs (`LmsEngine::check_state`).
    pub fn check_action(&self, action: &LmsAction) -> Result<(), ActionError> {
        self.check_action_with(action, &[])
    }

    /// [`check_action`](Self::check_action), where `created` are evaluators an earlier
    /// action of the same timeline creates.
    pub fn check_action_with(
        &self,
        action: &LmsAction,
        created: &[String],
    ) -> Result<(), ActionError> {
        let evaluator_known = |field: &'static str, name: &str| {
            let mut names = self.evaluator_names();
            for c in created {
                if !names.contains(&c.as_str()) {
                    names.push(c);
                }
            }
            if names.contains(&name) {
                Ok(())
            } else {
                Err(ActionError::Unknown {
                    field,
                    what: "evaluator",
                    name: name.to_owned(),
                    known: some_of(names.into_iter()),
                })
            }
        };
        match action {
            LmsAction::LogonStorm { users, over, app } => {
                within("users", u64::from(*users), 1, u64::from(MAX_STORM_USERS))?;
                if *over > MAX_STORM_SPREAD {
                    return invalid(
                        "over",
                        format!("must be at most {MAX_STORM_SPREAD}; got {over}"),
                    );
                }
                if self.applications.is_empty() {
                    return invalid("app", "the farm publishes no application");
                }
                match app {
                    Some(a) => self.require_app("app", a),
                    None => Ok(()),
                }
            }
            LmsAction::AppLaunch { user, app, .. } => {
                if user.trim().is_empty() {
                    return Err(ActionError::Blank("user"));
                }
                self.require_app("app", app)
            }
            LmsAction::ServerReboot { server } => self.require_server("server", server),
            LmsAction::KillCollector { zone } => {
                if self.zones.iter().any(|z| z.id == *zone) {
                    Ok(())
                } else {
                    Err(ActionError::Unknown {
                        field: "zone",
                        what: "zone",
                        name: zone.clone(),
                        known: some_of(self.zones.iter().map(|z| z.id.as_str())),
                    })
                }
            }
            LmsAction::CounterSpike {
                server,
                percent,
                duration,
                ..
            } => {
                self.require_server("server", server)?;
                within("percent", u64::from(*percent), 0, 100)?;
                if *duration < SimDuration::from_secs(1) {
                    return invalid("duration", format!("must be at least 1s; got {duration}"));
                }
                Ok(())
            }
            LmsAction::DisconnectSessions {
                user,
                server,
                count,
            }
            | LmsAction::LogoffSessions {
                user,
                server,
                count,
            } => match (user, server) {
                (Some(_), Some(_)) | (None, None) => {
                    invalid("user", "give exactly one of user and server")
                }
                (Some(u), None) if u.trim().is_empty() => Err(ActionError::Blank("user")),
                (Some(_), None) => Ok(()),
                (None, Some(s)) => {
                    self.require_server("server", s)?;
                    within("count", u64::from(*count), 1, u64::from(MAX_SESSION_COUNT))
                }
            },
            LmsAction::EvaluatorSave {
                name,
                rules,
                replaces,
            } => {
                let apps: Vec<&str> = self.applications.iter().map(|a| a.name.as_str()).collect();
                check_evaluator(name, rules, &apps)?;
                if let Some(old) = replaces {
                    evaluator_known("replaces", old)?;
                    if builtin_rules(old).is_some() && old != name {
                        return invalid(
                            "name",
                            format!("the built-in evaluator \"{old}\" cannot be renamed"),
                        );
                    }
                }
                Ok(())
            }
            LmsAction::EvaluatorDelete { name } => {
                if builtin_rules(name).is_some() {
                    return invalid(
                        "name",
                        format!("the built-in evaluator \"{name}\" cannot be deleted"),
                    );
                }
                evaluator_known("name", name)
            }
            LmsAction::EvaluatorAssign {
                evaluator,
                servers,
                applications,
            } => {
                evaluator_known("evaluator", evaluator)?;
                if servers.is_empty() && applications.is_empty() {
                    return invalid("servers", "name at least one server or application");
                }
                for s in servers {
                    self.require_server("servers", s)?;
                }
                for a in applications {
                    self.require_app("applications", a)?;
                }
                Ok(())
            }
            LmsAction::EvaluatorUnassign { application } => {
                self.require_app("application", application)
            }
            LmsAction::FarmSettings {
                black_hole_fix,
                formula,
            } => {
                if black_hole_fix.is_none() && formula.is_none() {
                    return invalid(
                        "black_hole_fix",
                        "change at least one setting (black_hole_fix or formula)",
                    );
                }
                Ok(())
            }
        }
    }
}

impl LmsEngine {
    fn server_of(&self, host: &str) -> Result<usize, ActionError> {
        self.cfg
            .server_index(host)
            .ok_or_else(|| self.cfg.unknown_server("server", host))
    }

    fn app_of(&self, name: &str) -> Result<usize, ActionError> {
        self.cfg
            .app_index(name)
            .ok_or_else(|| self.cfg.unknown_app("app", name))
    }

    /// Checks what depends on the state; on `Err` nothing changes.
    pub(crate) fn check_state(&self, action: &LmsAction) -> Result<(), ActionError> {
        match action {
            LmsAction::LogonStorm { .. } | LmsAction::AppLaunch { .. }
                if self.servers.is_empty() =>
            {
                invalid("app", "the farm has no server")
            }
            LmsAction::AppLaunch { user, .. } => {
                let connected = self
                    .find_user(user)
                    .and_then(|u| self.sessions.get(&u))
                    .is_some_and(|s| s.state == super::model::CONNECTED);
                if connected {
                    return Err(ActionError::NoChange(format!(
                        "user \"{user}\" already has a connected session"
                    )));
                }
                Ok(())
            }
            LmsAction::ServerReboot { server } => {
                let s = self.server_of(server)?;
                if self.servers[s].power == ServerPower::Down {
                    return Err(ActionError::NoChange(format!(
                        "server \"{}\" is already down",
                        self.servers[s].host
                    )));
                }
                Ok(())
            }
            LmsAction::KillCollector { zone } => {
                let z = self.zones.iter().find(|z| z.id == *zone);
                if z.is_some_and(|z| z.collector.is_none()) {
                    return Err(ActionError::NoChange(format!(
                        "zone \"{zone}\" has no data collector"
                    )));
                }
                Ok(())
            }
            LmsAction::CounterSpike { server, .. } => {
                let s = self.server_of(server)?;
                if self.servers[s].power == ServerPower::Down {
                    return Err(ActionError::NoChange(format!(
                        "server \"{}\" is down",
                        self.servers[s].host
                    )));
                }
                Ok(())
            }
            LmsAction::DisconnectSessions {
                user: Some(user), ..
            }
            | LmsAction::LogoffSessions {
                user: Some(user), ..
            } => {
                let has = self
                    .find_user(user)
                    .is_some_and(|u| self.sessions.contains_key(&u));
                if !has {
                    return Err(ActionError::NoChange(format!(
                        "user \"{user}\" has no session"
                    )));
                }
                if let LmsAction::DisconnectSessions { .. } = action {
                    let connected = self
                        .find_user(user)
                        .and_then(|u| self.sessions.get(&u))
                        .is_some_and(|s| s.state == super::model::CONNECTED);
                    if !connected {
                        return Err(ActionError::NoChange(format!(
                            "user \"{user}\" has no connected session"
                        )));
                    }
                }
                Ok(())
            }
            LmsAction::DisconnectSessions {
                server: Some(server),
                ..
            } => {
                let s = self.server_of(server)?;
                if self.servers[s].connected == 0 {
                    return Err(ActionError::NoChange(format!(
                        "server \"{}\" has no connected session",
                        self.servers[s].host
                    )));
                }
                Ok(())
            }
            LmsAction::LogoffSessions {
                server: Some(server),
                ..
            } => {
                let s = self.server_of(server)?;
                if self.servers[s].sessions() == 0 {
                    return Err(ActionError::NoChange(format!(
                        "server \"{}\" has no session",
                        self.servers[s].host
                    )));
                }
                Ok(())
            }
            LmsAction::EvaluatorSave {
                name,
                rules,
                replaces,
            } => self.check_save(name, rules, replaces.as_deref()),
            LmsAction::EvaluatorDelete { name } => self.check_delete(name),
            LmsAction::EvaluatorAssign { evaluator, .. } => {
                self.evaluator_index(evaluator).map(|_| ())
            }
            LmsAction::EvaluatorUnassign { application } => {
                let a = self.app_of(application)?;
                if self.apps[a].evaluator.is_none() {
                    return Err(ActionError::NoChange(format!(
                        "application \"{application}\" has no evaluator of its own"
                    )));
                }
                Ok(())
            }
            LmsAction::LogonStorm { .. }
            | LmsAction::DisconnectSessions { .. }
            | LmsAction::LogoffSessions { .. }
            | LmsAction::FarmSettings { .. } => Ok(()),
        }
    }

    /// Applies a checked action at `now`.
    pub(crate) fn apply_checked(&mut self, now: u64, action: &LmsAction, out: &mut Vec<Event>) {
        match action {
            LmsAction::LogonStorm { users, over, app } => {
                let app = app
                    .as_deref()
                    .and_then(|a| self.cfg.app_index(a))
                    .and_then(|a| u16::try_from(a).ok());
                self.start_storm(*users, over.as_millis(), app, now, out);
            }
            LmsAction::AppLaunch {
                user,
                app,
                client_ip,
            } => {
                let a = self.app_of(app).unwrap_or(0);
                let ip = match client_ip {
                    Some(ip) => u32::from(*ip),
                    None => draw_ip(&mut self.launch_rng, &self.clients),
                };
                let u = self.intern_user(user);
                let _: Launch = self.launch(u, a, ip, now, None, out);
            }
            LmsAction::ServerReboot { server } => {
                let s = self.server_of(server).unwrap_or(0);
                self.take_down(s, now, "reboot by an operator", out);
            }
            LmsAction::KillCollector { zone } => {
                let z = self.zones.iter().position(|x| x.id == *zone).unwrap_or(0);
                if let Some(c) = self.zones[z].collector {
                    let details = json!({
                        "collector": self.servers[c as usize].host,
                        "sessions": self.servers[c as usize].sessions(),
                    });
                    out.push(ev(now, zone, "collector.killed", details));
                    self.take_down(c as usize, now, "the data collector crashed", out);
                }
            }
            LmsAction::CounterSpike {
                server,
                counter,
                percent,
                duration,
            } => {
                let s = self.server_of(server).unwrap_or(0);
                let until = now + duration.as_millis();
                let i = match counter {
                    SpikeCounter::Cpu => 0,
                    SpikeCounter::Memory => 1,
                };
                self.servers[s].spikes[i] = Some((f64::from(*percent), until));
                self.update_counters(s, now);
                self.recompute(s, now);
                let sv = &self.servers[s];
                let details = json!({
                    "counter": match counter { SpikeCounter::Cpu => "cpu", SpikeCounter::Memory => "memory" },
                    "load": sv.load,
                    "percent": percent,
                    "until_ms": until,
                });
                out.push(ev(now, &sv.host, "counter.spike", details));
            }
            LmsAction::DisconnectSessions {
                user,
                server,
                count,
            } => self.sessions_action(false, user.as_deref(), server.as_deref(), *count, now, out),
            LmsAction::LogoffSessions {
                user,
                server,
                count,
            } => self.sessions_action(true, user.as_deref(), server.as_deref(), *count, now, out),
            LmsAction::EvaluatorSave {
                name,
                rules,
                replaces,
            } => self.save_evaluator(name, rules, replaces.as_deref(), now, out),
            LmsAction::EvaluatorDelete { name } => self.delete_evaluator(name, now, out),
            LmsAction::EvaluatorAssign {
                evaluator,
                servers,
                applications,
            } => self.assign_evaluator(evaluator, servers, applications, now, out),
            LmsAction::EvaluatorUnassign { application } => {
                self.unassign_evaluator(application, now, out);
            }
            LmsAction::FarmSettings {
                black_hole_fix,
                formula,
            } => {
                if let Some(f) = black_hole_fix {
                    self.cfg.black_hole_fix = *f;
                }
                if let Some(f) = formula {
                    self.cfg.formula = *f;
                }
                let all: Vec<usize> = (0..self.servers.len()).collect();
                self.reevaluate(&all, now);
                let details = json!({
                    "black_hole_fix": self.cfg.black_hole_fix,
                    "formula": self.cfg.formula,
                });
                out.push(ev(now, "farm", "farm.settings", details));
            }
        }
    }
}

impl Apply for LmsEngine {
    type Action = LmsAction;

    fn apply(
        &mut self,
        now: SimTime,
        action: &LmsAction,
        actor: Option<&str>,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let names: Vec<String> = self.evaluators.iter().map(|e| e.name.clone()).collect();
        self.cfg.check_action_with(action, &names)?;
        self.check_state(action)?;
        if !self.servers.is_empty() {
            self.start(out);
        }
        let first = out.len();
        self.now = self.now.max(now.as_millis());
        self.apply_checked(now.as_millis(), action, out);
        attribute(&mut out[first..], actor);
        Ok(())
    }
}
