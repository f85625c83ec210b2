//! The update cadence (SPEC §2 *Update cadence*): performance counters and the members'
//! ±push_threshold check every `counter_interval`, the data collector's own refresh, pings
//! and requests every `dc_refresh`, `load.sample` every `sample_interval`; and the power
//! cycle of servers (down, starting, up) with the elections it causes.

use serde_json::json;

use super::engine::{ev, LmsEngine};
use super::model::Server;
use super::payloads::{Ended, EndedOn, Pushed, Pushes, Sample, ServerSample};
use super::rules::Counter;
use super::views::ServerPower;
use crate::event::{Details, Event};

/// One member's entry of a zone's `load.pushed`: how often it pushed since the last one, the
/// collector's view before the first push and now, and the true load now.
fn pushed(sv: &Server) -> Pushed {
    Pushed {
        delta: sv.pushes_delta,
        from: sv.push_from,
        load: sv.dc_load,
        requested: sv.pushes_requested,
        true_load: sv.load,
    }
}

/// Counts a push of server `sv` (whose collector view was `from` before it).
fn count_push(sv: &mut Server, from: Option<u32>, requested: bool) {
    if sv.pushes_delta == 0 && sv.pushes_requested == 0 {
        sv.push_from = from;
    }
    if requested {
        sv.pushes_requested += 1;
    } else {
        sv.pushes_delta += 1;
    }
}

impl LmsEngine {
    /// Recomputes server `s`'s counters from the workload model, its noise stream and spikes.
    pub(crate) fn update_counters(&mut self, s: usize, now: u64) {
        let m = &self.cfg.workload.counters;
        let sv = &mut self.servers[s];
        if sv.power == ServerPower::Down {
            sv.counters = [0.0; 7];
            return;
        }
        let c = f64::from(sv.connected);
        let d = f64::from(sv.disconnected);
        let logons = sv.logons.iter().filter(|(_, e)| *e > now).count() as f64;
        let mut noise = || 1.0 + m.noise * (2.0 * sv.rng.unit_f64() - 1.0);
        let mut k = [0.0f64; 7];
        k[Counter::Cpu as usize] = ((sv.cpu_base
            + m.cpu_per_session * c
            + m.cpu_per_disconnected * d
            + m.cpu_per_logon * logons)
            * noise())
        .clamp(0.0, 100.0);
        k[Counter::Memory as usize] =
            ((m.memory_base + m.memory_per_session * (c + d)) * noise()).clamp(0.0, 100.0);
        k[Counter::PageFaults as usize] =
            (m.page_faults_base + m.page_faults_per_session * c) * noise();
        k[Counter::ContextSwitches as usize] =
            (m.context_switches_base + m.context_switches_per_session * c) * noise();
        k[Counter::DiskDataIo as usize] = (m.disk_io_base + m.disk_io_per_session * c) * noise();
        k[Counter::DiskOperations as usize] =
            (m.disk_ops_base + m.disk_ops_per_session * c) * noise();
        for (i, counter) in [Counter::Cpu, Counter::Memory].into_iter().enumerate() {
            match sv.spikes[i] {
                Some((v, until)) if until > now => k[counter as usize] = v,
                Some(_) => sv.spikes[i] = None,
                None => {}
            }
        }
        let mem = k[Counter::Memory as usize];
        k[Counter::PageSwaps as usize] = (mem - 80.0).max(0.0) * m.page_swaps_per_pct * noise();
        sv.counters = k;
    }

    /// Every `counter_interval`: counters, logons in progress or completed (the collector
    /// follows the throttling rule live, no event), and the ±threshold check (pushes are
    /// counted; `sample_tick` reports them per zone).
    pub(crate) fn counter_tick(&mut self, now: u64) {
        let threshold = i64::from(self.cfg.push_threshold);
        for z in 0..self.zones.len() {
            let has_collector = self.zones[z].collector.is_some();
            for i in 0..self.zones[z].servers.len() {
                let s = self.zones[z].servers[i] as usize;
                if self.servers[s].power == ServerPower::Down {
                    continue;
                }
                // Throttling is evaluated live by the collector (`RealTimeRules: d`): while
                // logons are in progress, or when one completes, the view follows silently.
                let throttling = !self.servers[s].logons.is_empty();
                if throttling {
                    self.servers[s].logons.retain(|(_, end)| *end > now);
                }
                self.update_counters(s, now);
                self.recompute(s, now);
                let sv = &self.servers[s];
                let drift = match sv.dc_load {
                    Some(v) => {
                        let mut d = (i64::from(sv.report) - i64::from(v)).abs();
                        for (a, b) in sv.report_apps.iter().zip(&sv.dc_apps) {
                            d = d.max((i64::from(*a) - i64::from(*b)).abs());
                        }
                        d >= threshold
                    }
                    None => false,
                };
                let from = sv.dc_load;
                if throttling && has_collector {
                    self.push(s, now);
                } else if drift && has_collector {
                    self.push(s, now);
                    count_push(&mut self.servers[s], from, false);
                }
            }
        }
    }

    /// Every `dc_refresh`: each collector refreshes its own values, pings members silent for
    /// `ping_after` (a down member fails: `server.unreachable`) and requests the values of
    /// members without an update for `request_after` (counted as `requested` pushes when the
    /// view changed; `sample_tick` reports them per zone).
    pub(crate) fn collector_tick(&mut self, now: u64, out: &mut Vec<Event>) {
        let ping = self.cfg.ping_after.as_millis();
        let request = self.cfg.request_after.as_millis();
        for z in 0..self.zones.len() {
            let Some(dc) = self.zones[z].collector else {
                continue;
            };
            self.recompute_push(dc as usize, now);
            for i in 0..self.zones[z].servers.len() {
                let s = self.zones[z].servers[i] as usize;
                if s == dc as usize {
                    continue;
                }
                let sv = &self.servers[s];
                let silent = sv.dc_contact.is_none_or(|c| now.saturating_sub(c) >= ping);
                if sv.power == ServerPower::Down {
                    if silent && sv.dc_load.is_some() {
                        let details = json!({
                            "collector": self.servers[dc as usize].host,
                            "last_contact_ms": sv.dc_contact,
                            "reason": "no answer to the collector's ping",
                        });
                        out.push(ev(now, &sv.host, "server.unreachable", details));
                        let sv = &mut self.servers[s];
                        sv.dc_load = None;
                        self.refresh_leaves(s);
                    }
                    continue;
                }
                if sv
                    .dc_updated
                    .is_none_or(|u| now.saturating_sub(u) >= request)
                {
                    let from = sv.dc_load;
                    self.recompute_push(s, now);
                    if from != Some(self.servers[s].report) {
                        count_push(&mut self.servers[s], from, true);
                    }
                } else if silent {
                    self.servers[s].dc_contact = Some(now);
                }
            }
        }
    }

    /// Every `sample_interval`, per zone: one `load.pushed` (the members that pushed since
    /// the last one, with counts per reason), one `sessions.ended` (the members with logoffs
    /// or disconnections since the last one), and one `load.sample` listing its servers that
    /// are not down and whose sessions or loads changed since their last sample. An event
    /// with nothing to list is not emitted.
    pub(crate) fn sample_tick(&mut self, now: u64, out: &mut Vec<Event>) {
        let mut pushes: Vec<(usize, Pushed)> = Vec::new();
        let mut ended: Vec<(usize, EndedOn)> = Vec::new();
        let mut samples: Vec<(usize, ServerSample)> = Vec::new();
        for z in 0..self.zones.len() {
            pushes.clear();
            ended.clear();
            samples.clear();
            for i in 0..self.zones[z].servers.len() {
                let s = self.zones[z].servers[i] as usize;
                let sv = &mut self.servers[s];
                if sv.pushes_delta != 0 || sv.pushes_requested != 0 {
                    pushes.push((s, pushed(sv)));
                    sv.pushes_delta = 0;
                    sv.pushes_requested = 0;
                    sv.push_from = None;
                }
                if sv.ended != 0 || sv.disconnects != 0 {
                    let entry = EndedOn {
                        count: sv.ended,
                        disconnected: sv.disconnects,
                        load_after: sv.load,
                    };
                    sv.ended = 0;
                    sv.disconnects = 0;
                    ended.push((s, entry));
                }
            }
            for i in 0..self.zones[z].servers.len() {
                let s = self.zones[z].servers[i] as usize;
                if let Some(sample) = self.sample_of(s, now) {
                    samples.push((s, sample));
                }
            }
            let zone = &self.zones[z].id;
            let host = |s: usize| self.servers[s].host.as_str();
            if !pushes.is_empty() {
                let pushes = pushes.drain(..).map(|(s, p)| (host(s), p)).collect();
                let details = Details::of(&Pushes { pushes });
                out.push(ev(now, zone, "load.pushed", details));
            }
            if !ended.is_empty() {
                let servers = ended.drain(..).map(|(s, e)| (host(s), e)).collect();
                let details = Details::of(&Ended { servers });
                out.push(ev(now, zone, "sessions.ended", details));
            }
            if !samples.is_empty() {
                let servers = samples.drain(..).map(|(s, e)| (host(s), e)).collect();
                let details = Details::of(&Sample { servers });
                out.push(ev(now, zone, "load.sample", details));
            }
        }
    }

    /// Server `s`'s entry of its zone's `load.sample`, when it is not down and its sessions or
    /// loads changed since its last sample (which this records).
    fn sample_of(&mut self, s: usize, now: u64) -> Option<ServerSample> {
        let sv = &self.servers[s];
        if sv.power == ServerPower::Down {
            self.servers[s].last_sample = None;
            return None;
        }
        let sample = [
            sv.connected,
            sv.disconnected,
            sv.load,
            sv.dc_load.unwrap_or(u32::MAX),
        ];
        if sv.last_sample == Some(sample) {
            return None;
        }
        let e = sv.evaluator as usize;
        let loads = self.rule_loads_of(s, e, now);
        // Rules at 0 are left out (they add nothing to the index or the chart).
        let rules = self.evaluators[e]
            .rules
            .iter()
            .zip(loads)
            .map(|(rule, l)| (rule.code(), (l * 10.0).round() / 10.0))
            .filter(|(_, shown)| *shown > 0.0)
            .collect();
        let entry = ServerSample {
            connected: sv.connected,
            dc_load: sv.dc_load,
            disconnected: sv.disconnected,
            load: sv.load,
            rules,
        };
        self.servers[s].last_sample = Some(sample);
        Some(entry)
    }

    /// Takes server `s` down: its sessions end, it reboots (down for `reboot_duration`).
    pub(crate) fn take_down(&mut self, s: usize, now: u64, reason: &str, out: &mut Vec<Event>) {
        let ended = self.end_all_sessions(s);
        let until = now + self.cfg.reboot_duration.as_millis();
        let sv = &mut self.servers[s];
        if let Some(t) = sv.power_until {
            self.power_timers.remove(&(t, s as u32));
        }
        sv.power = ServerPower::Down;
        sv.power_until = Some(until);
        sv.logons.clear();
        sv.spikes = [None, None];
        sv.ended = 0;
        sv.disconnects = 0;
        self.power_timers.insert((until, s as u32));
        self.update_counters(s, now);
        self.recompute(s, now);
        self.refresh_leaves(s);
        let sv = &self.servers[s];
        let details = json!({
            "boot_ms": until,
            "reason": reason,
            "sessions_ended": ended,
        });
        out.push(ev(now, &sv.host, "server.down", details));
        let z = sv.zone as usize;
        if self.zones[z].collector == Some(s as u32) {
            let why = format!("collector {} went down ({reason})", sv.host);
            self.elect(z, now, &why, out);
        }
    }

    /// A power transition of server `s` is due: down → starting (it contacts its collector)
    /// or starting → up.
    pub(crate) fn power_step(&mut self, s: usize, now: u64, out: &mut Vec<Event>) {
        match self.servers[s].power {
            ServerPower::Down => {
                let up_at = now + self.cfg.services_start.as_millis();
                let sv = &mut self.servers[s];
                sv.power = ServerPower::Starting;
                sv.started_ms = Some(now);
                sv.power_until = Some(up_at);
                self.power_timers.insert((up_at, s as u32));
                self.update_counters(s, now);
                self.recompute_push(s, now);
                let sv = &self.servers[s];
                let details = json!({
                    "black_hole_fix": self.cfg.black_hole_fix,
                    "reported_load": sv.report,
                    "services_up_ms": up_at,
                });
                out.push(ev(now, &sv.host, "server.starting", details));
            }
            ServerPower::Starting => {
                let sv = &mut self.servers[s];
                sv.power = ServerPower::Up;
                sv.power_until = None;
                self.update_counters(s, now);
                self.recompute_push(s, now);
                let sv = &self.servers[s];
                let details = json!({
                    "load": sv.load,
                    "sessions": sv.sessions(),
                });
                out.push(ev(now, &sv.host, "server.up", details));
                let z = sv.zone as usize;
                if self.zones[z].collector.is_none() {
                    let why = format!("{} is up", self.servers[s].host);
                    self.elect(z, now, &why, out);
                }
            }
            ServerPower::Up => {}
        }
    }

    /// Elects zone `z`'s data collector among its servers that are up: election preference
    /// first, then host id. Members push their values to the new collector.
    pub(crate) fn elect(&mut self, z: usize, now: u64, reason: &str, out: &mut Vec<Event>) {
        let mut ranking: Vec<u32> = self.zones[z]
            .servers
            .iter()
            .copied()
            .filter(|s| self.servers[*s as usize].power == ServerPower::Up)
            .collect();
        ranking.sort_by_key(|s| {
            let sv = &self.servers[*s as usize];
            (sv.preference, sv.id)
        });
        let zone = &mut self.zones[z];
        zone.collector = ranking.first().copied();
        zone.ranking = ranking;
        let hosts: Vec<&str> = zone
            .ranking
            .iter()
            .map(|s| self.servers[*s as usize].host.as_str())
            .collect();
        match zone.collector {
            Some(c) => {
                let details = json!({
                    "collector": self.servers[c as usize].host,
                    "ranking": hosts,
                    "reason": reason,
                });
                out.push(ev(now, &zone.id, "collector.elected", details));
            }
            None => {
                let details = json!({
                    "reason": format!("{reason}; no server of the zone is up"),
                });
                out.push(ev(now, &zone.id, "collector.none", details));
            }
        }
        let has = self.zones[z].collector.is_some();
        for i in 0..self.zones[z].servers.len() {
            let s = self.zones[z].servers[i] as usize;
            if has && self.servers[s].power != ServerPower::Down {
                self.recompute_push(s, now);
            } else {
                self.refresh_leaves(s);
            }
        }
    }
}
