//! Attention: flap detection over the engines' subjects.
//!
//! One detector ([`crate::flap`]) is used by every engine. Each engine lists the subjects
//! that can flap and their states (the `watched` module of each engine folder):
//!
//! | engine | kind | state |
//! |---|---|---|
//! | LHC | `resource_location` | its HA state (Working Normally … Pending Recovery) |
//! | LHC | `connector` | its health: healthy, a component failed, restarting, down |
//! | load management | `zone` | which server is its data collector |
//! | GSLB | `site` | UP or DOWN |
//! | GSLB | `mep_link` | a parent-parent MEP link's status: ACTIVE, INACTIVE, DOWN |
//! | GSLB | `child` | the parent holding the child (its own, a backup, none) |
//! | autoscale | `cluster` | the direction of its latest scale event (out or in) |
//!
//! [`Attention`] holds one [`watch::Watch`] per engine, configured by `[attention]`
//! ([`AttentionConfig`]). The [`Simulation`](crate::Simulation) tells it when instants pass
//! and which engines emitted events, and it emits `flapping.started` / `flapping.stopped`
//! events attributed to the subject's engine.

pub mod config;
pub(crate) mod watch;

use serde::{Deserialize, Serialize};

pub use self::config::{AttentionConfig, FlapConfig};
pub use self::watch::FlappingSubject;
use self::watch::{Watch, Watched};
use crate::clock::SimTime;
use crate::event::{EngineId, Event};

/// The four engines' watches (the core engine has no subject that can flap).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attention {
    lhc: Watch,
    lms: Watch,
    gslb: Watch,
    autoscale: Watch,
    /// The earliest instant at which a watch's catch-up has anything to do.
    due: Option<SimTime>,
}

/// The engines an [`Attention`] reads, in the simulation's order.
pub(crate) struct Engines<'a> {
    pub(crate) lhc: &'a dyn Watched,
    pub(crate) lms: &'a dyn Watched,
    pub(crate) gslb: &'a dyn Watched,
    pub(crate) autoscale: &'a dyn Watched,
}

impl Engines<'_> {
    fn get(&self, engine: EngineId) -> Option<&dyn Watched> {
        match engine {
            EngineId::Core => None,
            EngineId::Lhc => Some(self.lhc),
            EngineId::Lms => Some(self.lms),
            EngineId::Gslb => Some(self.gslb),
            EngineId::Autoscale => Some(self.autoscale),
        }
    }
}

impl Attention {
    /// The watches of a run with this `[attention]` section.
    pub fn new(config: &AttentionConfig) -> Attention {
        Attention {
            lhc: Watch::new(EngineId::Lhc, &config.lhc),
            lms: Watch::new(EngineId::Lms, &config.lms),
            gslb: Watch::new(EngineId::Gslb, &config.gslb),
            autoscale: Watch::new(EngineId::Autoscale, &config.autoscale),
            due: None,
        }
    }

    fn watch_mut(&mut self, engine: EngineId) -> Option<&mut Watch> {
        match engine {
            EngineId::Core => None,
            EngineId::Lhc => Some(&mut self.lhc),
            EngineId::Lms => Some(&mut self.lms),
            EngineId::Gslb => Some(&mut self.gslb),
            EngineId::Autoscale => Some(&mut self.autoscale),
        }
    }

    fn watches(&self) -> [&Watch; 4] {
        [&self.lhc, &self.lms, &self.gslb, &self.autoscale]
    }

    /// The next instant at which a check may start or stop flapping.
    pub fn next_wakeup(&self) -> Option<SimTime> {
        self.watches().iter().filter_map(|w| w.next_wakeup()).min()
    }

    /// Before the instant `t` changes anything: records every check due up to `t`, in the
    /// engines' order.
    pub(crate) fn catch_up(&mut self, t: SimTime, engines: &Engines<'_>, out: &mut Vec<Event>) {
        if self.due.is_none_or(|d| t < d) {
            return;
        }
        let from = out.len();
        for engine in EngineId::ALL {
            if let (Some(watch), Some(e)) = (self.watch_mut(engine), engines.get(engine)) {
                watch.catch_up(t, e, out);
            }
        }
        // Each watch's events are in time order; merge them (stable: engines' order at one
        // instant).
        out[from..].sort_by_key(|e| e.t_ms);
        self.reschedule();
    }

    fn reschedule(&mut self) {
        self.due = self.watches().iter().filter_map(|w| w.due()).min();
    }

    /// `engine` emitted events at `t`: its subjects are sampled at its next grid instant.
    pub(crate) fn touch(&mut self, engine: EngineId, t: SimTime) {
        if let Some(watch) = self.watch_mut(engine) {
            watch.touch(t);
            if let Some(d) = watch.due() {
                self.due = Some(self.due.map_or(d, |due| due.min(d)));
            }
        }
    }

    /// Every subject flapping now, by engine then subject.
    pub(crate) fn flapping(&self, engines: &Engines<'_>) -> Vec<FlappingSubject> {
        let mut out = Vec::new();
        for (engine, watch) in [
            EngineId::Lhc,
            EngineId::Lms,
            EngineId::Gslb,
            EngineId::Autoscale,
        ]
        .into_iter()
        .zip(self.watches())
        {
            if let Some(e) = engines.get(engine) {
                out.extend(watch.flapping(e));
            }
        }
        out
    }
}
