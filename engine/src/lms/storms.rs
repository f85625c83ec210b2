//! Logon storms: `users` new users log on evenly over `over` (SPEC §2 *Load throttling*),
//! from an operator action or the workload's recurring storm.

use serde_json::json;

use super::engine::{ev, LmsEngine};
use super::model::{draw_ip, Storm};
use super::sessions::Launch;
use crate::event::Event;

impl LmsEngine {
    /// Starts storm of `users` over `over_ms` at `now` (`app`: an index, or drawn per user).
    pub(crate) fn start_storm(
        &mut self,
        users: u32,
        over_ms: u64,
        app: Option<u16>,
        now: u64,
        out: &mut Vec<Event>,
    ) {
        self.storm_seq += 1;
        let id = self.storm_seq;
        let storm = Storm {
            id,
            users,
            start: now,
            over: over_ms,
            app,
            next: 0,
            placed: 0,
            rejected: 0,
            rng: self.root_rng.fork(&format!("storm/{id}")),
        };
        let details = json!({
            "app": app.map(|a| self.apps[usize::from(a)].name.clone()),
            "over_ms": over_ms,
            "storm": id,
            "users": users,
        });
        out.push(ev(now, "farm", "storm.started", details));
        self.storms.push(storm);
        self.run_storms(now, out);
    }

    /// The recurring storm of the workload, if due.
    pub(crate) fn recurring_storm(&mut self, now: u64, out: &mut Vec<Event>) {
        let Some(r) = self.cfg.workload.recurring_storm.clone() else {
            self.next_recurring = None;
            return;
        };
        self.next_recurring = Some(now + r.every.as_millis());
        if self.apps.is_empty() {
            return;
        }
        let app = r
            .app
            .as_deref()
            .and_then(|a| self.apps.iter().position(|x| x.name == a))
            .and_then(|a| u16::try_from(a).ok());
        self.start_storm(r.users, r.over.as_millis(), app, now, out);
    }

    /// Logons of the storms due at or before `now`, then `storm.finished` for storms done.
    pub(crate) fn run_storms(&mut self, now: u64, out: &mut Vec<Event>) {
        let mut i = 0;
        while i < self.storms.len() {
            while self.storms[i].next < self.storms[i].users
                && self.storms[i].time_of(self.storms[i].next) <= now
            {
                let mut rng = self.storms[i].rng.clone();
                let at = self.storms[i].time_of(self.storms[i].next);
                self.storms[i].next += 1;
                let ip = draw_ip(&mut rng, &self.clients);
                let app = match self.storms[i].app {
                    Some(a) => usize::from(a),
                    None => rng.below(self.apps.len() as u64) as usize,
                };
                let user = self.new_user();
                let result = self.launch(user, app, ip, at.max(now), Some(&mut rng), out);
                let st = &mut self.storms[i];
                st.rng = rng;
                match result {
                    Launch::Rejected => st.rejected += 1,
                    _ => st.placed += 1,
                }
            }
            let st = &self.storms[i];
            if st.next >= st.users {
                let details = json!({
                    "placed": st.placed,
                    "rejected": st.rejected,
                    "storm": st.id,
                    "users": st.users,
                });
                out.push(ev(now, "farm", "storm.finished", details));
                self.storms.remove(i);
            } else {
                i += 1;
            }
        }
    }
}
