//! What some checked actions do beyond one call: re-evaluating servers after a configuration
//! change, disconnecting or logging off the sessions an action names, drawing a client
//! address.

use core::net::Ipv4Addr;

use serde_json::json;

use super::engine::{ev, LmsEngine};
use super::model::draw_ip;
use super::views::ServerPower;
use crate::event::Event;

impl LmsEngine {
    /// Servers whose evaluation changed recompute and push at once (a configuration change
    /// reaches every server).
    pub(crate) fn reevaluate(&mut self, servers: &[usize], now: u64) {
        for &s in servers {
            if self.servers[s].power == ServerPower::Down {
                continue;
            }
            let has = self.zones[self.servers[s].zone as usize]
                .collector
                .is_some();
            if has {
                self.recompute_push(s, now);
            } else {
                self.recompute(s, now);
            }
        }
    }

    /// Disconnects (`logoff` false) or logs off the sessions an action names, then one
    /// `sessions.disconnected` / `sessions.logged_off` event with how many it touched.
    pub(crate) fn sessions_action(
        &mut self,
        logoff: bool,
        user: Option<&str>,
        server: Option<&str>,
        count: u32,
        now: u64,
        out: &mut Vec<Event>,
    ) {
        let (subject, users) = self.targets(user, server, count, logoff, !logoff);
        let mut done = 0u32;
        for u in users {
            let touched = if logoff {
                self.logoff(u, now)
            } else {
                self.disconnect(u, now)
            };
            if touched {
                done += 1;
            }
        }
        let kind = if logoff {
            "sessions.logged_off"
        } else {
            "sessions.disconnected"
        };
        out.push(ev(now, &subject, kind, json!({ "count": done })));
    }

    /// (subject, user ids) an action on sessions names.
    fn targets(
        &self,
        user: Option<&str>,
        server: Option<&str>,
        count: u32,
        disconnected_first: bool,
        connected_only: bool,
    ) -> (String, Vec<u32>) {
        if let Some(u) = user {
            return (u.to_owned(), self.find_user(u).into_iter().collect());
        }
        let s = server.and_then(|h| self.cfg.server_index(h)).unwrap_or(0);
        let mut list = self.sessions_of(s, disconnected_first, connected_only);
        list.truncate(count as usize);
        (self.servers[s].host.clone(), list)
    }

    /// A client address for a what-if launch.
    pub(crate) fn client_ip(&mut self) -> Ipv4Addr {
        Ipv4Addr::from(draw_ip(&mut self.launch_rng, &self.clients))
    }
}
