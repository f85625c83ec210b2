//! HA detection of a resource location: health checks of the StoreFront-configured
//! connectors, the aggregated state, the election of the secondary broker, and the ADC's
//! CITRIX-XD-DDC monitor.

use serde_json::{json, Value};

use super::election::elect;
use super::engine::{ev, LhcEngine};
use super::ha_state::{aggregate, next_state, timer, HaState, HealthInputs};
use super::model::{grid_after, grid_at_or_after};
use crate::clock::{SimDuration, SimTime};
use crate::event::Event;

/// The election rule, as written in `election` events.
const RULE: &str = "first of the connectors whose High Availability Service is up, in case-insensitive alphabetical order of FQDN";

impl LhcEngine {
    /// Some connector of the resource location still reaches the cloud broker.
    pub(crate) fn rl_cloud_ok(&self, r: usize) -> bool {
        self.rls[r]
            .connectors
            .iter()
            .any(|c| self.connectors[*c].reaches_cloud())
    }

    fn inputs(&self, c: usize, rl_cloud_ok: bool, now: SimTime) -> HealthInputs {
        let cc = &self.connectors[c];
        HealthInputs {
            checks_pass: cc.checks_pass(),
            forced: cc.forced,
            rl_cloud_ok,
            in_state: now.duration_since(cc.ha_since),
        }
    }

    /// One health check of every running StoreFront-configured connector of `r`; schedules
    /// the next check a timer needs.
    pub(crate) fn run_checks(&mut self, r: usize, now: SimTime, out: &mut Vec<Event>) {
        let rl_ok = self.rl_cloud_ok(r);
        let mut next: Option<SimTime> = None;
        for c in self.rls[r].connectors.clone() {
            let cc = &self.connectors[c];
            if !cc.storefront_configured || !cc.is_up() {
                continue;
            }
            let inputs = self.inputs(c, rl_ok, now);
            if let Some((to, why)) = next_state(cc.ha, &inputs, &self.s.ha) {
                let details = json!({
                    "failed_checks": cc.failed_checks(self.s.cloud_lost_after),
                    "from": cc.ha.as_str(),
                    "reason": why.text(),
                    "resource_location": self.rls[r].id,
                    "to": to.as_str(),
                });
                out.push(ev(now, &cc.fqdn, "connector.ha_state", details));
                let cc = &mut self.connectors[c];
                cc.ha = to;
                cc.ha_since = now;
            }
            let cc = &self.connectors[c];
            let inputs = self.inputs(c, rl_ok, now);
            if let Some(d) = timer(cc.ha, &inputs, &self.s.ha) {
                let t = grid_at_or_after(cc.ha_since.saturating_add(d), self.s.health_check);
                let t = if t > now {
                    t
                } else {
                    grid_after(now, self.s.health_check, SimDuration::ZERO)
                };
                next = Some(next.map_or(t, |n| n.min(t)));
            }
        }
        if let Some(t) = next {
            let rl = &mut self.rls[r];
            rl.check_due = Some(rl.check_due.map_or(t, |d| d.min(t)));
        }
    }

    /// The state of the resource location: the least severe state of its running
    /// StoreFront-configured connectors (unchanged while none runs; always Working Normally
    /// for a resource location that is not HA-ready).
    pub(crate) fn refresh_aggregate(&mut self, r: usize, now: SimTime, out: &mut Vec<Event>) {
        let rl = &self.rls[r];
        if !rl.ha_ready {
            return;
        }
        let running = || {
            rl.connectors
                .iter()
                .map(|c| &self.connectors[*c])
                .filter(|c| c.storefront_configured && c.is_up())
        };
        let Some(state) = aggregate(running().map(|c| c.ha)) else {
            return;
        };
        if state == rl.ha {
            return;
        }
        let driver = running()
            .find(|c| c.ha == state)
            .map_or_else(String::new, |c| c.fqdn.clone());
        let states: Vec<(String, Value)> = rl
            .connectors
            .iter()
            .map(|c| &self.connectors[*c])
            .filter(|c| c.storefront_configured)
            .map(|c| {
                let s = if c.is_up() { c.ha.as_str() } else { "down" };
                (c.fqdn.clone(), Value::from(s))
            })
            .collect();
        let details = json!({
            "connectors": Self::sorted_object(states),
            "elected": self.elected_fqdn(r),
            "from": rl.ha.as_str(),
            "reason": format!("{driver} is in {state}, the least advanced state of the running StoreFront-configured connectors (the resource location enters HA only when all of them do)"),
            "to": state.as_str(),
        });
        out.push(ev(now, &rl.id, "rl.ha_state", details));
        let rl = &mut self.rls[r];
        rl.ha = state;
        rl.ha_since = now;
    }

    /// FQDN of the elected secondary broker of `r`.
    pub(crate) fn elected_fqdn(&self, r: usize) -> Option<String> {
        let rl = &self.rls[r];
        rl.election
            .elected()
            .map(|k| self.connectors[rl.connectors[k]].fqdn.clone())
    }

    /// Runs the election of `r` again (a connector's availability changed) and logs it.
    pub(crate) fn run_election(&mut self, r: usize, now: SimTime, why: &str, out: &mut Vec<Event>) {
        let previous = self.rls[r].election.elected();
        let members: Vec<(&str, _)> = self.rls[r]
            .connectors
            .iter()
            .map(|c| {
                (
                    self.connectors[*c].fqdn.as_str(),
                    self.connectors[*c].exclusion(),
                )
            })
            .collect();
        let election = elect(&members);
        self.rls[r].election = election;
        self.emit_election(r, now, why, previous, out);
    }

    /// The `election` event: candidate order, excluded connectors and why, the outcome.
    pub(crate) fn emit_election(
        &self,
        r: usize,
        now: SimTime,
        why: &str,
        previous: Option<usize>,
        out: &mut Vec<Event>,
    ) {
        let rl = &self.rls[r];
        let fqdn = |k: usize| self.connectors[rl.connectors[k]].fqdn.clone();
        let elected = rl.election.elected();
        let change = match (previous, elected) {
            _ if !self.started => "initial",
            (_, None) => "none_available",
            (Some(p), Some(e)) if p == e => "unchanged",
            (Some(p), Some(e)) if fqdn(e).to_lowercase() < fqdn(p).to_lowercase() => "take_back",
            _ => "re_election",
        };
        let excluded: Vec<Value> = rl
            .election
            .excluded
            .iter()
            .map(|(k, why)| json!({ "connector": fqdn(*k), "reason": why.text() }))
            .collect();
        let details = json!({
            "candidates": rl.election.order.iter().map(|k| fqdn(*k)).collect::<Vec<_>>(),
            "change": change,
            "elected": elected.map(fqdn),
            "excluded": excluded,
            "previous": previous.map(fqdn),
            "reason": why,
            "rule": RULE,
        });
        out.push(ev(now, &rl.id, "election", details));
    }

    /// The CITRIX-XD-DDC monitor of each connector behind the resource location's ADC VIP:
    /// UP when the probe would get a success code and the farm identity.
    pub(crate) fn update_adc(&mut self, r: usize, now: SimTime, out: &mut Vec<Event>) {
        let in_ha = self.rls[r].ha.is_ha_mode();
        let elected = self.elected_fqdn(r);
        let mut changed = Vec::new();
        for &c in &self.rls[r].connectors {
            let cc = &self.connectors[c];
            let (up, reason) = if !cc.is_up() {
                (false, "connector down".to_owned())
            } else if !cc.rbp_ok {
                (
                    false,
                    "Remote Broker Provider failed: no XML reply".to_owned(),
                )
            } else if in_ha {
                match &elected {
                    Some(e) => (true, format!("HA mode: the elected secondary broker {e} answers with the farm identity")),
                    None => (false, "HA mode but no secondary broker is elected".to_owned()),
                }
            } else if cc.relays_to_cloud() {
                (
                    true,
                    "the cloud broker answers through the Remote Broker Provider".to_owned(),
                )
            } else {
                (false, "the cloud broker cannot be reached through this connector and the resource location is not in HA mode".to_owned())
            };
            if up != cc.adc_up {
                changed.push((c, up, reason));
            }
        }
        for (c, up, _) in &changed {
            self.connectors[*c].adc_up = *up;
        }
        let vip_up = self.adc_vip_up(r);
        for (c, up, reason) in changed {
            let details = json!({
                "reason": reason,
                "resource_location": self.rls[r].id,
                "status": if up { "UP" } else { "DOWN" },
                "vip_status": if vip_up { "UP" } else { "DOWN" },
            });
            out.push(ev(now, &self.connectors[c].fqdn, "adc.monitor", details));
        }
    }

    /// The resource location's ADC VIP is UP when one of its connectors is.
    pub(crate) fn adc_vip_up(&self, r: usize) -> bool {
        self.rls[r]
            .connectors
            .iter()
            .any(|c| self.connectors[*c].adc_up)
    }

    /// Whether the resource location is in HA mode.
    pub(crate) fn in_ha(&self, r: usize) -> bool {
        self.rls[r].ha.is_ha_mode()
    }

    /// The aggregated state of `r`.
    pub(crate) fn rl_state(&self, r: usize) -> HaState {
        self.rls[r].ha
    }
}
