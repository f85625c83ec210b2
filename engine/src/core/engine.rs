//! [`CoreEngine`]: the heartbeats of `[core]` and the handling of core actions.

use serde_json::json;

use super::heartbeat::Heartbeat;
use crate::action::{Action, ActionError};
use crate::clock::SimTime;
use crate::event::{EngineId, Event};
use crate::rng::Rng;
use crate::scenario::core::CoreConfig;
use crate::step::Engine;

/// The `reason` of events caused by an operator action.
const OPERATOR_ACTION: &str = "operator action";

/// The core engine: every heartbeat of the scenario, in file order.
#[derive(Clone, Debug)]
pub struct CoreEngine {
    config: CoreConfig,
    heartbeats: Vec<Heartbeat>,
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
    fn index(&self, id: &str) -> Result<usize, ActionError> {
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

fn event(
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

    fn apply(
        &mut self,
        now: SimTime,
        action: &Action,
        actor: Option<&str>,
        out: &mut Vec<Event>,
    ) -> Result<bool, ActionError> {
        if action.engine() != EngineId::Core {
            return Ok(false);
        }
        self.config.check_action(action)?;
        match action {
            Action::Note { text } => {
                out.push(event(
                    now,
                    "operator",
                    "operator.note",
                    json!({ "text": text }),
                    actor,
                ));
            }
            Action::HeartbeatPause { heartbeat } => {
                let i = self.index(heartbeat)?;
                if self.heartbeats[i].is_paused() {
                    return Err(ActionError::AlreadyPaused(heartbeat.clone()));
                }
                self.heartbeats[i].pause();
                let details = json!({ "reason": OPERATOR_ACTION });
                out.push(event(now, heartbeat, "heartbeat.paused", details, actor));
            }
            Action::HeartbeatResume { heartbeat } => {
                let i = self.index(heartbeat)?;
                let hb = &mut self.heartbeats[i];
                if !hb.is_paused() {
                    return Err(ActionError::NotPaused(heartbeat.clone()));
                }
                hb.schedule_from(now);
                let details = json!({
                    "next_due_ms": hb.next_due().map(SimTime::as_millis),
                    "reason": OPERATOR_ACTION,
                });
                out.push(event(now, heartbeat, "heartbeat.resumed", details, actor));
            }
            Action::HeartbeatInterval {
                heartbeat,
                interval,
            } => {
                let i = self.index(heartbeat)?;
                let hb = &mut self.heartbeats[i];
                let previous = hb.interval();
                hb.set_interval(*interval);
                if !hb.is_paused() {
                    hb.schedule_from(now);
                }
                let details = json!({
                    "interval_ms": interval.as_millis(),
                    "next_due_ms": hb.next_due().map(SimTime::as_millis),
                    "previous_interval_ms": previous.as_millis(),
                    "reason": OPERATOR_ACTION,
                });
                out.push(event(
                    now,
                    heartbeat,
                    "heartbeat.interval_changed",
                    details,
                    actor,
                ));
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}
