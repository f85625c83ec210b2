//! [`LhcAction`]: what an operator does to resource locations, connectors and VDAs, with its
//! check against `[lhc]` ([`LhcConfig::check_action`]) and against the state
//! (`LhcEngine::check_state`) side by side, then the routing of a checked action to its
//! effect (`operations`). A rejected action changes nothing.

use serde::{Deserialize, Serialize};

use super::config::{Connector, LhcConfig};
use super::connector::{Component, Power};
use super::engine::LhcEngine;
use crate::action::error::ActionError;
use crate::clock::SimTime;
use crate::event::{attribute, Event};
use crate::scenario::check::some_of;
use crate::step::Apply;

/// An action of the Local Host Cache / HA engine. Serialized flat with a `kind` tag in
/// snake_case, like every engine's actions (see [`Action`](crate::Action)).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum LhcAction {
    /// Sets `OutageModeForced = 1` on one connector of a resource location, or on all of them
    /// when `connector` is left out (the console's "force outage on this resource location").
    ForceOutage {
        /// Id of the resource location (`lhc.resource_locations[].id`).
        resource_location: String,
        /// FQDN of one of its connectors (case-insensitive); all connectors when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        connector: Option<String>,
    },
    /// Sets `OutageModeForced` back to 0, on one connector or on all connectors of the RL.
    ClearOutage {
        /// Id of the resource location.
        resource_location: String,
        /// FQDN of one of its connectors; all connectors when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        connector: Option<String>,
    },
    /// Cuts or restores the link between connectors and the cloud broker.
    CloudLink {
        /// Id of the resource location.
        resource_location: String,
        /// FQDN of one of its connectors; all connectors when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        connector: Option<String>,
        /// `true` restores the link, `false` cuts it.
        up: bool,
    },
    /// Restarts a connector: it is down for `lhc.connector_restart`, then comes back with every
    /// component healthy.
    ConnectorRestart {
        /// FQDN of the connector.
        connector: String,
    },
    /// Fails one component of a connector, or the whole connector (down) when `component` is
    /// left out.
    ConnectorFail {
        /// FQDN of the connector.
        connector: String,
        /// The component; the whole connector when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        component: Option<Component>,
    },
    /// Repairs one component of a connector, or brings the whole connector back up with every
    /// component healthy when `component` is left out.
    ConnectorRecover {
        /// FQDN of the connector.
        connector: String,
        /// The component; the whole connector when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        component: Option<Component>,
    },
    /// A test launch of a published resource through StoreFront (`launch.succeeded` or
    /// `launch.failed`, with the reason).
    TestLaunch {
        /// The resource (an entry of some pool's `resources`).
        resource: String,
        /// The user shown in the events; `"test-user"` when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        user: Option<String>,
    },
    /// An administrator changes the site configuration in the cloud: every connector's Config
    /// Synchronizer imports a new LocalDB at its next poll.
    ConfigChange {
        /// What changed (free text shown in the history).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        description: Option<String>,
    },
    /// Every session of a VDA logs off (a pooled VDI desktop in HA mode then goes into
    /// maintenance unless its delivery group says otherwise).
    VdaLogoff {
        /// The VDA's name (`{prefix}{n:03}`, case-insensitive).
        vda: String,
    },
    /// Puts a VDA into maintenance mode or takes it out.
    VdaMaintenance {
        /// The VDA's name.
        vda: String,
        /// `true` turns maintenance on.
        enabled: bool,
    },
}

impl LhcAction {
    /// Every `kind` of this engine's actions, in declaration order.
    pub const KINDS: [&'static str; 10] = [
        "force_outage",
        "clear_outage",
        "cloud_link",
        "connector_restart",
        "connector_fail",
        "connector_recover",
        "test_launch",
        "config_change",
        "vda_logoff",
        "vda_maintenance",
    ];

    /// The `kind` tag, as written in files (`"force_outage"`).
    pub fn kind(&self) -> &'static str {
        match self {
            LhcAction::ForceOutage { .. } => "force_outage",
            LhcAction::ClearOutage { .. } => "clear_outage",
            LhcAction::CloudLink { .. } => "cloud_link",
            LhcAction::ConnectorRestart { .. } => "connector_restart",
            LhcAction::ConnectorFail { .. } => "connector_fail",
            LhcAction::ConnectorRecover { .. } => "connector_recover",
            LhcAction::TestLaunch { .. } => "test_launch",
            LhcAction::ConfigChange { .. } => "config_change",
            LhcAction::VdaLogoff { .. } => "vda_logoff",
            LhcAction::VdaMaintenance { .. } => "vda_maintenance",
        }
    }
}

impl LhcConfig {
    /// Checks that an LHC action names things this configuration defines (resource location,
    /// connector in that resource location, published resource, VDA). State-dependent conditions (already forced, already down, ...) are
    /// checked when the action runs.
    pub fn check_action(&self, action: &LhcAction) -> Result<(), ActionError> {
        match action {
            LhcAction::ForceOutage {
                resource_location,
                connector,
            }
            | LhcAction::ClearOutage {
                resource_location,
                connector,
            }
            | LhcAction::CloudLink {
                resource_location,
                connector,
                ..
            } => self.check_rl_connector(resource_location, connector.as_deref()),
            LhcAction::ConnectorRestart { connector }
            | LhcAction::ConnectorFail { connector, .. }
            | LhcAction::ConnectorRecover { connector, .. } => {
                self.require_connector(connector).map(|_| ())
            }
            LhcAction::TestLaunch { resource, user } => {
                if resource.trim().is_empty() {
                    return Err(ActionError::Blank("resource"));
                }
                if user.as_deref().is_some_and(|u| u.trim().is_empty()) {
                    return Err(ActionError::Blank("user"));
                }
                if !self.publishes(resource) {
                    return Err(ActionError::UnknownResource {
                        resource: resource.clone(),
                        known: some_of(self.resources().into_iter()),
                    });
                }
                Ok(())
            }
            LhcAction::ConfigChange { description } => {
                if description.as_deref().is_some_and(|d| d.trim().is_empty()) {
                    return Err(ActionError::Blank("description"));
                }
                Ok(())
            }
            LhcAction::VdaLogoff { vda } | LhcAction::VdaMaintenance { vda, .. } => self
                .find_vda(vda)
                .map(|_| ())
                .ok_or_else(|| ActionError::UnknownVda(vda.clone())),
        }
    }

    /// The resource location exists and, if a connector is named, it belongs to it.
    fn check_rl_connector(&self, rl: &str, connector: Option<&str>) -> Result<(), ActionError> {
        let Some((i, _)) = self.resource_location(rl) else {
            return Err(ActionError::UnknownResourceLocation {
                resource_location: rl.to_owned(),
                known: some_of(self.resource_locations.iter().map(|r| r.id.as_str())),
            });
        };
        if let Some(fqdn) = connector {
            let (j, _, c) = self.require_connector(fqdn)?;
            if j != i {
                return Err(ActionError::ConnectorNotInLocation {
                    connector: c.fqdn.clone(),
                    resource_location: rl.to_owned(),
                    actual: self.resource_locations[j].id.clone(),
                });
            }
        }
        Ok(())
    }

    fn require_connector(&self, fqdn: &str) -> Result<(usize, usize, &Connector), ActionError> {
        self.connector(fqdn)
            .ok_or_else(|| ActionError::UnknownConnector {
                connector: fqdn.to_owned(),
                known: some_of(
                    self.resource_locations
                        .iter()
                        .flat_map(|rl| &rl.connectors)
                        .map(|c| c.fqdn.as_str()),
                ),
            })
    }
}

impl LhcEngine {
    /// Index of the resource location `id`.
    pub(crate) fn rl_index(&self, id: &str) -> Option<usize> {
        self.rls.iter().position(|rl| rl.id == id)
    }

    /// Global index of the connector `fqdn` (case-insensitive).
    pub(crate) fn connector_index(&self, fqdn: &str) -> Option<usize> {
        let (i, j, _) = self.config.connector(fqdn)?;
        self.rls.get(i)?.connectors.get(j).copied()
    }

    /// Global index of the VDA called `name`.
    pub(crate) fn vda_index(&self, name: &str) -> Option<u32> {
        let at = self.config.find_vda(name)?;
        let pool = self
            .vdas
            .pools
            .iter()
            .filter(|p| p.rl == at.resource_location)
            .nth(at.pool)?;
        Some(pool.start + at.number - 1)
    }

    /// The connectors an RL-wide action targets (already checked against the config).
    fn targets(&self, rl: &str, connector: Option<&str>) -> Vec<usize> {
        match connector {
            Some(fqdn) => self.connector_index(fqdn).into_iter().collect(),
            None => self
                .rl_index(rl)
                .map(|r| self.rls[r].connectors.clone())
                .unwrap_or_default(),
        }
    }

    fn names(&self, cs: &[usize]) -> String {
        let names: Vec<&str> = cs
            .iter()
            .map(|c| self.connectors[*c].fqdn.as_str())
            .collect();
        names.join(", ")
    }

    /// State-dependent checks: an action that would change nothing is rejected.
    pub(crate) fn check_state(&self, action: &LhcAction) -> Result<(), ActionError> {
        let no = |m: String| Err(ActionError::NoChange(m));
        match action {
            LhcAction::ForceOutage {
                resource_location,
                connector,
            } => {
                let t = self.targets(resource_location, connector.as_deref());
                if t.iter().all(|c| self.connectors[*c].forced) {
                    return no(format!("outage already forced on {}", self.names(&t)));
                }
            }
            LhcAction::ClearOutage {
                resource_location,
                connector,
            } => {
                let t = self.targets(resource_location, connector.as_deref());
                if t.iter().all(|c| !self.connectors[*c].forced) {
                    return no(format!("no forced outage on {}", self.names(&t)));
                }
            }
            LhcAction::CloudLink {
                resource_location,
                connector,
                up,
            } => {
                let t = self.targets(resource_location, connector.as_deref());
                if t.iter().all(|c| self.connectors[*c].link_up == *up) {
                    let state = if *up { "up" } else { "down" };
                    return no(format!("cloud link already {state} on {}", self.names(&t)));
                }
            }
            LhcAction::ConnectorRestart { connector } => {
                if let Some(c) = self.connector_index(connector) {
                    if matches!(self.connectors[c].power, Power::Restarting { .. }) {
                        return no(format!(
                            "connector {} is already restarting",
                            self.connectors[c].fqdn
                        ));
                    }
                }
            }
            LhcAction::ConnectorFail {
                connector,
                component,
            } => {
                if let Some(c) = self.connector_index(connector) {
                    let cc = &self.connectors[c];
                    match component {
                        None if cc.power == Power::Down => {
                            return no(format!("connector {} is already down", cc.fqdn));
                        }
                        Some(_) if !cc.is_up() => {
                            return no(format!("connector {} is not running", cc.fqdn));
                        }
                        Some(k) if !cc.component_ok(*k) => {
                            return no(format!("{} of {} has already failed", k.label(), cc.fqdn));
                        }
                        _ => {}
                    }
                }
            }
            LhcAction::ConnectorRecover {
                connector,
                component,
            } => {
                if let Some(c) = self.connector_index(connector) {
                    let cc = &self.connectors[c];
                    let healthy = Component::ALL.iter().all(|k| cc.component_ok(*k));
                    match component {
                        None if cc.is_up() && healthy => {
                            return no(format!("connector {} is up and healthy", cc.fqdn));
                        }
                        Some(_) if !cc.is_up() => {
                            return no(format!(
                                "connector {} is not running: recover the connector itself",
                                cc.fqdn
                            ));
                        }
                        Some(k) if cc.component_ok(*k) => {
                            return no(format!("{} of {} is healthy", k.label(), cc.fqdn));
                        }
                        _ => {}
                    }
                }
            }
            LhcAction::VdaLogoff { vda } => {
                if let Some(v) = self.vda_index(vda) {
                    if self.vdas.sessions[v as usize] == 0 {
                        return no(format!("VDA {} has no session", self.vdas.name(v)));
                    }
                }
            }
            LhcAction::VdaMaintenance { vda, enabled } => {
                if let Some(v) = self.vda_index(vda) {
                    if self.vdas.maintenance[v as usize] == *enabled {
                        let state = if *enabled { "already" } else { "not" };
                        return no(format!(
                            "VDA {} is {state} in maintenance mode",
                            self.vdas.name(v)
                        ));
                    }
                }
            }
            LhcAction::TestLaunch { .. } | LhcAction::ConfigChange { .. } => {
                // Always possible: a launch reports its own failure, and a configuration
                // change may follow another.
            }
        }
        Ok(())
    }

    /// Applies a checked action at `now`.
    pub(crate) fn apply_checked(&mut self, now: SimTime, action: &LhcAction, out: &mut Vec<Event>) {
        match action {
            LhcAction::ForceOutage {
                resource_location,
                connector,
            } => {
                let t = self.targets(resource_location, connector.as_deref());
                self.set_forced(resource_location, &t, true, now, out);
            }
            LhcAction::ClearOutage {
                resource_location,
                connector,
            } => {
                let t = self.targets(resource_location, connector.as_deref());
                self.set_forced(resource_location, &t, false, now, out);
            }
            LhcAction::CloudLink {
                resource_location,
                connector,
                up,
            } => {
                let t = self.targets(resource_location, connector.as_deref());
                self.set_link(&t, *up, now, out);
            }
            LhcAction::ConnectorRestart { connector } => {
                if let Some(c) = self.connector_index(connector) {
                    let until = now.saturating_add(self.s.restart);
                    let power = Power::Restarting {
                        until_ms: until.as_millis(),
                    };
                    self.take_down(c, power, now, out);
                }
            }
            LhcAction::ConnectorFail {
                connector,
                component,
            } => {
                if let Some(c) = self.connector_index(connector) {
                    match component {
                        None => self.take_down(c, Power::Down, now, out),
                        Some(k) => self.set_component(c, *k, false, now, out),
                    }
                }
            }
            LhcAction::ConnectorRecover {
                connector,
                component,
            } => {
                if let Some(c) = self.connector_index(connector) {
                    match component {
                        Some(k) => self.set_component(c, *k, true, now, out),
                        None if !self.connectors[c].is_up() => {
                            self.bring_up(c, now, "recovered by an operator", out);
                            self.process_rl(self.connectors[c].rl, now, out);
                        }
                        None => {
                            for k in Component::ALL {
                                if !self.connectors[c].component_ok(k) {
                                    self.set_component(c, k, true, now, out);
                                }
                            }
                        }
                    }
                }
            }
            LhcAction::TestLaunch { resource, user } => {
                self.test_launch(resource, user.as_deref(), now, out);
            }
            LhcAction::ConfigChange { description } => {
                self.config_change(description.as_deref(), now, out);
            }
            LhcAction::VdaLogoff { vda } => {
                if let Some(v) = self.vda_index(vda) {
                    self.vda_logoff(v, now, out);
                }
            }
            LhcAction::VdaMaintenance { vda, enabled } => {
                if let Some(v) = self.vda_index(vda) {
                    self.vda_maintenance(v, *enabled, now, out);
                }
            }
        }
    }
}

impl Apply for LhcEngine {
    type Action = LhcAction;

    fn apply(
        &mut self,
        now: SimTime,
        action: &LhcAction,
        actor: Option<&str>,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.config.check_action(action)?;
        self.check_state(action)?;
        // Before the first advance the initial events are not out yet; they come at the
        // first advance (stamped t = 0) and describe the state at that moment.
        let first = out.len();
        self.apply_checked(now, action, out);
        attribute(&mut out[first..], actor);
        self.refresh_wakeup();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lhc::config::tests::config;

    #[test]
    fn checks_names_against_the_configuration() {
        let c = config();
        let force = |rl: &str, cc: Option<&str>| LhcAction::ForceOutage {
            resource_location: rl.into(),
            connector: cc.map(str::to_owned),
        };
        assert_eq!(c.check_action(&force("a", Some("cc1.A.com"))), Ok(()));
        assert_eq!(
            c.check_action(&force("z", None)).map_err(|e| e.to_string()),
            Err("unknown resource location \"z\" (known: a, b)".into())
        );
        assert_eq!(
            c.check_action(&force("a", Some("cc1.b.com")))
                .map_err(|e| e.to_string()),
            Err(
                "connector \"cc1.b.com\" is not in resource location \"a\" (it is in \"b\")".into()
            )
        );
        let launch = LhcAction::TestLaunch {
            resource: "Paint".into(),
            user: None,
        };
        assert_eq!(
            c.check_action(&launch).map_err(|e| e.to_string()),
            Err("unknown resource \"Paint\" (published: Word)".into())
        );
        let restart = LhcAction::ConnectorRestart {
            connector: "cc9".into(),
        };
        assert!(c
            .check_action(&restart)
            .is_err_and(|e| e.field() == Some("connector")));
        let logoff = LhcAction::VdaLogoff { vda: "A999".into() };
        assert_eq!(c.check_action(&logoff), Ok(()));
    }
}
