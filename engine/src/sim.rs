//! [`Simulation`]: one run of a scenario. Owns the engines (in a fixed order), the clock and
//! the action timeline, and turns "advance to time T" into the ordered list of events.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::action::{Action, ActionError, TimedAction};
use crate::attention::{Attention, Engines, FlappingSubject};
use crate::autoscale::AutoscaleEngine;
use crate::clock::SimTime;
use crate::core::CoreEngine;
use crate::event::{EngineId, Event};
use crate::gslb::views::ResolutionView;
use crate::gslb::GslbEngine;
use crate::lhc::LhcEngine;
use crate::lms::LmsEngine;
use crate::rng::Rng;
use crate::scenario::Scenario;
use crate::step::{Apply, Engine};

/// One deterministic run: the same scenario, seed and actions always give the same events.
///
/// Order of processing: instants in increasing order; at one instant, due actions first (in
/// time, then scheduling order), then each engine in the fixed order of
/// [`EngineId::ALL`]. The first advance emits `simulation.started` at t = 0.
///
/// The whole state serializes, for [`snapshot`](Self::snapshot) and
/// [`restore`](Self::restore) (MessagePack). A format whose map keys must be strings, such as
/// JSON, cannot hold it: some of the engines' maps are keyed by tuples.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Simulation {
    name: String,
    seed: u64,
    heartbeat_count: usize,
    now: SimTime,
    started: bool,
    core: CoreEngine,
    lhc: LhcEngine,
    lms: LmsEngine,
    gslb: GslbEngine,
    autoscale: AutoscaleEngine,
    /// Flap detection over the engines' subjects.
    attention: Attention,
    /// Pending actions keyed by (time, scheduling order).
    timeline: BTreeMap<(SimTime, u64), TimedAction>,
    scheduled: u64,
}

impl Simulation {
    /// A run of `scenario` with `seed` (which overrides `[scenario].seed`), at t = 0. The
    /// scenario's own `[[actions]]` are scheduled; add others with [`schedule`](Self::schedule).
    pub fn new(scenario: &Scenario, seed: u64) -> Simulation {
        let rng = Rng::new(seed);
        let mut sim = Simulation {
            name: scenario.scenario.name.clone(),
            seed,
            heartbeat_count: scenario.core.heartbeats.len(),
            now: SimTime::ZERO,
            started: false,
            core: CoreEngine::new(&scenario.core, &rng),
            lhc: LhcEngine::new(&scenario.lhc, &rng),
            lms: LmsEngine::new(&scenario.lms, &rng),
            gslb: GslbEngine::new(&scenario.gslb, &rng),
            autoscale: AutoscaleEngine::new(&scenario.autoscale, &rng),
            attention: Attention::new(&scenario.attention),
            timeline: BTreeMap::new(),
            scheduled: 0,
        };
        sim.schedule(scenario.actions.clone());
        sim
    }

    /// The current simulated time.
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// The scenario's name.
    pub fn scenario_name(&self) -> &str {
        &self.name
    }

    /// The seed of this run.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The core engine (read-only), e.g. to show heartbeat states.
    pub fn core(&self) -> &CoreEngine {
        &self.core
    }

    /// The Local Host Cache / HA engine (read-only): resource locations, connectors, VDAs.
    pub fn lhc(&self) -> &LhcEngine {
        &self.lhc
    }

    /// The load-management engine (read-only): farm, servers, sessions, evaluators.
    pub fn lms(&self) -> &LmsEngine {
        &self.lms
    }

    /// The GSLB engine (read-only): sites, MEP links, adoption, ADNS.
    pub fn gslb(&self) -> &GslbEngine {
        &self.gslb
    }

    /// The autoscale engine (read-only): groups, clusters, nodes, timelines.
    pub fn autoscale(&self) -> &AutoscaleEngine {
        &self.autoscale
    }

    /// The subjects flapping now, by engine then subject.
    pub fn flapping(&self) -> Vec<FlappingSubject> {
        self.attention.flapping(&self.watched())
    }

    /// Answers a real DNS query now (the ADNS responder): the GSLB engine advances its
    /// round robin and logs the answer (coalesced `adns.answered` events, emitted at the next
    /// advance).
    pub fn resolve_dns(&mut self, domain: &str, client: core::net::IpAddr) -> ResolutionView {
        self.gslb.resolve(self.now, domain, client)
    }

    /// Number of actions scheduled and not yet applied.
    pub fn pending_actions(&self) -> usize {
        self.timeline.len()
    }

    /// Adds actions to the timeline. Actions at the same time run in scheduling order; an
    /// action whose time has passed runs at the next advance, stamped with the then-current
    /// time. Actions are checked when they run: a failing one emits `action.rejected`.
    pub fn schedule(&mut self, actions: Vec<TimedAction>) {
        for action in actions {
            self.timeline.insert((action.at, self.scheduled), action);
            self.scheduled += 1;
        }
    }

    /// The next instant with work (a due action or an engine wakeup); `Some(now)` before the
    /// first advance (the start event is due).
    pub fn next_due(&self) -> Option<SimTime> {
        if !self.started {
            return Some(self.now);
        }
        let action = self.timeline.keys().next().map(|(t, _)| (*t).max(self.now));
        self.engines()
            .iter()
            .filter_map(|e| e.next_wakeup())
            .chain(action)
            .chain(self.attention.next_wakeup())
            .min()
    }

    /// Processes everything due up to and including `target`, then sets the clock to
    /// `target`. A `target` earlier than [`now`](Self::now) changes nothing (apart from the
    /// start event on the very first call).
    pub fn advance_to(&mut self, target: SimTime) -> Vec<Event> {
        let mut out = Vec::new();
        self.start(&mut out);
        if target < self.now {
            return out;
        }
        while let Some(t) = self.next_due().filter(|t| *t <= target) {
            self.now = t;
            self.run_instant(t, &mut out);
        }
        self.now = target;
        out
    }

    /// Advances to the next instant with work (single step). Nothing happens if there is none.
    pub fn step_to_next(&mut self) -> Vec<Event> {
        match self.next_due() {
            Some(t) => self.advance_to(t),
            None => Vec::new(),
        }
    }

    /// Applies an operator action now. On error nothing changes and no event is emitted.
    pub fn apply_now(
        &mut self,
        action: impl Into<Action>,
        actor: Option<String>,
    ) -> Result<Vec<Event>, ActionError> {
        let action = action.into();
        // Checks due up to now see the state before the action (a refused action changes
        // nothing, so recording them first changes nothing either).
        let mut checks = Vec::new();
        self.catch_up_checks(self.now, &mut checks);
        let mut events = Vec::new();
        self.dispatch(self.now, &action, actor.as_deref(), &mut events)?;
        let mut out = Vec::with_capacity(events.len() + checks.len() + 1);
        self.start(&mut out);
        out.append(&mut checks);
        if !events.is_empty() {
            self.after_events(action.engine());
        }
        out.extend(events);
        Ok(out)
    }

    /// Emits `simulation.started` once.
    fn start(&mut self, out: &mut Vec<Event>) {
        if self.started {
            return;
        }
        self.started = true;
        out.push(Event::new(
            SimTime::ZERO,
            EngineId::Core,
            "scenario",
            "simulation.started",
            json!({
                "heartbeats": self.heartbeat_count,
                "scenario": self.name,
                "seed": self.seed,
            }),
        ));
    }

    /// Due actions, then due engines, at instant `t`.
    fn run_instant(&mut self, t: SimTime, out: &mut Vec<Event>) {
        self.catch_up_checks(t, out);
        let mut emitted = [false; EngineId::ALL.len()];
        while let Some(entry) = self.timeline.first_entry() {
            if entry.key().0 > t {
                break;
            }
            let timed = entry.remove();
            let actor = timed.actor.as_deref();
            let before = out.len();
            let result = self.dispatch(t, &timed.action, actor, out);
            emitted[timed.action.engine() as usize] |= out.len() > before;
            if let Err(err) = result {
                let details = json!({
                    "action": timed.action.kind(),
                    "error": err.to_string(),
                });
                let rejected = Event::new(
                    t,
                    timed.action.engine(),
                    "actions",
                    "action.rejected",
                    details,
                );
                out.push(rejected.with_actor(timed.actor.clone()));
            }
        }
        for engine in self.engines_mut() {
            if engine.next_wakeup().is_some_and(|w| w <= t) {
                let before = out.len();
                engine.advance(t, out);
                emitted[engine.id() as usize] |= out.len() > before;
                debug_assert!(
                    engine.next_wakeup().is_none_or(|w| w > t),
                    "engine {} did not move past {t}",
                    engine.id()
                );
            }
        }
        for engine in EngineId::ALL {
            if emitted[engine as usize] {
                self.after_events(engine);
            }
        }
    }

    /// Records the flap-detection checks due up to `t`, before anything happens at `t`.
    fn catch_up_checks(&mut self, t: SimTime, out: &mut Vec<Event>) {
        // The engines borrowed field by field, beside the attention borrowed mutably.
        let watched = Engines {
            lhc: &self.lhc,
            lms: &self.lms,
            gslb: &self.gslb,
            autoscale: &self.autoscale,
        };
        self.attention.catch_up(t, &watched, out);
    }

    /// The engines as flap detection reads them.
    fn watched(&self) -> Engines<'_> {
        Engines {
            lhc: &self.lhc,
            lms: &self.lms,
            gslb: &self.gslb,
            autoscale: &self.autoscale,
        }
    }

    /// `engine` emitted events: its subjects' states may have changed.
    fn after_events(&mut self, engine: EngineId) {
        self.attention.touch(engine, self.now);
    }

    /// Routes the action to the engine it is for; that engine attributes the events the
    /// action caused to `actor` (not the start-up events it may emit first).
    fn dispatch(
        &mut self,
        now: SimTime,
        action: &Action,
        actor: Option<&str>,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        match action {
            Action::Core(a) => self.core.apply(now, a, actor, out),
            Action::Lhc(a) => self.lhc.apply(now, a, actor, out),
            Action::Lms(a) => self.lms.apply(now, a, actor, out),
            Action::Gslb(a) => self.gslb.apply(now, a, actor, out),
            Action::Autoscale(a) => self.autoscale.apply(now, a, actor, out),
        }
    }

    fn engines(&self) -> [&dyn Engine; 5] {
        [
            &self.core,
            &self.lhc,
            &self.lms,
            &self.gslb,
            &self.autoscale,
        ]
    }

    fn engines_mut(&mut self) -> [&mut dyn Engine; 5] {
        [
            &mut self.core,
            &mut self.lhc,
            &mut self.lms,
            &mut self.gslb,
            &mut self.autoscale,
        ]
    }
}
