//! [`AlertBook`]: evaluates alert rules against a run and says which alerts fire and which
//! resolve. Pure and deterministic: the same run and rules give the same changes.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::rule::{AlertRule, AlertSeverity, Condition};
use crate::clock::SimTime;
use crate::sim::Simulation;

/// An alert firing now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActiveAlert {
    /// The rule's name.
    pub rule: String,
    /// The rule's severity.
    pub severity: AlertSeverity,
    /// What it is about: a resource location, child, server, `group/zone` cluster, or a
    /// flapping subject.
    pub subject: String,
    /// Since when the condition holds (simulated ms).
    pub since_ms: u64,
    /// When it fired (simulated ms): `since_ms` plus the rule's hold time, or later when
    /// the rule was created later.
    pub fired_ms: u64,
    /// Why, in words.
    pub text: String,
}

/// An alert that fired or resolved at this evaluation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum AlertChange {
    /// The condition held for the rule's hold time.
    Fired(ActiveAlert),
    /// The condition no longer holds (or the rule was removed).
    Resolved {
        /// The alert as it was.
        alert: ActiveAlert,
        /// When (simulated ms).
        at_ms: u64,
        /// Why it resolved, in words.
        reason: String,
    },
}

/// What holds now for one subject of one rule: since when (when the engine knows it) and
/// the words.
struct Holding {
    subject: String,
    since: Option<u64>,
    text: String,
}

/// The alerts of a run: conditions seen holding (waiting for their hold time) and alerts
/// firing, keyed by (rule, subject).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AlertBook {
    /// (rule, subject) → since when the condition holds (ms), not fired yet.
    pending: BTreeMap<(String, String), u64>,
    /// (rule, subject) → the alert.
    active: BTreeMap<(String, String), ActiveAlert>,
}

impl AlertBook {
    /// The alerts firing now, by rule then subject.
    pub fn active(&self) -> impl Iterator<Item = &ActiveAlert> {
        self.active.values()
    }

    /// A book whose firing alerts are `alerts` (those a console had stored when it stopped):
    /// the next evaluation resolves those whose condition no longer holds and does not fire
    /// again those that still hold.
    pub fn restore(alerts: impl IntoIterator<Item = ActiveAlert>) -> AlertBook {
        AlertBook {
            pending: BTreeMap::new(),
            active: alerts
                .into_iter()
                .map(|a| ((a.rule.clone(), a.subject.clone()), a))
                .collect(),
        }
    }

    /// Evaluates `rules` (already validated) against the run now: the alerts that fire and
    /// those that resolve, in rule then subject order (resolutions of removed rules last).
    pub fn evaluate(&mut self, sim: &Simulation, rules: &[AlertRule]) -> Vec<AlertChange> {
        let now = sim.now().as_millis();
        let sample_interval = sim.lms().cfg.sample_interval;
        let mut changes = Vec::new();
        let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
        for rule in rules {
            let hold = rule.condition.hold(sample_interval).as_millis();
            for h in holding(sim, &rule.condition) {
                let key = (rule.name.clone(), h.subject.clone());
                seen.insert(key.clone());
                if self.active.contains_key(&key) {
                    continue;
                }
                let since = *self
                    .pending
                    .entry(key.clone())
                    .or_insert_with(|| h.since.unwrap_or(now).min(now));
                if now.saturating_sub(since) >= hold {
                    self.pending.remove(&key);
                    let alert = ActiveAlert {
                        rule: rule.name.clone(),
                        severity: rule.severity,
                        subject: h.subject,
                        since_ms: since,
                        fired_ms: now,
                        text: h.text,
                    };
                    self.active.insert(key, alert.clone());
                    changes.push(AlertChange::Fired(alert));
                }
            }
        }
        self.pending.retain(|key, _| seen.contains(key));
        let rule_exists = |name: &str| rules.iter().any(|r| r.name == name);
        let gone: Vec<(String, String)> = self
            .active
            .keys()
            .filter(|k| !seen.contains(*k))
            .cloned()
            .collect();
        let (mut ended, mut removed) = (Vec::new(), Vec::new());
        for key in gone {
            if let Some(alert) = self.active.remove(&key) {
                if rule_exists(&alert.rule) {
                    ended.push(alert);
                } else {
                    removed.push(alert);
                }
            }
        }
        for alert in ended {
            changes.push(AlertChange::Resolved {
                reason: "the condition no longer holds".to_owned(),
                alert,
                at_ms: now,
            });
        }
        for alert in removed {
            changes.push(AlertChange::Resolved {
                reason: "the rule was removed or changed".to_owned(),
                alert,
                at_ms: now,
            });
        }
        changes
    }

    /// Forgets a rule's alerts and pending conditions (when the rule is edited, so that the
    /// new condition starts afresh); says which alerts that resolves.
    pub fn forget_rule(&mut self, rule: &str, now: SimTime) -> Vec<AlertChange> {
        self.pending.retain(|(r, _), _| r != rule);
        let keys: Vec<_> = self
            .active
            .keys()
            .filter(|(r, _)| r == rule)
            .cloned()
            .collect();
        keys.into_iter()
            .filter_map(|k| self.active.remove(&k))
            .map(|alert| AlertChange::Resolved {
                reason: "the rule was removed or changed".to_owned(),
                alert,
                at_ms: now.as_millis(),
            })
            .collect()
    }
}

/// The subjects for which `condition` holds now.
fn holding(sim: &Simulation, condition: &Condition) -> Vec<Holding> {
    match condition {
        Condition::HaState { state, .. } => sim
            .lhc()
            .rls
            .iter()
            .filter(|rl| rl.ha == *state)
            .map(|rl| Holding {
                subject: rl.id.clone(),
                since: Some(rl.ha_since.as_millis()),
                text: format!(
                    "Resource location {} in {} since {}",
                    rl.name,
                    state.label(),
                    rl.ha_since
                ),
            })
            .collect(),
        Condition::VdasUnregistered { pct } => sim
            .lhc()
            .resource_locations()
            .into_iter()
            .filter(|rl| {
                rl.vdas_total > 0
                    && f64::from(rl.unregistered) * 100.0 > pct * f64::from(rl.vdas_total)
            })
            .map(|rl| Holding {
                text: format!(
                    "Resource location {}: {} of {} VDAs unregistered ({:.1} %, above {pct} %)",
                    rl.name,
                    rl.unregistered,
                    rl.vdas_total,
                    f64::from(rl.unregistered) * 100.0 / f64::from(rl.vdas_total)
                ),
                subject: rl.id,
                since: None,
            })
            .collect(),
        Condition::ChildOrphaned {} => {
            let gslb = sim.gslb();
            gslb.children
                .iter()
                .enumerate()
                .filter(|(_, c)| c.current.is_none())
                .map(|(i, c)| {
                    let name = gslb
                        .name(gslb.child_site(crate::gslb::engine_idx(i)))
                        .to_owned();
                    Holding {
                        text: format!(
                            "GSLB child {name} is held by no parent (its own: {})",
                            gslb.name(c.original)
                        ),
                        subject: name,
                        since: None,
                    }
                })
                .collect()
        }
        Condition::ServerLoad { load, samples } => sim
            .lms()
            .servers
            .iter()
            .filter(|s| s.load >= *load)
            .map(|s| Holding {
                subject: s.host.clone(),
                since: None,
                text: format!(
                    "Server {} at load index {} (rule: {load} or more for {samples} samples)",
                    s.host, s.load
                ),
            })
            .collect(),
        Condition::AtMaxNodes {} => sim
            .autoscale()
            .groups()
            .into_iter()
            .flat_map(|g| {
                let max = g.params.max_nodes;
                let name = g.name;
                g.zones
                    .into_iter()
                    .filter(move |c| g.deployed && c.nodes_in_service >= max)
                    .map(move |c| Holding {
                        subject: format!("{name}/{}", c.zone),
                        since: None,
                        text: format!(
                            "Autoscale cluster {name}/{} at its maximum of {max} nodes",
                            c.zone
                        ),
                    })
            })
            .collect(),
        Condition::Flapping { engine } => sim
            .flapping()
            .into_iter()
            .filter(|f| engine.is_none_or(|e| f.engine == e))
            .map(|f| Holding {
                text: format!(
                    "{} {} ({}) is flapping: {} state changes, {} % weighted; now {}",
                    f.kind.replace('_', " "),
                    f.name,
                    f.engine,
                    f.changes,
                    f.percent,
                    f.state
                ),
                subject: f.name,
                since: None,
            })
            .collect(),
    }
}
