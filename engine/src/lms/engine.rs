//! [`LmsEngine`]: construction, the [`Engine`] implementation, the per-instant order, and the
//! two primitives everything else uses: recomputing a server's load and pushing it to the
//! data collector (which updates the placement index).

use std::collections::{BTreeMap, BTreeSet, BinaryHeap};

use serde::{Deserialize, Serialize};

use super::config::rules::builtin_rules;
use super::config::{LmsConfig, LoadFormula};
use super::model::{App, Server, Session, Storm, TimerEntry, Zone};
use super::placement::{key, AppIndex, Status};
use super::rules::{Evaluator, Inputs};
use super::views::ServerPower;
use crate::clock::SimTime;
use crate::event::{Details, EngineId, Event};
use crate::rng::Rng;
use crate::step::Engine;

/// Minutes in a week (simulated time 0 is Monday 00:00).
const WEEK_MIN: u64 = 7 * 1440;

/// The load-management engine: zones and data collectors, servers, evaluators, sessions,
/// placement and logon storms of `[lms]` (SPEC §2). Read it through the query methods
/// ([`farm`](Self::farm), [`servers`](Self::servers), [`sessions`](Self::sessions), ...);
/// change it only through actions.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LmsEngine {
    pub(crate) cfg: LmsConfig,
    pub(crate) evaluators: Vec<Evaluator>,
    pub(crate) apps: Vec<App>,
    pub(crate) zones: Vec<Zone>,
    pub(crate) servers: Vec<Server>,
    /// Sessions by user id (at most one per user).
    pub(crate) sessions: BTreeMap<u32, Session>,
    /// Users interned by name (ids with the `NAMED` bit).
    pub(crate) named: Vec<String>,
    pub(crate) named_ids: BTreeMap<String, u32>,
    /// Last generated user number.
    pub(crate) next_user: u32,
    pub(crate) serial: u32,
    pub(crate) timers: BinaryHeap<TimerEntry>,
    pub(crate) timer_seq: u64,
    /// (when, server) of power transitions.
    pub(crate) power_timers: BTreeSet<(u64, u32)>,
    pub(crate) storms: Vec<Storm>,
    pub(crate) storm_seq: u32,
    pub(crate) next_recurring: Option<u64>,
    pub(crate) next_counter: u64,
    pub(crate) next_dc: u64,
    pub(crate) next_sample: u64,
    pub(crate) placements: u64,
    pub(crate) rejected: u64,
    /// Draws of operator launches without an address.
    pub(crate) launch_rng: Rng,
    pub(crate) root_rng: Rng,
    /// Client ranges as u32.
    pub(crate) clients: Vec<(u32, u32)>,
    pub(crate) started: bool,
    /// The last instant processed.
    pub(crate) now: u64,
}

/// An event of this engine.
pub(crate) fn ev(now: u64, subject: &str, kind: &str, details: impl Into<Details>) -> Event {
    Event::new(SimTime(now), EngineId::Lms, subject, kind, details)
}

impl LmsEngine {
    /// The engine at the start of a run. It draws from `rng.fork("lms")`, forked again per
    /// server (`server/<host lower-case>`: counter noise), per storm (`storm/<n>`: users'
    /// addresses, applications and session lengths) and for operator launches (`launch`).
    pub fn new(config: &LmsConfig, rng: &Rng) -> LmsEngine {
        let rng = rng.fork("lms");
        let mut evaluators: Vec<Evaluator> = Vec::new();
        let app_index = |name: &str| config.applications.iter().position(|a| a.name == name);
        for name in ["Default", "Advanced"] {
            let rules = builtin_rules(name).unwrap_or_default();
            evaluators.push(Evaluator::compile(
                name,
                &rules,
                &config.throttle,
                app_index,
            ));
        }
        for e in &config.evaluators {
            evaluators.push(Evaluator::compile(
                &e.name,
                &e.rules,
                &config.throttle,
                app_index,
            ));
        }
        let eval_of = |name: &str| {
            evaluators
                .iter()
                .position(|e| e.name == name)
                .and_then(|i| u32::try_from(i).ok())
                .unwrap_or(0)
        };
        let zones: Vec<Zone> = config
            .zones
            .iter()
            .map(|z| Zone {
                id: z.id.clone(),
                name: z.name.clone(),
                servers: Vec::new(),
                collector: None,
                ranking: Vec::new(),
            })
            .collect();
        let mut engine = LmsEngine {
            cfg: config.clone(),
            evaluators: Vec::new(),
            apps: Vec::new(),
            zones,
            servers: Vec::new(),
            sessions: BTreeMap::new(),
            named: Vec::new(),
            named_ids: BTreeMap::new(),
            next_user: 0,
            serial: 0,
            timers: BinaryHeap::new(),
            timer_seq: 0,
            power_timers: BTreeSet::new(),
            storms: Vec::new(),
            storm_seq: 0,
            next_recurring: None,
            next_counter: 0,
            next_dc: 0,
            next_sample: 0,
            placements: 0,
            rejected: 0,
            launch_rng: rng.fork("launch"),
            root_rng: rng.clone(),
            clients: config
                .workload
                .clients
                .iter()
                .map(|r| (u32::from(r.start), u32::from(r.end)))
                .collect(),
            started: false,
            now: 0,
        };
        let model = &config.workload.counters;
        for (i, s) in config.servers.iter().enumerate() {
            let zone = config
                .zones
                .iter()
                .position(|z| z.id == s.zone)
                .unwrap_or(0);
            let apps: Vec<u16> = s
                .apps
                .iter()
                .filter_map(|a| app_index(a))
                .filter_map(|a| u16::try_from(a).ok())
                .collect();
            let mut srng = rng.fork(&format!("server/{}", s.host.to_lowercase()));
            let cpu_base =
                model.cpu_base_min + (model.cpu_base_max - model.cpu_base_min) * srng.unit_f64();
            let id = u32::try_from(i + 1).unwrap_or(u32::MAX);
            if let Some(z) = engine.zones.get_mut(zone) {
                z.servers.push(id - 1);
            }
            engine.servers.push(Server {
                host: s.host.clone(),
                id,
                zone: u32::try_from(zone).unwrap_or(0),
                evaluator: eval_of(&s.evaluator),
                app_pos: vec![0; apps.len()],
                app_sessions: apps.iter().map(|a| (*a, 0)).collect(),
                report_apps: vec![0; apps.len()],
                dc_apps: vec![0; apps.len()],
                apps,
                preference: s.election_preference,
                power: ServerPower::Up,
                power_until: None,
                started_ms: None,
                connected: 0,
                disconnected: 0,
                logons: Vec::new(),
                counters: [0.0; 7],
                cpu_base,
                spikes: [None, None],
                load: 0,
                report: 0,
                dc_load: None,
                dc_updated: None,
                dc_contact: None,
                rng: srng,
                ended: 0,
                disconnects: 0,
                pushes_delta: 0,
                pushes_requested: 0,
                push_from: None,
                last_sample: None,
            });
        }
        engine.apps = config
            .applications
            .iter()
            .map(|a| App {
                name: a.name.clone(),
                evaluator: a.evaluator.as_deref().map(eval_of),
                index: AppIndex::new(Vec::new(), Vec::new()),
            })
            .collect();
        engine.evaluators = evaluators;
        engine.rebuild_indexes();
        engine
    }

    /// Rebuilds every application's placement index (after an evaluator change).
    pub(crate) fn rebuild_indexes(&mut self) {
        let mut members: Vec<Vec<u32>> = vec![Vec::new(); self.apps.len()];
        for (si, s) in self.servers.iter_mut().enumerate() {
            for (k, a) in s.apps.iter().enumerate() {
                let list = &mut members[usize::from(*a)];
                s.app_pos[k] = u32::try_from(list.len()).unwrap_or(0);
                list.push(u32::try_from(si).unwrap_or(0));
            }
        }
        for (a, list) in members.into_iter().enumerate() {
            let app_eval = self.apps[a].evaluator;
            let restricted = list
                .iter()
                .map(|s| {
                    let se = self.servers[*s as usize].evaluator;
                    self.evaluators[se as usize].ip_ranges.is_some()
                        || app_eval.is_some_and(|e| self.evaluators[e as usize].ip_ranges.is_some())
                })
                .collect();
            self.apps[a].index = AppIndex::new(list, restricted);
        }
        for s in 0..self.servers.len() {
            self.refresh_leaves(s);
        }
    }

    /// The inputs of server `s`'s rules at `now`.
    fn inputs(&self, s: usize, now: u64) -> Inputs<'_> {
        let sv = &self.servers[s];
        let units = sv
            .logons
            .iter()
            .filter(|(_, end)| *end > now)
            .map(|(start, end)| {
                let len = (end - start).max(1) as f64;
                ((end - now) as f64 / len).clamp(0.0, 1.0)
            })
            .sum();
        Inputs {
            counters: sv.counters,
            sessions: sv.sessions(),
            app_sessions: &sv.app_sessions,
            logon_units: units,
            minute_of_week: u32::try_from((now / 60_000) % WEEK_MIN).unwrap_or(0),
        }
    }

    /// The rule loads of server `s` under evaluator `e` at `now`.
    pub(crate) fn rule_loads_of(&self, s: usize, e: usize, now: u64) -> Vec<f64> {
        self.evaluators[e].rule_loads(&self.inputs(s, now))
    }

    /// The load index of server `s` under its own evaluator at `now`, with `formula` whatever
    /// the farm's (the formula audit).
    pub(crate) fn index_with(&self, s: usize, formula: LoadFormula, now: u64) -> u32 {
        let e = &self.evaluators[self.servers[s].evaluator as usize];
        e.index(&self.inputs(s, now), formula)
    }

    /// The load index of server `s` under evaluator `e` at `now`.
    pub(crate) fn index_under(&self, s: usize, e: &Evaluator, now: u64) -> u32 {
        e.index(&self.inputs(s, now), self.cfg.formula)
    }

    /// Recomputes server `s`'s true load and what it would report (SPEC §2: a starting
    /// server reports 10000 with the black-hole fix, 0 without).
    pub(crate) fn recompute(&mut self, s: usize, now: u64) {
        // Per application, written in place (no allocation: this runs for every server at
        // every counter tick). An application evaluator other than the server's raises it.
        let mut report_apps = std::mem::take(&mut self.servers[s].report_apps);
        let inputs = self.inputs(s, now);
        let sv = &self.servers[s];
        let load = self.evaluators[sv.evaluator as usize].index(&inputs, self.cfg.formula);
        let starting = match sv.power {
            ServerPower::Starting => Some(if self.cfg.black_hole_fix { 10_000 } else { 0 }),
            _ => None,
        };
        report_apps.resize(sv.apps.len(), 0);
        for (r, a) in report_apps.iter_mut().zip(&sv.apps) {
            *r = match (starting, self.apps[usize::from(*a)].evaluator) {
                (Some(v), _) => v,
                (None, Some(e)) if e != sv.evaluator => {
                    load.max(self.evaluators[e as usize].index(&inputs, self.cfg.formula))
                }
                (None, _) => load,
            };
        }
        let sv = &mut self.servers[s];
        sv.load = load;
        sv.report = starting.unwrap_or(load);
        sv.report_apps = report_apps;
    }

    /// The member pushes its values to the data collector (state only).
    pub(crate) fn push(&mut self, s: usize, now: u64) {
        let sv = &mut self.servers[s];
        sv.dc_load = Some(sv.report);
        sv.dc_apps.clone_from(&sv.report_apps);
        sv.dc_updated = Some(now);
        sv.dc_contact = Some(now);
        self.refresh_leaves(s);
    }

    /// Recomputes then pushes.
    pub(crate) fn recompute_push(&mut self, s: usize, now: u64) {
        self.recompute(s, now);
        self.push(s, now);
    }

    /// Updates server `s`'s entries in the placement index of each of its applications.
    pub(crate) fn refresh_leaves(&mut self, s: usize) {
        let sv = &self.servers[s];
        let has_collector = self.zones[sv.zone as usize].collector.is_some();
        for (k, a) in sv.apps.iter().enumerate() {
            let (status, key_) = match (sv.power, sv.dc_load) {
                (ServerPower::Down, _) | (_, None) => (Status::Down, 0),
                _ if !has_collector => (Status::NoCollector, 0),
                _ if sv.dc_apps[k] >= 10_000 => (Status::Full, 0),
                _ => (Status::Candidate, key(sv.dc_apps[k], sv.id)),
            };
            self.apps[usize::from(*a)]
                .index
                .set(sv.app_pos[k] as usize, status, key_);
        }
    }

    /// Whether a client at `ip` may be placed on server `s` for application `a` (the IP
    /// range rules of the server's and the application's evaluators).
    pub(crate) fn admits(&self, s: usize, a: usize, ip: u32) -> bool {
        let se = self.servers[s].evaluator as usize;
        self.evaluators[se].admits(ip)
            && self.apps[a]
                .evaluator
                .is_none_or(|e| self.evaluators[e as usize].admits(ip))
    }

    /// The initial state at t = 0: loads, elections (events), first pushes.
    pub(crate) fn start(&mut self, out: &mut Vec<Event>) {
        if self.started {
            return;
        }
        self.started = true;
        for s in 0..self.servers.len() {
            self.update_counters(s, 0);
            self.recompute(s, 0);
        }
        for z in 0..self.zones.len() {
            self.elect(z, 0, "initial election", out);
        }
        self.next_counter = self.cfg.counter_interval.as_millis();
        self.next_dc = self.cfg.dc_refresh.as_millis();
        self.next_sample = self.cfg.sample_interval.as_millis();
        self.next_recurring = self
            .cfg
            .workload
            .recurring_storm
            .as_ref()
            .map(|r| r.every.as_millis());
    }

    /// The earliest instant with work.
    fn wakeup(&self) -> Option<u64> {
        if self.servers.is_empty() {
            return None;
        }
        if !self.started {
            return Some(0);
        }
        let storms = self.storms.iter().map(|st| st.time_of(st.next)).min();
        [
            Some(self.next_counter),
            Some(self.next_dc),
            Some(self.next_sample),
            self.next_recurring,
            storms,
            self.power_timers.first().map(|(t, _)| *t),
            self.timers.peek().map(|t| t.0.at),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// Everything due at `t`, in a fixed order: power transitions, recurring storm start,
    /// storm logons, session timers, counter tick, collector tick, samples.
    fn run_instant(&mut self, t: u64, out: &mut Vec<Event>) {
        self.now = t;
        while let Some(&(at, s)) = self.power_timers.first() {
            if at > t {
                break;
            }
            self.power_timers.remove(&(at, s));
            self.power_step(s as usize, at, out);
        }
        if self.next_recurring.is_some_and(|r| r <= t) {
            self.recurring_storm(t, out);
        }
        self.run_storms(t, out);
        self.run_timers(t, out);
        if self.next_counter <= t {
            self.counter_tick(t);
            self.next_counter = t + self.cfg.counter_interval.as_millis();
        }
        if self.next_dc <= t {
            self.collector_tick(t, out);
            self.next_dc = t + self.cfg.dc_refresh.as_millis();
        }
        if self.next_sample <= t {
            self.sample_tick(t, out);
            self.next_sample = t + self.cfg.sample_interval.as_millis();
        }
    }
}

impl Engine for LmsEngine {
    fn id(&self) -> EngineId {
        EngineId::Lms
    }

    fn next_wakeup(&self) -> Option<SimTime> {
        self.wakeup().map(SimTime)
    }

    fn advance(&mut self, now: SimTime, out: &mut Vec<Event>) {
        if self.servers.is_empty() {
            return;
        }
        self.start(out);
        while let Some(t) = self.wakeup().filter(|t| *t <= now.as_millis()) {
            self.run_instant(t, out);
        }
    }
}
