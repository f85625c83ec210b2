//! Operator actions on connectors and the cloud: forced outage, cloud link, restart, failure
//! and recovery of a connector or one component, configuration change. Each is checked
//! against the state first ([`LhcEngine::check_state`]), so a rejected action changes nothing.

use serde_json::json;

use super::connector::Power;
use super::engine::{ev, LhcEngine};
use crate::action::{Action, ActionError, Component};
use crate::clock::SimTime;
use crate::event::Event;

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
    pub(crate) fn check_state(&self, action: &Action) -> Result<(), ActionError> {
        let no = |m: String| Err(ActionError::NoChange(m));
        match action {
            Action::ForceOutage {
                resource_location,
                connector,
            } => {
                let t = self.targets(resource_location, connector.as_deref());
                if t.iter().all(|c| self.connectors[*c].forced) {
                    return no(format!("outage already forced on {}", self.names(&t)));
                }
            }
            Action::ClearOutage {
                resource_location,
                connector,
            } => {
                let t = self.targets(resource_location, connector.as_deref());
                if t.iter().all(|c| !self.connectors[*c].forced) {
                    return no(format!("no forced outage on {}", self.names(&t)));
                }
            }
            Action::CloudLink {
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
            Action::ConnectorRestart { connector } => {
                if let Some(c) = self.connector_index(connector) {
                    if matches!(self.connectors[c].power, Power::Restarting { .. }) {
                        return no(format!(
                            "connector {} is already restarting",
                            self.connectors[c].fqdn
                        ));
                    }
                }
            }
            Action::ConnectorFail {
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
            Action::ConnectorRecover {
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
            Action::VdaLogoff { vda } => {
                if let Some(v) = self.vda_index(vda) {
                    if self.vdas.sessions[v as usize] == 0 {
                        return no(format!("VDA {} has no session", self.vdas.name(v)));
                    }
                }
            }
            Action::VdaMaintenance { vda, enabled } => {
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
            _ => {}
        }
        Ok(())
    }

    /// Applies a checked action at `now`.
    pub(crate) fn apply_checked(&mut self, now: SimTime, action: &Action, out: &mut Vec<Event>) {
        match action {
            Action::ForceOutage {
                resource_location,
                connector,
            } => {
                let t = self.targets(resource_location, connector.as_deref());
                self.set_forced(resource_location, &t, true, now, out);
            }
            Action::ClearOutage {
                resource_location,
                connector,
            } => {
                let t = self.targets(resource_location, connector.as_deref());
                self.set_forced(resource_location, &t, false, now, out);
            }
            Action::CloudLink {
                resource_location,
                connector,
                up,
            } => {
                let t = self.targets(resource_location, connector.as_deref());
                self.set_link(&t, *up, now, out);
            }
            Action::ConnectorRestart { connector } => {
                if let Some(c) = self.connector_index(connector) {
                    let until = now.saturating_add(self.s.restart);
                    let power = Power::Restarting {
                        until_ms: until.as_millis(),
                    };
                    self.take_down(c, power, now, out);
                }
            }
            Action::ConnectorFail {
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
            Action::ConnectorRecover {
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
            Action::TestLaunch { resource, user } => {
                self.test_launch(resource, user.as_deref(), now, out);
            }
            Action::ConfigChange { description } => {
                self.config_change(description.as_deref(), now, out);
            }
            Action::VdaLogoff { vda } => {
                if let Some(v) = self.vda_index(vda) {
                    self.vda_logoff(v, now, out);
                }
            }
            Action::VdaMaintenance { vda, enabled } => {
                if let Some(v) = self.vda_index(vda) {
                    self.vda_maintenance(v, *enabled, now, out);
                }
            }
            // Other engines' actions never reach here (`apply` filters on the engine).
            _ => {}
        }
    }

    fn set_forced(&mut self, rl: &str, cs: &[usize], on: bool, now: SimTime, out: &mut Vec<Event>) {
        let Some(r) = self.rl_index(rl) else {
            return;
        };
        for &c in cs {
            if self.connectors[c].forced == on {
                continue;
            }
            self.connectors[c].forced = on;
            let (kind, reason) = if on {
                ("connector.outage_forced", "OutageModeForced = 1 (HKLM\\Software\\Citrix\\DesktopServer\\LHC): the connector acts as if the cloud were unreachable")
            } else {
                ("connector.outage_cleared", "OutageModeForced = 0: the connector uses the cloud broker again when its checks pass")
            };
            let details = json!({ "reason": reason, "resource_location": rl });
            out.push(ev(now, &self.connectors[c].fqdn, kind, details));
            self.css_refresh(c, now);
        }
        let all = self.rls[r].connectors.clone();
        let (forced, free): (Vec<usize>, Vec<usize>) =
            all.iter().partition(|c| self.connectors[**c].forced);
        let partial = !forced.is_empty() && !free.is_empty();
        self.rls[r].partial_forced = partial;
        if partial {
            let details = json!({
                "code": "partial_forced_outage",
                "forced": forced.iter().map(|c| self.connectors[*c].fqdn.clone()).collect::<Vec<_>>(),
                "message": format!(
                    "outage forced on {} of the {} connectors of \"{rl}\": force it on all of them to test the resource location (the others keep it on the cloud broker)",
                    forced.len(),
                    all.len()
                ),
                "not_forced": free.iter().map(|c| self.connectors[*c].fqdn.clone()).collect::<Vec<_>>(),
            });
            out.push(ev(now, rl, "rl.warning", details));
        }
        self.rls[r].want_check(now, self.s.health_check);
        self.process_rl(r, now, out);
    }

    fn set_link(&mut self, cs: &[usize], up: bool, now: SimTime, out: &mut Vec<Event>) {
        let Some(r) = cs.first().map(|c| self.connectors[*c].rl) else {
            return;
        };
        for &c in cs {
            let cc = &mut self.connectors[c];
            if cc.link_up == up {
                continue;
            }
            cc.link_up = up;
            let reason = if up {
                let was = if cc.cloud_lost {
                    "; the cloud was lost"
                } else {
                    ""
                };
                format!("link to the cloud broker restored{was}")
            } else {
                format!(
                    "link to the cloud broker cut: the connector considers the cloud lost after {} (cloud_lost_after)",
                    self.s.cloud_lost_after
                )
            };
            if up {
                cc.cloud_lost = false;
                cc.link_down_since = None;
            } else {
                cc.link_down_since = Some(now);
            }
            let details = json!({
                "reason": reason,
                "resource_location": self.rls[r].id,
                "up": up,
            });
            out.push(ev(
                now,
                &self.connectors[c].fqdn,
                "connector.cloud_link",
                details,
            ));
            if !up {
                self.interrupt_import(c, now, "cloud link down", out);
            }
            self.css_refresh(c, now);
        }
        self.rls[r].want_check(now, self.s.health_check);
        self.process_rl(r, now, out);
    }

    /// The connector stops (restart or failure): its secondary loses its registrations, an
    /// import in progress fails, and the election runs again.
    fn take_down(&mut self, c: usize, power: Power, now: SimTime, out: &mut Vec<Event>) {
        let r = self.connectors[c].rl;
        let k = self.connectors[c].local;
        let fqdn = self.connectors[c].fqdn.clone();
        self.connectors[c].power = power;
        let (kind, what) = match power {
            Power::Restarting { .. } => ("connector.restarting", "restarting"),
            _ => ("connector.down", "down"),
        };
        let details = json!({
            "reason": format!("connector {what}"),
            "resource_location": self.rls[r].id,
            "until_ms": match power { Power::Restarting { until_ms } => Some(until_ms), _ => None },
        });
        out.push(ev(now, &fqdn, kind, details));
        let reason =
            format!("connector {what}: its secondary broker loses the registrations it held");
        self.drop_registrations(r, k, now, &reason, out);
        let cc = &mut self.connectors[c];
        cc.leftover = 0;
        cc.known_sessions = 0;
        self.interrupt_import(c, now, &format!("connector {what}"), out);
        self.run_election(r, now, &format!("{fqdn} is {what}"), out);
        self.rls[r].want_check(now, self.s.health_check);
        self.process_rl(r, now, out);
    }

    fn set_component(
        &mut self,
        c: usize,
        k: Component,
        ok: bool,
        now: SimTime,
        out: &mut Vec<Event>,
    ) {
        let r = self.connectors[c].rl;
        let fqdn = self.connectors[c].fqdn.clone();
        self.connectors[c].set_component(k, ok);
        let kind = if ok {
            "connector.component_recovered"
        } else {
            "connector.component_failed"
        };
        let details = json!({
            "component": k.as_str(),
            "label": k.label(),
            "resource_location": self.rls[r].id,
        });
        out.push(ev(now, &fqdn, kind, details));
        match (k, ok) {
            (Component::Css, false) => {
                self.interrupt_import(c, now, "Config Synchronizer Service failed", out);
            }
            (Component::HaService, false) => {
                let local = self.connectors[c].local;
                let reason = "High Availability Service failed: the secondary broker loses the registrations it held";
                self.drop_registrations(r, local, now, reason, out);
                self.connectors[c].leftover = 0;
                let why = format!("High Availability Service of {fqdn} failed");
                self.run_election(r, now, &why, out);
            }
            (Component::HaService, true) => {
                let why = format!("High Availability Service of {fqdn} recovered");
                self.run_election(r, now, &why, out);
            }
            _ => {}
        }
        self.css_refresh(c, now);
        self.rls[r].want_check(now, self.s.health_check);
        self.process_rl(r, now, out);
    }
}
