//! StoreFront's heartbeat to every connector configured as a Delivery Controller: only
//! connectors that answered the last heartbeat are used for enumeration and launches. The
//! view changes only at a heartbeat, so StoreFront can be up to `storefront_heartbeat` late.
//!
//! Heartbeats are scheduled only when some connector's answer differs from StoreFront's view.

use serde_json::json;

use super::engine::{ev, LhcEngine};
use crate::clock::SimTime;
use crate::event::Event;

impl LhcEngine {
    /// Schedules the next heartbeat if a connector of `r` would now answer differently.
    pub(crate) fn storefront_mark(&mut self, r: usize, now: SimTime) {
        if self.sf_due.is_some() {
            return;
        }
        let stale = self.rls[r].connectors.iter().any(|c| {
            let cc = &self.connectors[*c];
            cc.sf_view.is_some_and(|v| v != cc.answers_storefront())
        });
        if stale {
            self.sf_due = Some(self.next_storefront_beat(now));
        }
    }

    /// One heartbeat: StoreFront's view of each configured connector is updated.
    pub(crate) fn storefront_beat(&mut self, now: SimTime, out: &mut Vec<Event>) {
        self.sf_due = None;
        for c in 0..self.connectors.len() {
            let cc = &self.connectors[c];
            let Some(view) = cc.sf_view else {
                continue;
            };
            let answers = cc.answers_storefront();
            if answers == view {
                continue;
            }
            let reason = if answers {
                "answered the StoreFront heartbeat: used again for enumeration and launches"
            } else if !cc.is_up() {
                "did not answer the StoreFront heartbeat (connector down): no longer used for enumeration and launches"
            } else {
                "did not answer the StoreFront heartbeat (Remote Broker Provider failed): no longer used for enumeration and launches"
            };
            let details = json!({
                "healthy": answers,
                "reason": reason,
                "resource_location": self.rls[cc.rl].id,
            });
            out.push(ev(now, &cc.fqdn, "storefront.health", details));
            self.connectors[c].sf_view = Some(answers);
        }
    }
}
