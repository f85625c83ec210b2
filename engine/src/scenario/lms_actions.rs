//! Look-ups in `[lms]` (servers by host, zones, applications) and the static check of
//! load-management actions against the configuration: names that must exist, ranges. What
//! depends on the state (a server already down, an evaluator still assigned) is checked when
//! the action runs.

use super::check::list;
use super::error::FieldPath;
use super::lms::LmsConfig;
use super::lms_rules::{builtin_rules, Rule};
use crate::action::{Action, ActionError};
use crate::clock::SimDuration;

/// How many names an "unknown ..." error lists before `...`.
const LISTED: usize = 12;
/// Most users of one logon storm.
pub const MAX_STORM_USERS: u32 = 100_000;
/// Longest spread of one logon storm.
pub const MAX_STORM_SPREAD: SimDuration = SimDuration::from_hours(24);
/// Most sessions one disconnect or logoff action touches.
pub const MAX_SESSION_COUNT: u32 = 100_000;
/// Longest evaluator name.
pub const MAX_EVALUATOR_NAME: usize = 64;

/// Comma-separated names, at most [`LISTED`] of them.
pub(crate) fn some_of<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let all: Vec<&str> = names.collect();
    if all.len() > LISTED {
        format!("{}, ... ({} in all)", all[..LISTED].join(", "), all.len())
    } else {
        list(&all)
    }
}

/// `Err(Invalid)` for `field`.
pub(crate) fn invalid<T>(
    field: &'static str,
    message: impl Into<String>,
) -> Result<T, ActionError> {
    Err(ActionError::Invalid {
        field,
        message: message.into(),
    })
}

/// `lo <= value <= hi` for an action field.
pub(crate) fn within(field: &'static str, value: u64, lo: u64, hi: u64) -> Result<(), ActionError> {
    if value < lo || value > hi {
        return invalid(field, format!("must be between {lo} and {hi}; got {value}"));
    }
    Ok(())
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

    fn require_server(&self, field: &'static str, host: &str) -> Result<(), ActionError> {
        self.server_index(host)
            .map(|_| ())
            .ok_or_else(|| self.unknown_server(field, host))
    }

    fn require_app(&self, field: &'static str, app: &str) -> Result<(), ActionError> {
        self.app_index(app)
            .map(|_| ())
            .ok_or_else(|| self.unknown_app(field, app))
    }

    /// Checks a load-management action against this configuration (see the module doc).
    /// Actions of other engines pass.
    pub fn check_action(&self, action: &Action) -> Result<(), ActionError> {
        self.check_action_with(action, &[])
    }

    /// [`check_action`](Self::check_action), where `created` are evaluators an earlier
    /// action of the same timeline creates.
    pub fn check_action_with(
        &self,
        action: &Action,
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
            Action::LogonStorm { users, over, app } => {
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
            Action::AppLaunch { user, app, .. } => {
                if user.trim().is_empty() {
                    return Err(ActionError::Blank("user"));
                }
                self.require_app("app", app)
            }
            Action::ServerReboot { server } => self.require_server("server", server),
            Action::KillCollector { zone } => {
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
            Action::CounterSpike {
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
            Action::DisconnectSessions {
                user,
                server,
                count,
            }
            | Action::LogoffSessions {
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
            Action::EvaluatorSave {
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
            Action::EvaluatorDelete { name } => {
                if builtin_rules(name).is_some() {
                    return invalid(
                        "name",
                        format!("the built-in evaluator \"{name}\" cannot be deleted"),
                    );
                }
                evaluator_known("name", name)
            }
            Action::EvaluatorAssign {
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
            Action::EvaluatorUnassign { application } => {
                self.require_app("application", application)
            }
            Action::FarmSettings {
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
            // Actions of other engines are checked by their own sections.
            _ => Ok(()),
        }
    }
}
