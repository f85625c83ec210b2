//! VDA registration: which broker the VDAs of a resource location should use, the sweep that
//! moves each VDA at its next heartbeat, lost and rejected registrations, the purge after an
//! outage, and the aggregated registration events.
//!
//! Only heartbeats that change something are scheduled: when the target broker of a resource
//! location changes at `T`, a *sweep* visits its VDAs in the order of their next contact
//! (`T < t <= T + vda_heartbeat_max`, from each VDA's phase). A VDA already registered with
//! the target does nothing and emits nothing.

use serde_json::{json, Value};

use super::engine::{ev, LhcEngine};
use super::model::{Counts, Sweep, Target};
use super::vdas::{code_connector, secondary_code, CLOUD, STALE, UNREGISTERED};
use crate::clock::SimTime;
use crate::event::Event;

impl LhcEngine {
    /// The broker the VDAs of `r` should register with now.
    pub(crate) fn desired_target(&self, r: usize) -> Target {
        let rl = &self.rls[r];
        if rl.ha.is_ha_mode() {
            return rl
                .election
                .elected()
                .map_or(Target::Unregistered, Target::Secondary);
        }
        let conns = || rl.connectors.iter().map(|c| &self.connectors[*c]);
        if conns().any(|c| c.relays_to_cloud()) {
            return Target::Cloud;
        }
        if rl.ha_ready && conns().any(|c| c.storefront_configured && c.is_up()) {
            return Target::Hold;
        }
        Target::Unregistered
    }

    fn target_code(t: Target) -> Option<u16> {
        match t {
            Target::Hold => None,
            Target::Unregistered => Some(UNREGISTERED),
            Target::Cloud => Some(CLOUD),
            Target::Secondary(k) => Some(secondary_code(k)),
        }
    }

    /// VDAs of `r` registered as `code`.
    pub(crate) fn count_at(&self, r: usize, code: u16) -> u32 {
        let rl = &self.rls[r];
        match code {
            CLOUD => rl.cloud,
            UNREGISTERED => rl.unregistered,
            _ => code_connector(code)
                .and_then(|k| rl.connectors.get(k))
                .map_or(0, |c| self.connectors[*c].held),
        }
    }

    /// Why VDAs go to `t` (the `reason` of `registrations.moved`).
    fn target_reason(&self, r: usize, t: Target) -> String {
        let rl = &self.rls[r];
        match t {
            Target::Secondary(k) => format!(
                "HA mode ({}): VDAs register with the elected secondary broker {} at their next heartbeat",
                rl.ha,
                self.connectors[rl.connectors[k]].fqdn
            ),
            Target::Cloud if rl.connectors.iter().any(|c| self.connectors[*c].held > 0) => {
                "brokering is back with the cloud broker: VDAs re-register with it through a Remote Broker Provider at their next heartbeat".to_owned()
            }
            Target::Cloud => "VDAs register with the cloud broker through a Remote Broker Provider at their next heartbeat".to_owned(),
            Target::Unregistered if rl.ha.is_ha_mode() => {
                "HA mode but no secondary broker is elected (every High Availability Service is down): VDAs cannot register".to_owned()
            }
            Target::Unregistered if !rl.ha_ready => {
                "no connector relays to the cloud broker and the resource location is not HA-ready (no connector configured in StoreFront): VDAs cannot register".to_owned()
            }
            Target::Unregistered => {
                "no connector relays to the cloud broker and no StoreFront-configured connector runs to enter HA mode: VDAs cannot register".to_owned()
            }
            Target::Hold => String::new(),
        }
    }

    /// Recomputes the target broker of `r`: drops registrations on secondaries that may not
    /// hold any (in HA mode, only the elected one brokers), and starts a sweep when the
    /// target changes or some VDA is not at the target.
    pub(crate) fn update_target(&mut self, r: usize, now: SimTime, out: &mut Vec<Event>) {
        if self.rls[r].ha.is_ha_mode() {
            let elected = self.rls[r].election.elected();
            let name = self.elected_fqdn(r).unwrap_or_else(|| "none".to_owned());
            for k in 0..self.rls[r].connectors.len() {
                let c = self.rls[r].connectors[k];
                if Some(k) != elected && self.connectors[c].held > 0 {
                    let reason = format!("no longer the elected secondary broker (elected: {name}): in HA mode it rejects registrations; its VDAs re-register with the elected one at their next heartbeat");
                    self.drop_registrations(r, k, now, &reason, out);
                }
            }
        }
        let want = self.desired_target(r);
        let Some(code) = Self::target_code(want) else {
            self.rls[r].target = want;
            self.rls[r].sweep = None;
            return;
        };
        let changed = self.rls[r].target != want;
        let behind = self.count_at(r, code) < self.rls[r].vda_count;
        if changed || (behind && self.rls[r].sweep.is_none()) {
            self.rls[r].target = want;
            let reason = self.target_reason(r, want);
            self.start_sweep(r, now, reason);
        }
    }

    fn start_sweep(&mut self, r: usize, now: SimTime, reason: String) {
        let period = self.s.vda_period.as_millis().max(1);
        let rem = now.as_millis() % period;
        let rl = &self.rls[r];
        let first = rl
            .order
            .partition_point(|v| self.vdas.phase_ms(rl.vda_start + v) <= rem);
        self.rls[r].sweep = (rl.vda_count > 0).then_some(Sweep {
            start: now,
            first,
            done: 0,
            reason,
        });
    }

    /// Every VDA of the current sweep whose contact is due at or before `now`.
    pub(crate) fn run_sweep(&mut self, r: usize, now: SimTime) {
        let n = self.rls[r].order.len();
        if self.sweep_next(r).is_some_and(|t| t <= now) && self.rls[r].moves.reason.is_empty() {
            if let Some(s) = &self.rls[r].sweep {
                self.rls[r].moves.reason = s.reason.clone();
            }
        }
        while self.sweep_next(r).is_some_and(|t| t <= now) {
            let Some(sweep) = self.rls[r].sweep.as_mut() else {
                break;
            };
            let pos = (sweep.first + sweep.done) % n;
            sweep.done += 1;
            let v = self.rls[r].order[pos];
            self.contact(r, v);
        }
        if self.rls[r].sweep.as_ref().is_some_and(|s| s.done >= n) {
            self.rls[r].sweep = None;
            if self.rls[r].target == Target::Cloud {
                self.rls[r].moves.purge = true;
            }
        }
    }

    /// VDA `off` of `r` contacts a broker: rejected by the secondary it last used if that one
    /// is not elected in HA mode, then registered with the target.
    fn contact(&mut self, r: usize, off: u32) {
        let g = (self.rls[r].vda_start + off) as usize;
        let Some(want) = Self::target_code(self.rls[r].target) else {
            return;
        };
        let mut code = self.vdas.broker[g];
        if code & STALE != 0 {
            if let Some(k) = code_connector(code) {
                let c = self.rls[r].connectors[k];
                let rl = &self.rls[r];
                if rl.ha.is_ha_mode()
                    && rl.election.elected() != Some(k)
                    && self.connectors[c].secondary_alive()
                {
                    self.rls[r].moves.reject(k);
                }
            }
            self.vdas.broker[g] = UNREGISTERED;
            code = UNREGISTERED;
        }
        if code == want {
            return;
        }
        let sessions = u64::from(self.vdas.sessions[g]);
        let in_ha = self.rls[r].ha.is_ha_mode();
        match code {
            CLOUD => self.rls[r].cloud -= 1,
            UNREGISTERED => self.rls[r].unregistered -= 1,
            _ => {
                if let Some(k) = code_connector(code) {
                    let cc = &mut self.connectors[self.rls[r].connectors[k]];
                    cc.held = cc.held.saturating_sub(1);
                    cc.known_sessions = cc.known_sessions.saturating_sub(sessions);
                    if !in_ha {
                        cc.leftover += 1;
                    }
                }
            }
        }
        match want {
            CLOUD => self.rls[r].cloud += 1,
            UNREGISTERED => self.rls[r].unregistered += 1,
            _ => {
                if let Some(k) = code_connector(want) {
                    let cc = &mut self.connectors[self.rls[r].connectors[k]];
                    cc.held += 1;
                    cc.known_sessions += sessions;
                    self.rls[r].moves.sessions_learned += sessions;
                }
            }
        }
        self.vdas.broker[g] = want;
        let global = self.rls[r].vda_start + off;
        self.rls[r].moves.record(code, want, global);
    }

    /// The secondary broker on connector `k` of `r` loses every registration it holds (it
    /// went down, its HA service failed, or it is no longer elected in HA mode). The VDAs are
    /// unregistered until their next heartbeat.
    pub(crate) fn drop_registrations(
        &mut self,
        r: usize,
        k: usize,
        now: SimTime,
        reason: &str,
        out: &mut Vec<Event>,
    ) {
        let c = self.rls[r].connectors[k];
        if self.connectors[c].held == 0 {
            return;
        }
        let code = secondary_code(k);
        let rl = &self.rls[r];
        let range = rl.vda_start as usize..(rl.vda_start + rl.vda_count) as usize;
        let mut n = 0u32;
        for b in &mut self.vdas.broker[range] {
            if *b == code {
                *b = code | STALE;
                n += 1;
            }
        }
        let cc = &mut self.connectors[c];
        cc.held = cc.held.saturating_sub(n);
        let sessions = std::mem::take(&mut cc.known_sessions);
        self.rls[r].unregistered += n;
        let details = json!({
            "count": n,
            "reason": reason,
            "resource_location": self.rls[r].id,
            "sessions": sessions,
        });
        out.push(ev(
            now,
            &self.connectors[c].fqdn,
            "registrations.dropped",
            details,
        ));
    }

    /// End of a sweep back to the cloud: each secondary deletes the registrations left over
    /// from the outage.
    fn purge_leftovers(&mut self, r: usize, now: SimTime, out: &mut Vec<Event>) {
        for c in self.rls[r].connectors.clone() {
            let leftover = std::mem::take(&mut self.connectors[c].leftover);
            if leftover > 0 {
                let details = json!({
                    "purged": leftover,
                    "reason": "every VDA re-registered with the cloud broker: the secondary broker deletes the registrations left over from the outage",
                    "resource_location": self.rls[r].id,
                });
                out.push(ev(
                    now,
                    &self.connectors[c].fqdn,
                    "registrations.purged",
                    details,
                ));
            }
        }
    }

    /// The registration counts of `r`.
    pub(crate) fn counts(&self, r: usize) -> Counts {
        let rl = &self.rls[r];
        Counts {
            cloud: rl.cloud,
            unregistered: rl.unregistered,
            secondary: rl
                .connectors
                .iter()
                .map(|c| self.connectors[*c].held)
                .collect(),
        }
    }

    /// A broker code as written in events: `cloud`, `unregistered` or the connector's FQDN.
    fn code_name(&self, r: usize, code: u16) -> String {
        match code {
            CLOUD => "cloud".to_owned(),
            UNREGISTERED => "unregistered".to_owned(),
            _ => code_connector(code)
                .and_then(|k| self.rls[r].connectors.get(k))
                .map_or_else(
                    || "unregistered".to_owned(),
                    |c| self.connectors[*c].fqdn.clone(),
                ),
        }
    }

    /// The aggregated events of `r` for this instant: rejections, moves, and the summary of
    /// counts when they changed.
    pub(crate) fn flush(&mut self, r: usize, now: SimTime, out: &mut Vec<Event>) {
        let moves = std::mem::take(&mut self.rls[r].moves);
        let rl = &self.rls[r];
        for (k, count) in &moves.rejected {
            let details = json!({
                "count": count,
                "elected": self.elected_fqdn(r),
                "reason": "not the elected secondary broker: in HA mode it actively rejects VDA registrations",
                "resource_location": rl.id,
            });
            let fqdn = &self.connectors[rl.connectors[*k]].fqdn;
            out.push(ev(now, fqdn, "registrations.rejected", details));
        }
        if !moves.flows.is_empty() {
            let flows: Vec<Value> = moves
                .flows
                .iter()
                .map(|(from, to, count)| {
                    json!({
                        "count": count,
                        "from": self.code_name(r, *from),
                        "to": self.code_name(r, *to),
                    })
                })
                .collect();
            let sample: Vec<String> = moves.sample.iter().map(|v| self.vdas.name(*v)).collect();
            let details = json!({
                "moves": flows,
                "reason": moves.reason,
                "sample": sample,
                "sessions_learned": moves.sessions_learned,
            });
            out.push(ev(now, &rl.id, "registrations.moved", details));
        }
        let counts = self.counts(r);
        if self.rls[r].published.as_ref() != Some(&counts) {
            let secondary: Vec<(String, Value)> = counts
                .secondary
                .iter()
                .enumerate()
                .filter(|(_, n)| **n > 0)
                .map(|(k, n)| {
                    (
                        self.connectors[rl.connectors[k]].fqdn.clone(),
                        Value::from(*n),
                    )
                })
                .collect();
            let details = json!({
                "cloud": counts.cloud,
                "secondary": Self::sorted_object(secondary),
                "unregistered": counts.unregistered,
            });
            out.push(ev(now, &rl.id, "registrations", details));
            self.rls[r].published = Some(counts);
        }
        if moves.purge {
            self.purge_leftovers(r, now, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lhc::config::{Connector, LhcConfig, ResourceLocation};
    use crate::lhc::ha_state::HaState;
    use crate::rng::Rng;

    fn engine(storefront: bool) -> LhcEngine {
        let connector = |fqdn: &str| Connector {
            fqdn: fqdn.into(),
            storefront_configured: storefront,
        };
        let config = LhcConfig {
            resource_locations: vec![ResourceLocation {
                id: "rl".into(),
                name: "RL".into(),
                connectors: vec![connector("b.x"), connector("a.x")],
                vda_pools: Vec::new(),
            }],
            ..LhcConfig::default()
        };
        LhcEngine::new(&config, &Rng::new(1))
    }

    #[test]
    fn target_table() {
        // (HA-ready, RL state, link up on both, forced on both, both HA services up) => target
        let rows = [
            (
                true,
                HaState::WorkingNormally,
                true,
                false,
                true,
                Target::Cloud,
            ),
            (true, HaState::PendingHa, true, false, true, Target::Cloud),
            (true, HaState::PendingHa, false, false, true, Target::Hold),
            (
                true,
                HaState::WorkingNormally,
                true,
                true,
                true,
                Target::Hold,
            ),
            (
                true,
                HaState::HaInitial,
                false,
                true,
                true,
                Target::Secondary(1),
            ),
            (
                true,
                HaState::ExtendedHa,
                false,
                true,
                true,
                Target::Secondary(1),
            ),
            (
                true,
                HaState::PendingRecovery,
                true,
                false,
                true,
                Target::Secondary(1),
            ),
            (
                true,
                HaState::ExtendedHa,
                false,
                true,
                false,
                Target::Unregistered,
            ),
            (
                false,
                HaState::WorkingNormally,
                false,
                false,
                true,
                Target::Unregistered,
            ),
            (
                false,
                HaState::WorkingNormally,
                true,
                true,
                true,
                Target::Unregistered,
            ),
            (
                false,
                HaState::WorkingNormally,
                true,
                false,
                true,
                Target::Cloud,
            ),
        ];
        for (i, (ready, state, link, forced, ha_ok, want)) in rows.into_iter().enumerate() {
            let mut e = engine(ready);
            e.rls[0].ha = state;
            for c in &mut e.connectors {
                c.link_up = link;
                c.forced = forced;
                c.ha_ok = ha_ok;
            }
            let members: Vec<(&str, _)> = e
                .connectors
                .iter()
                .map(|c| (c.fqdn.as_str(), c.exclusion()))
                .collect();
            e.rls[0].election = crate::lhc::election::elect(&members);
            assert_eq!(e.desired_target(0), want, "row {i}");
        }
    }
}
