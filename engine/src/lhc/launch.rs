//! Launches through StoreFront, logoffs and maintenance mode.
//!
//! StoreFront spreads launches round robin over the connectors that answered its last
//! heartbeat. With AdvancedHealthCheck it only considers connectors of resource locations
//! that publish the resource; without it a launch can land on a resource location that
//! cannot serve it, which fails in HA mode (no cross-zone brokering). In normal operation the
//! cloud broker sees the whole deployment and can place the launch anywhere.

use serde_json::{json, Value};

use super::config::VdaKind;
use super::engine::{ev, LhcEngine};
use super::vdas::{code_connector, secondary_code, CLOUD, STALE};
use crate::clock::SimTime;
use crate::event::Event;

/// The user of a launch when the action names none.
const DEFAULT_USER: &str = "test-user";

impl LhcEngine {
    /// Resource locations that publish `resource`.
    fn holders(&self, resource: &str) -> Vec<usize> {
        let mut out: Vec<usize> = self
            .vdas
            .pools
            .iter()
            .filter(|p| p.publishes(resource))
            .map(|p| p.rl)
            .collect();
        out.dedup();
        out
    }

    /// The least loaded VDA registered as `code` (in `rl`, or anywhere when `None`) that
    /// publishes `resource`, is not in maintenance and has a free session.
    fn place(&self, resource: &str, rl: Option<usize>, code: u16) -> Option<u32> {
        let mut best: Option<(u16, u32)> = None;
        for pool in self.vdas.pools.iter().filter(|p| p.publishes(resource)) {
            if rl.is_some_and(|r| r != pool.rl) {
                continue;
            }
            for v in pool.start..pool.start + pool.count {
                let g = v as usize;
                let s = self.vdas.sessions[g];
                if self.vdas.broker[g] == code
                    && !self.vdas.maintenance[g]
                    && s < pool.capacity
                    && best.is_none_or(|(b, _)| s < b)
                {
                    best = Some((s, v));
                }
            }
        }
        best.map(|(_, v)| v)
    }

    /// A test launch of `resource` for `user`.
    pub(crate) fn test_launch(
        &mut self,
        resource: &str,
        user: Option<&str>,
        now: SimTime,
        out: &mut Vec<Event>,
    ) {
        let user = user.unwrap_or(DEFAULT_USER);
        let ahc = self.s.advanced_health_check;
        let holders = self.holders(resource);
        let route = if ahc {
            "AdvancedHealthCheck: StoreFront routes the launch to a resource location that publishes the resource"
        } else {
            "AdvancedHealthCheck off: StoreFront spreads launches over every healthy connector, whatever it publishes"
        };
        let candidates: Vec<usize> = (0..self.connectors.len())
            .filter(|c| self.connectors[*c].sf_view == Some(true))
            .filter(|c| !ahc || holders.contains(&self.connectors[*c].rl))
            .collect();
        let fail = |subject: &str, connector: Option<&str>, reason: String| {
            let details = json!({
                "connector": connector,
                "reason": reason,
                "resource": resource,
                "route": route,
                "user": user,
            });
            ev(now, subject, "launch.failed", details)
        };
        if candidates.is_empty() {
            let reason =
                "no StoreFront-configured connector answered the last StoreFront heartbeat"
                    .to_owned();
            out.push(fail("storefront", None, reason));
            return;
        }
        let len = u64::try_from(candidates.len()).unwrap_or(1);
        let pick = candidates[usize::try_from(self.launches % len).unwrap_or(0)];
        self.launches += 1;
        let c = &self.connectors[pick];
        let r = c.rl;
        let rl_id = self.rls[r].id.clone();
        let fqdn = c.fqdn.clone();
        if !c.answers_storefront() {
            let reason = "the connector did not answer (StoreFront still lists it as healthy until its next heartbeat)".to_owned();
            out.push(fail(&rl_id, Some(&fqdn), reason));
            return;
        }
        let (code, scope, broker) = if self.in_ha(r) {
            let Some(k) = self.rls[r].election.elected() else {
                let reason = format!("{rl_id} is in HA mode but no secondary broker is elected");
                out.push(fail(&rl_id, Some(&fqdn), reason));
                return;
            };
            if !holders.contains(&r) {
                let mut reason = format!("{resource} is not published in {rl_id}, which is in HA mode: its secondary broker brokers only the VDAs of its own resource location (no cross-zone brokering)");
                if !ahc {
                    reason.push_str("; without AdvancedHealthCheck StoreFront cannot route the launch to a resource location that holds it");
                }
                out.push(fail(&rl_id, Some(&fqdn), reason));
                return;
            }
            let broker = self.connectors[self.rls[r].connectors[k]].fqdn.clone();
            (secondary_code(k), Some(r), broker)
        } else {
            if !c.relays_to_cloud() {
                let reason = format!("the connector cannot reach the cloud broker and {rl_id} is not in HA mode ({})", self.rl_state(r));
                out.push(fail(&rl_id, Some(&fqdn), reason));
                return;
            }
            (CLOUD, None, "cloud".to_owned())
        };
        let Some(v) = self.place(resource, scope, code) else {
            let reason = format!("no VDA registered with {broker} publishes {resource} with a free session (outside maintenance mode)");
            out.push(fail(&rl_id, Some(&fqdn), reason));
            return;
        };
        let g = v as usize;
        self.vdas.sessions[g] += 1;
        if let Some(k) = code_connector(code) {
            let cc = self.rls[r].connectors[k];
            self.connectors[cc].known_sessions += 1;
        }
        let vda_rl = self.vdas.pool_of(v).map_or(r, |p| p.rl);
        let details = json!({
            "broker": broker,
            "connector": fqdn,
            "resource": resource,
            "route": route,
            "sessions": self.vdas.sessions[g],
            "user": user,
            "vda": self.vdas.name(v),
            "vda_resource_location": self.rls[vda_rl].id,
        });
        out.push(ev(now, &rl_id, "launch.succeeded", details));
    }

    /// Every session of VDA `v` logs off. A pooled VDI desktop brokered by a secondary (HA
    /// mode) cannot be reset: it goes into maintenance unless its delivery group allows the
    /// reset (`pooled_reset_in_ha`) or turned maintenance off.
    pub(crate) fn vda_logoff(&mut self, v: u32, now: SimTime, out: &mut Vec<Event>) {
        let g = v as usize;
        let Some(pool) = self.vdas.pool_of(v) else {
            return;
        };
        let (kind, rl, group) = (pool.kind, pool.rl, pool.group);
        let ended = std::mem::take(&mut self.vdas.sessions[g]);
        let code = self.vdas.broker[g];
        let on_secondary = code & STALE == 0 && code_connector(code).is_some();
        if let Some(k) = code_connector(code).filter(|_| on_secondary) {
            let cc = self.rls[rl].connectors[k];
            let known = &mut self.connectors[cc].known_sessions;
            *known = known.saturating_sub(u64::from(ended));
        }
        let dg = self.groups.get(group);
        let dg_id = dg.map_or("", |d| d.id.as_str());
        let pooled = kind == VdaKind::PooledVdi;
        let (outcome, reason) = match () {
            _ if !pooled => ("logged_off", "sessions ended".to_owned()),
            _ if code == CLOUD => (
                "reset",
                "the cloud broker resets the pooled desktop image at logoff".to_owned(),
            ),
            _ if !on_secondary => (
                "not_reset",
                "the VDA is not registered: no broker resets the image".to_owned(),
            ),
            _ if dg.is_some_and(|d| d.pooled_reset_in_ha) => (
                "reset",
                format!("HA mode, but delivery group {dg_id} allows power operations in HA mode (pooled_reset_in_ha): the image is reset"),
            ),
            _ if dg.is_none_or(|d| d.maintenance_on_logoff_in_ha) => {
                self.vdas.maintenance[g] = true;
                (
                    "maintenance",
                    "HA mode: the image cannot be reset, so the desktop goes into maintenance mode (no other user gets a tainted image)".to_owned(),
                )
            }
            _ => (
                "not_reset",
                format!("HA mode: the image cannot be reset and delivery group {dg_id} turned maintenance on logoff off: the next user may get a tainted image"),
            ),
        };
        let details = json!({
            "delivery_group": dg_id,
            "kind": kind.as_str(),
            "outcome": outcome,
            "reason": reason,
            "resource_location": self.rls[rl].id,
            "sessions_ended": ended,
        });
        out.push(ev(now, &self.vdas.name(v), "vda.logoff", details));
    }

    /// An operator turns maintenance mode on or off for VDA `v`.
    pub(crate) fn vda_maintenance(
        &mut self,
        v: u32,
        enabled: bool,
        now: SimTime,
        out: &mut Vec<Event>,
    ) {
        self.vdas.maintenance[v as usize] = enabled;
        let rl = self.vdas.pool_of(v).map_or(0, |p| p.rl);
        let details: Value = json!({
            "enabled": enabled,
            "reason": "operator action",
            "resource_location": self.rls.get(rl).map(|r| r.id.as_str()),
        });
        out.push(ev(now, &self.vdas.name(v), "vda.maintenance", details));
    }
}
