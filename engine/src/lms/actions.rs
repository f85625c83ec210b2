//! Operator actions of the load-management engine: state checks (what the configuration
//! alone cannot tell) and their application at `now`.

use core::net::Ipv4Addr;

use serde_json::json;

use super::engine::{ev, LmsEngine};
use super::model::draw_ip;
use super::sessions::Launch;
use super::views::ServerPower;
use crate::action::{Action, ActionError, SpikeCounter};
use crate::event::Event;
use crate::scenario::lms_actions::invalid;

impl LmsEngine {
    fn server_of(&self, host: &str) -> Result<usize, ActionError> {
        self.cfg
            .server_index(host)
            .ok_or_else(|| self.cfg.unknown_server("server", host))
    }

    fn app_of(&self, name: &str) -> Result<usize, ActionError> {
        self.cfg
            .app_index(name)
            .ok_or_else(|| self.cfg.unknown_app("app", name))
    }

    /// Checks what depends on the state; on `Err` nothing changes.
    pub(crate) fn check_state(&self, action: &Action) -> Result<(), ActionError> {
        match action {
            Action::LogonStorm { .. } | Action::AppLaunch { .. } if self.servers.is_empty() => {
                invalid("app", "the farm has no server")
            }
            Action::AppLaunch { user, .. } => {
                let connected = self
                    .find_user(user)
                    .and_then(|u| self.sessions.get(&u))
                    .is_some_and(|s| s.state == super::model::CONNECTED);
                if connected {
                    return Err(ActionError::NoChange(format!(
                        "user \"{user}\" already has a connected session"
                    )));
                }
                Ok(())
            }
            Action::ServerReboot { server } => {
                let s = self.server_of(server)?;
                if self.servers[s].power == ServerPower::Down {
                    return Err(ActionError::NoChange(format!(
                        "server \"{}\" is already down",
                        self.servers[s].host
                    )));
                }
                Ok(())
            }
            Action::KillCollector { zone } => {
                let z = self.zones.iter().find(|z| z.id == *zone);
                if z.is_some_and(|z| z.collector.is_none()) {
                    return Err(ActionError::NoChange(format!(
                        "zone \"{zone}\" has no data collector"
                    )));
                }
                Ok(())
            }
            Action::CounterSpike { server, .. } => {
                let s = self.server_of(server)?;
                if self.servers[s].power == ServerPower::Down {
                    return Err(ActionError::NoChange(format!(
                        "server \"{}\" is down",
                        self.servers[s].host
                    )));
                }
                Ok(())
            }
            Action::DisconnectSessions {
                user: Some(user), ..
            }
            | Action::LogoffSessions {
                user: Some(user), ..
            } => {
                let has = self
                    .find_user(user)
                    .is_some_and(|u| self.sessions.contains_key(&u));
                if !has {
                    return Err(ActionError::NoChange(format!(
                        "user \"{user}\" has no session"
                    )));
                }
                if let Action::DisconnectSessions { .. } = action {
                    let connected = self
                        .find_user(user)
                        .and_then(|u| self.sessions.get(&u))
                        .is_some_and(|s| s.state == super::model::CONNECTED);
                    if !connected {
                        return Err(ActionError::NoChange(format!(
                            "user \"{user}\" has no connected session"
                        )));
                    }
                }
                Ok(())
            }
            Action::DisconnectSessions {
                server: Some(server),
                ..
            } => {
                let s = self.server_of(server)?;
                if self.servers[s].connected == 0 {
                    return Err(ActionError::NoChange(format!(
                        "server \"{}\" has no connected session",
                        self.servers[s].host
                    )));
                }
                Ok(())
            }
            Action::LogoffSessions {
                server: Some(server),
                ..
            } => {
                let s = self.server_of(server)?;
                if self.servers[s].sessions() == 0 {
                    return Err(ActionError::NoChange(format!(
                        "server \"{}\" has no session",
                        self.servers[s].host
                    )));
                }
                Ok(())
            }
            Action::EvaluatorSave {
                name,
                rules,
                replaces,
            } => self.check_save(name, rules, replaces.as_deref()),
            Action::EvaluatorDelete { name } => self.check_delete(name),
            Action::EvaluatorAssign { evaluator, .. } => {
                self.evaluator_index(evaluator).map(|_| ())
            }
            Action::EvaluatorUnassign { application } => {
                let a = self.app_of(application)?;
                if self.apps[a].evaluator.is_none() {
                    return Err(ActionError::NoChange(format!(
                        "application \"{application}\" has no evaluator of its own"
                    )));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Applies a checked action at `now`.
    pub(crate) fn apply_checked(&mut self, now: u64, action: &Action, out: &mut Vec<Event>) {
        match action {
            Action::LogonStorm { users, over, app } => {
                let app = app
                    .as_deref()
                    .and_then(|a| self.cfg.app_index(a))
                    .and_then(|a| u16::try_from(a).ok());
                self.start_storm(*users, over.as_millis(), app, now, out);
            }
            Action::AppLaunch {
                user,
                app,
                client_ip,
            } => {
                let a = self.app_of(app).unwrap_or(0);
                let ip = match client_ip {
                    Some(ip) => u32::from(*ip),
                    None => draw_ip(&mut self.launch_rng, &self.clients),
                };
                let u = self.intern_user(user);
                let _: Launch = self.launch(u, a, ip, now, None, out);
            }
            Action::ServerReboot { server } => {
                let s = self.server_of(server).unwrap_or(0);
                self.take_down(s, now, "reboot by an operator", out);
            }
            Action::KillCollector { zone } => {
                let z = self.zones.iter().position(|x| x.id == *zone).unwrap_or(0);
                if let Some(c) = self.zones[z].collector {
                    let details = json!({
                        "collector": self.servers[c as usize].host,
                        "sessions": self.servers[c as usize].sessions(),
                    });
                    out.push(ev(now, zone, "collector.killed", details));
                    self.take_down(c as usize, now, "the data collector crashed", out);
                }
            }
            Action::CounterSpike {
                server,
                counter,
                percent,
                duration,
            } => {
                let s = self.server_of(server).unwrap_or(0);
                let until = now + duration.as_millis();
                let i = match counter {
                    SpikeCounter::Cpu => 0,
                    SpikeCounter::Memory => 1,
                };
                self.servers[s].spikes[i] = Some((f64::from(*percent), until));
                self.update_counters(s, now);
                self.recompute(s, now);
                let sv = &self.servers[s];
                let details = json!({
                    "counter": match counter { SpikeCounter::Cpu => "cpu", SpikeCounter::Memory => "memory" },
                    "load": sv.load,
                    "percent": percent,
                    "until_ms": until,
                });
                out.push(ev(now, &sv.host, "counter.spike", details));
            }
            Action::DisconnectSessions {
                user,
                server,
                count,
            } => self.sessions_action(false, user.as_deref(), server.as_deref(), *count, now, out),
            Action::LogoffSessions {
                user,
                server,
                count,
            } => self.sessions_action(true, user.as_deref(), server.as_deref(), *count, now, out),
            Action::EvaluatorSave {
                name,
                rules,
                replaces,
            } => self.save_evaluator(name, rules, replaces.as_deref(), now, out),
            Action::EvaluatorDelete { name } => self.delete_evaluator(name, now, out),
            Action::EvaluatorAssign {
                evaluator,
                servers,
                applications,
            } => self.assign_evaluator(evaluator, servers, applications, now, out),
            Action::EvaluatorUnassign { application } => {
                self.unassign_evaluator(application, now, out);
            }
            Action::FarmSettings {
                black_hole_fix,
                formula,
            } => {
                if let Some(f) = black_hole_fix {
                    self.cfg.black_hole_fix = *f;
                }
                if let Some(f) = formula {
                    self.cfg.formula = *f;
                }
                let all: Vec<usize> = (0..self.servers.len()).collect();
                self.reevaluate(&all, now);
                let details = json!({
                    "black_hole_fix": self.cfg.black_hole_fix,
                    "formula": self.cfg.formula,
                });
                out.push(ev(now, "farm", "farm.settings", details));
            }
            _ => {}
        }
    }

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
    fn sessions_action(
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
