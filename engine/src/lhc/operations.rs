//! What a checked operator action does to resource locations and connectors: forced outage,
//! cloud link, a connector taken down, a component failed or repaired. Each step emits its
//! events with the reason, then lets the resource location re-evaluate.

use serde_json::json;

use super::connector::{Component, Power};
use super::engine::{ev, LhcEngine};
use crate::clock::SimTime;
use crate::event::Event;

impl LhcEngine {
    pub(crate) fn set_forced(
        &mut self,
        rl: &str,
        cs: &[usize],
        on: bool,
        now: SimTime,
        out: &mut Vec<Event>,
    ) {
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

    pub(crate) fn set_link(&mut self, cs: &[usize], up: bool, now: SimTime, out: &mut Vec<Event>) {
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
    pub(crate) fn take_down(&mut self, c: usize, power: Power, now: SimTime, out: &mut Vec<Event>) {
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

    pub(crate) fn set_component(
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
