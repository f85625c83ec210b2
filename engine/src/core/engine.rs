//! [`CoreEngine`]: the heartbeats of `[core]` and the handling of core actions.

use serde::{Deserialize, Serialize};

use super::config::CoreConfig;
use super::heartbeat::Heartbeat;
use crate::action::error::ActionError;
use crate::clock::SimTime;
use crate::event::{EngineId, Event};
use crate::rng::Rng;
use crate::step::Engine;

/// The core engine: every heartbeat of the scenario, in file order.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CoreEngine {
    pub(crate) config: CoreConfig,
    pub(crate) heartbeats: Vec<Heartbeat>,
}

impl CoreEngine {
    /// The engine at the start of a run. Heartbeat `id` draws its jitter from
    /// `rng.fork("core/heartbeat/{id}")`, so heartbeats never perturb each other.
    pub fn new(config: &CoreConfig, rng: &Rng) -> CoreEngine {
        let heartbeats = config
            .heartbeats
            .iter()
            .map(|hb| {
                let stream = rng.fork(&format!("core/heartbeat/{}", hb.id));
                Heartbeat::new(hb, stream, SimTime::ZERO)
            })
            .collect();
        CoreEngine {
            config: config.clone(),
            heartbeats,
        }
    }

    /// Every heartbeat, in file order.
    pub fn heartbeats(&self) -> &[Heartbeat] {
        &self.heartbeats
    }

    /// The heartbeat with this id.
    pub fn heartbeat(&self, id: &str) -> Option<&Heartbeat> {
        self.heartbeats.iter().find(|h| h.id() == id)
    }

    /// Index of a heartbeat (the configuration check has already vouched for it).
    pub(crate) fn index(&self, id: &str) -> Result<usize, ActionError> {
        self.heartbeats
            .iter()
            .position(|h| h.id() == id)
            .ok_or_else(|| ActionError::UnknownHeartbeat {
                heartbeat: id.to_owned(),
                known: self
                    .heartbeats
                    .iter()
                    .map(Heartbeat::id)
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }
}

/// A core event at `now`, attributed to `actor`.
pub(crate) fn event(
    now: SimTime,
    subject: &str,
    kind: &str,
    details: serde_json::Value,
    actor: Option<&str>,
) -> Event {
    Event::new(now, EngineId::Core, subject, kind, details).with_actor(actor.map(str::to_owned))
}

impl Engine for CoreEngine {
    fn id(&self) -> EngineId {
        EngineId::Core
    }

    fn next_wakeup(&self) -> Option<SimTime> {
        self.heartbeats.iter().filter_map(Heartbeat::next_due).min()
    }

    fn advance(&mut self, now: SimTime, out: &mut Vec<Event>) {
        // Earliest due beat first; ties in file order.
        while let Some(i) = self
            .heartbeats
            .iter()
            .enumerate()
            .filter_map(|(i, h)| h.next_due().filter(|t| *t <= now).map(|t| (t, i)))
            .min()
            .map(|(_, i)| i)
        {
            if let Some(e) = self.heartbeats[i].fire_if_due(now) {
                out.push(e);
            }
        }
    }
}
