//! Editing load evaluators at runtime: save (create or replace), delete, assign, unassign.
//! An evaluator change is a configuration change pushed to every server: the affected
//! servers recompute and push at once, and the event lists them.

use serde_json::json;

use super::actions::check_evaluator;
use super::config::rules::{builtin_rules, Rule};
use super::engine::{ev, LmsEngine};
use super::rules::Evaluator;
use crate::action::error::ActionError;
use crate::event::Event;
use crate::scenario::check::{invalid, some_of};

impl LmsEngine {
    /// The index of evaluator `name`.
    pub(crate) fn evaluator_index(&self, name: &str) -> Result<usize, ActionError> {
        self.evaluators
            .iter()
            .position(|e| e.name == name)
            .ok_or_else(|| ActionError::Unknown {
                field: "evaluator",
                what: "evaluator",
                name: name.to_owned(),
                known: some_of(self.evaluators.iter().map(|e| e.name.as_str())),
            })
    }

    /// Checks an evaluator save against the state (see `EvaluatorSave`).
    pub(crate) fn check_save(
        &self,
        name: &str,
        rules: &[Rule],
        replaces: Option<&str>,
    ) -> Result<(), ActionError> {
        let apps: Vec<&str> = self.apps.iter().map(|a| a.name.as_str()).collect();
        check_evaluator(name, rules, &apps)?;
        match replaces {
            Some(old) => {
                self.evaluator_index(old).map_err(|e| match e {
                    ActionError::Unknown {
                        what, name, known, ..
                    } => ActionError::Unknown {
                        field: "replaces",
                        what,
                        name,
                        known,
                    },
                    other => other,
                })?;
                if builtin_rules(old).is_some() && old != name {
                    return invalid(
                        "name",
                        format!("the built-in evaluator \"{old}\" cannot be renamed"),
                    );
                }
                if old != name && self.evaluators.iter().any(|e| e.name == name) {
                    return invalid("name", format!("an evaluator \"{name}\" already exists"));
                }
            }
            None => {
                if self.evaluators.iter().any(|e| e.name == name) {
                    return invalid(
                        "name",
                        format!("an evaluator \"{name}\" already exists; edit it with replaces = \"{name}\""),
                    );
                }
            }
        }
        Ok(())
    }

    /// Checks an evaluator delete against the state.
    pub(crate) fn check_delete(&self, name: &str) -> Result<(), ActionError> {
        if builtin_rules(name).is_some() {
            return invalid(
                "name",
                format!("the built-in evaluator \"{name}\" cannot be deleted"),
            );
        }
        let e = self.evaluator_index(name).map_err(|e| match e {
            ActionError::Unknown {
                what, name, known, ..
            } => ActionError::Unknown {
                field: "name",
                what,
                name,
                known,
            },
            other => other,
        })?;
        let (servers, apps) = self.users_of(e);
        if !servers.is_empty() || !apps.is_empty() {
            let mut parts = Vec::new();
            if !servers.is_empty() {
                parts.push(format!(
                    "servers {}",
                    some_of(servers.iter().map(String::as_str))
                ));
            }
            if !apps.is_empty() {
                parts.push(format!(
                    "applications {}",
                    some_of(apps.iter().map(String::as_str))
                ));
            }
            return invalid(
                "name",
                format!(
                    "evaluator \"{name}\" is still assigned to {}; assign another first",
                    parts.join(" and ")
                ),
            );
        }
        Ok(())
    }

    /// Servers and applications using evaluator `e` (names).
    pub(crate) fn users_of(&self, e: usize) -> (Vec<String>, Vec<String>) {
        let servers = self
            .servers
            .iter()
            .filter(|s| s.evaluator as usize == e)
            .map(|s| s.host.clone())
            .collect();
        let apps = self
            .apps
            .iter()
            .filter(|a| a.evaluator.is_some_and(|x| x as usize == e))
            .map(|a| a.name.clone())
            .collect();
        (servers, apps)
    }

    /// Server indexes whose server or application evaluator is `e`.
    pub(crate) fn affected_by(&self, e: usize) -> Vec<usize> {
        (0..self.servers.len())
            .filter(|s| {
                let sv = &self.servers[*s];
                sv.evaluator as usize == e
                    || sv.apps.iter().any(|a| {
                        self.apps[usize::from(*a)]
                            .evaluator
                            .is_some_and(|x| x as usize == e)
                    })
            })
            .collect()
    }

    /// Installs the evaluator (checked) without events; returns its index.
    pub(crate) fn install_evaluator(
        &mut self,
        name: &str,
        rules: &[Rule],
        replaces: Option<&str>,
    ) -> usize {
        let apps: Vec<String> = self.apps.iter().map(|a| a.name.clone()).collect();
        let compiled = Evaluator::compile(name, rules, &self.cfg.throttle, |n| {
            apps.iter().position(|a| a == n)
        });
        let e = match replaces.and_then(|old| self.evaluators.iter().position(|e| e.name == old)) {
            Some(i) => {
                self.evaluators[i] = compiled;
                i
            }
            None => {
                self.evaluators.push(compiled);
                self.evaluators.len() - 1
            }
        };
        self.rebuild_indexes();
        e
    }

    pub(crate) fn save_evaluator(
        &mut self,
        name: &str,
        rules: &[Rule],
        replaces: Option<&str>,
        now: u64,
        out: &mut Vec<Event>,
    ) {
        let e = self.install_evaluator(name, rules, replaces);
        let affected = self.affected_by(e);
        self.reevaluate(&affected, now);
        let hosts: Vec<&str> = affected
            .iter()
            .map(|s| self.servers[*s].host.as_str())
            .collect();
        let details = json!({
            "name": name,
            "replaces": replaces,
            "rules": rules,
            "servers": hosts,
        });
        out.push(ev(now, name, "evaluator.saved", details));
    }

    pub(crate) fn delete_evaluator(&mut self, name: &str, now: u64, out: &mut Vec<Event>) {
        let Ok(e) = self.evaluator_index(name) else {
            return;
        };
        self.evaluators.remove(e);
        let shift = |x: &mut u32| {
            if *x as usize > e {
                *x -= 1;
            }
        };
        for s in &mut self.servers {
            shift(&mut s.evaluator);
        }
        for a in &mut self.apps {
            if let Some(x) = a.evaluator.as_mut() {
                shift(x);
            }
        }
        out.push(ev(now, name, "evaluator.deleted", json!({ "name": name })));
    }

    pub(crate) fn assign_evaluator(
        &mut self,
        evaluator: &str,
        servers: &[String],
        applications: &[String],
        now: u64,
        out: &mut Vec<Event>,
    ) {
        let Ok(e) = self.evaluator_index(evaluator) else {
            return;
        };
        let e32 = u32::try_from(e).unwrap_or(0);
        let mut affected = Vec::new();
        for h in servers {
            if let Some(s) = self.cfg.server_index(h) {
                self.servers[s].evaluator = e32;
                affected.push(s);
            }
        }
        for a in applications {
            if let Some(i) = self.cfg.app_index(a) {
                self.apps[i].evaluator = Some(e32);
                affected.extend(self.apps[i].index.servers.iter().map(|s| *s as usize));
            }
        }
        affected.sort_unstable();
        affected.dedup();
        self.rebuild_indexes();
        self.reevaluate(&affected, now);
        let hosts: Vec<&str> = affected
            .iter()
            .map(|s| self.servers[*s].host.as_str())
            .collect();
        let details = json!({
            "applications": applications,
            "evaluator": evaluator,
            "servers": hosts,
        });
        out.push(ev(now, evaluator, "evaluator.assigned", details));
    }

    pub(crate) fn unassign_evaluator(&mut self, application: &str, now: u64, out: &mut Vec<Event>) {
        let Some(i) = self.cfg.app_index(application) else {
            return;
        };
        let old = self.apps[i].evaluator.take();
        let affected: Vec<usize> = self.apps[i]
            .index
            .servers
            .iter()
            .map(|s| *s as usize)
            .collect();
        self.rebuild_indexes();
        self.reevaluate(&affected, now);
        let hosts: Vec<&str> = affected
            .iter()
            .map(|s| self.servers[*s].host.as_str())
            .collect();
        let details = json!({
            "application": application,
            "evaluator": old.map(|e| self.evaluators[e as usize].name.clone()),
            "servers": hosts,
        });
        out.push(ev(now, application, "evaluator.unassigned", details));
    }
}
