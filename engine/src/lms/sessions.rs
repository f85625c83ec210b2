//! Launches and sessions (SPEC §2 *Placement*): reconnection first, else the least-loaded
//! candidate in the data collectors' view; logons (throttling), disconnections and logoffs;
//! the session timers of the workload model.

use core::net::Ipv4Addr;
use std::cmp::Reverse;

use super::engine::{ev, LmsEngine};
use super::model::{
    draw_exp, generated_name, generated_number, Session, Timer, TimerKind, CONNECTED, DISCONNECTED,
    NAMED,
};
use super::payloads::{Candidate, Excluded, Placed, Rejected};
use super::placement::key_load;
use super::views::ServerPower;
use crate::event::{Details, Event};
use crate::rng::Rng;

/// The result of one launch.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Launch {
    /// Placed on (server) as a new session.
    Placed(u32),
    /// Reconnected to (server).
    Reconnected(u32),
    /// No candidate.
    Rejected,
}

impl LmsEngine {
    /// The name of user `id`.
    pub(crate) fn user_name(&self, id: u32) -> String {
        if id & NAMED != 0 {
            self.named
                .get((id & !NAMED) as usize)
                .cloned()
                .unwrap_or_default()
        } else {
            generated_name(id)
        }
    }

    /// The id of the user called `name`, if known.
    pub(crate) fn find_user(&self, name: &str) -> Option<u32> {
        generated_number(name).or_else(|| self.named_ids.get(name).copied())
    }

    /// The id of the user called `name`, interning it.
    pub(crate) fn intern_user(&mut self, name: &str) -> u32 {
        if let Some(id) = self.find_user(name) {
            return id;
        }
        let id = NAMED | u32::try_from(self.named.len()).unwrap_or(0);
        self.named.push(name.to_owned());
        self.named_ids.insert(name.to_owned(), id);
        id
    }

    /// A fresh generated user (skipping numbers that already hold a session).
    pub(crate) fn new_user(&mut self) -> u32 {
        loop {
            self.next_user += 1;
            if !self.sessions.contains_key(&self.next_user) {
                return self.next_user;
            }
        }
    }

    fn push_timer(&mut self, at: u64, user: u32, serial: u32, kind: TimerKind, extra: u32) {
        self.timer_seq += 1;
        self.timers.push(Reverse(Timer {
            at,
            seq: self.timer_seq,
            user,
            serial,
            kind,
            extra,
        }));
    }

    /// User `user` launches application `app` from `ip` at `now`: reconnects to a
    /// disconnected session of theirs, or is placed on the least-loaded candidate. With
    /// `life`, a new session gets its workload timers from that stream.
    pub(crate) fn launch(
        &mut self,
        user: u32,
        app: usize,
        ip: u32,
        now: u64,
        life: Option<&mut Rng>,
        out: &mut Vec<Event>,
    ) -> Launch {
        if let Some(sess) = self.sessions.get(&user).copied() {
            if sess.state == DISCONNECTED {
                return self.reconnect(user, sess, now, out);
            }
        }
        let index = &self.apps[app].index;
        let chosen = index.choose(|p| self.admits(index.servers[p] as usize, app, ip));
        let survey = index.survey(|p| self.admits(index.servers[p] as usize, app, ip));
        let excluded = Excluded {
            down: survey.down,
            full: survey.full,
            ip_range: survey.ip_range,
            no_collector: survey.no_collector,
        };
        let Some((pos, _)) = chosen else {
            self.rejected += 1;
            let details = Details::of(&Rejected {
                client_ip: Ipv4Addr::from(ip),
                excluded,
                reason: "no server publishing the application is below full load (10000) for this client",
                user: &self.user_name(user),
            });
            out.push(ev(now, &self.apps[app].name, "session.rejected", details));
            return Launch::Rejected;
        };
        let top: Vec<(u32, u32)> = survey
            .top
            .iter()
            .map(|(p, k)| (index.servers[*p], key_load(*k)))
            .collect();
        let s = index.servers[pos] as usize;
        self.serial += 1;
        let serial = self.serial;
        self.sessions.insert(
            user,
            Session {
                server: s as u32,
                ip,
                since: now,
                serial,
                app: u16::try_from(app).unwrap_or(0),
                state: CONNECTED,
            },
        );
        let factor = if self.servers[s].power == ServerPower::Starting {
            u64::from(self.cfg.starting_logon_factor)
        } else {
            1
        };
        let logon = self.cfg.logon_duration.as_millis() * factor;
        let sv = &mut self.servers[s];
        sv.connected += 1;
        sv.add_app_session(u16::try_from(app).unwrap_or(0), 1);
        sv.logons.push((now, now + logon));
        self.recompute_push(s, now);
        self.placements += 1;
        if let Some(rng) = life {
            self.plan_session(user, serial, now, rng);
        }
        let sv = &self.servers[s];
        let candidates: Vec<Candidate<'_>> = top
            .iter()
            .map(|(server, load)| Candidate {
                host: &self.servers[*server as usize].host,
                load: *load,
            })
            .collect();
        let details = Details::of(&Placed {
            app: &self.apps[app].name,
            candidates: &candidates,
            chosen: &sv.host,
            client_ip: Ipv4Addr::from(ip),
            considered: survey.considered,
            excluded: (!excluded.is_none()).then_some(excluded),
            load_after: sv.report,
            mode: "least_loaded",
            user: &self.user_name(user),
        });
        out.push(ev(now, &sv.host, "session.placed", details));
        Launch::Placed(s as u32)
    }

    fn reconnect(&mut self, user: u32, sess: Session, now: u64, out: &mut Vec<Event>) -> Launch {
        let s = sess.server as usize;
        if let Some(x) = self.sessions.get_mut(&user) {
            x.state = CONNECTED;
            x.since = now;
        }
        let sv = &mut self.servers[s];
        sv.disconnected = sv.disconnected.saturating_sub(1);
        sv.connected += 1;
        self.recompute_push(s, now);
        self.placements += 1;
        let sv = &self.servers[s];
        let details = Details::of(&Placed {
            app: &self.apps[usize::from(sess.app)].name,
            candidates: &[],
            chosen: &sv.host,
            client_ip: Ipv4Addr::from(sess.ip),
            considered: 1,
            excluded: None,
            load_after: sv.report,
            mode: "reconnect",
            user: &self.user_name(user),
        });
        out.push(ev(now, &sv.host, "session.placed", details));
        Launch::Reconnected(sess.server)
    }

    /// Draws a new workload session's life: its length, and whether (and when, for how
    /// long) it disconnects first.
    fn plan_session(&mut self, user: u32, serial: u32, now: u64, rng: &mut Rng) {
        let w = &self.cfg.workload;
        let length = draw_exp(rng, w.session_duration.as_millis());
        let disconnects = rng.below(100) < u64::from(w.disconnect_share);
        if disconnects {
            let at = now + (rng.unit_f64() * length as f64) as u64;
            let away = draw_exp(rng, w.disconnected_for.as_millis());
            let rest = (now + length).saturating_sub(at);
            let away_s = u32::try_from(away / 1000).unwrap_or(u32::MAX).max(1);
            let rest_s = u32::try_from(rest / 1000).unwrap_or(u32::MAX).max(1);
            // The away time goes with the disconnection, the rest with the relaunch.
            self.push_timer(at, user, serial, TimerKind::Disconnect, away_s);
            self.push_timer(
                at + u64::from(away_s) * 1000,
                user,
                serial,
                TimerKind::Relaunch,
                rest_s,
            );
        } else {
            self.push_timer(now + length, user, serial, TimerKind::Logoff, 0);
        }
    }

    /// Session timers due at `now`.
    pub(crate) fn run_timers(&mut self, now: u64, out: &mut Vec<Event>) {
        while let Some(Reverse(t)) = self.timers.peek().copied() {
            if t.at > now {
                break;
            }
            self.timers.pop();
            let Some(sess) = self.sessions.get(&t.user).copied() else {
                continue;
            };
            if sess.serial != t.serial {
                continue;
            }
            match t.kind {
                TimerKind::Disconnect => {
                    if sess.state == CONNECTED {
                        self.disconnect(t.user, now);
                        self.servers[sess.server as usize].disconnects += 1;
                    }
                }
                TimerKind::Relaunch if sess.state == CONNECTED => {
                    // Reconnected by hand meanwhile: only the logoff remains.
                    let at = now + u64::from(t.extra) * 1000;
                    self.push_timer(at, t.user, t.serial, TimerKind::Logoff, 0);
                }
                TimerKind::Relaunch => {
                    let app = usize::from(sess.app);
                    if let Launch::Reconnected(_) =
                        self.launch(t.user, app, sess.ip, now, None, out)
                    {
                        let at = now + u64::from(t.extra) * 1000;
                        self.push_timer(at, t.user, t.serial, TimerKind::Logoff, 0);
                    }
                }
                TimerKind::Logoff => {
                    let s = sess.server as usize;
                    self.logoff(t.user, now);
                    self.servers[s].ended += 1;
                }
            }
        }
    }

    /// Disconnects user `user`'s session (it keeps counting towards load).
    pub(crate) fn disconnect(&mut self, user: u32, now: u64) -> bool {
        let Some(sess) = self.sessions.get_mut(&user) else {
            return false;
        };
        if sess.state != CONNECTED {
            return false;
        }
        sess.state = DISCONNECTED;
        sess.since = now;
        let sv = &mut self.servers[sess.server as usize];
        sv.connected = sv.connected.saturating_sub(1);
        sv.disconnected += 1;
        true
    }

    /// Logs user `user`'s session off; the member pushes its new load.
    pub(crate) fn logoff(&mut self, user: u32, now: u64) -> bool {
        let Some(sess) = self.sessions.remove(&user) else {
            return false;
        };
        let s = sess.server as usize;
        let sv = &mut self.servers[s];
        if sess.state == CONNECTED {
            sv.connected = sv.connected.saturating_sub(1);
        } else {
            sv.disconnected = sv.disconnected.saturating_sub(1);
        }
        sv.add_app_session(sess.app, -1);
        self.recompute_push(s, now);
        true
    }

    /// Ends every session of server `s` (it went down); returns how many.
    pub(crate) fn end_all_sessions(&mut self, s: usize) -> u32 {
        let before = self.sessions.len();
        self.sessions.retain(|_, x| x.server as usize != s);
        let sv = &mut self.servers[s];
        sv.connected = 0;
        sv.disconnected = 0;
        for (_, n) in &mut sv.app_sessions {
            *n = 0;
        }
        u32::try_from(before - self.sessions.len()).unwrap_or(u32::MAX)
    }

    /// Sessions of server `s` (user ids), oldest first; disconnected ones first with
    /// `disconnected_first`; only connected ones with `connected_only`.
    pub(crate) fn sessions_of(
        &self,
        s: usize,
        disconnected_first: bool,
        connected_only: bool,
    ) -> Vec<u32> {
        let mut list: Vec<(bool, u64, u32)> = self
            .sessions
            .iter()
            .filter(|(_, x)| x.server as usize == s)
            .filter(|(_, x)| !connected_only || x.state == CONNECTED)
            .map(|(u, x)| (disconnected_first && x.state == CONNECTED, x.since, *u))
            .collect();
        list.sort_unstable();
        list.into_iter().map(|(_, _, u)| u).collect()
    }
}
