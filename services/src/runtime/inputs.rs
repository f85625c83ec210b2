//! How an input takes effect on a simulation: the one code path for live inputs and for the
//! replay of a journal, so that a replayed run produces exactly the events the live run did.
//!
//! Every input at instant `t` is preceded by `advance_to(t)` (work due at or before `t`,
//! which the live runtime would otherwise leave to its next tick), then played.

use engine::gslb::views::ResolutionView;
use engine::{ActionError, EngineId, Event, SimTime, Simulation};

use crate::journal::{Entry, Journaled};

/// What an input produced.
#[derive(Debug, Default)]
pub struct Played {
    /// Events, in order: first the work that was due, then the input's own.
    pub events: Vec<Event>,
    /// The answer to a DNS query.
    pub resolution: Option<ResolutionView>,
}

/// Plays `entry` by `actor` on `sim` at its current instant. A refused action changes
/// nothing but the due work done before it (which the caller emits either way).
pub fn play(
    sim: &mut Simulation,
    entry: &Entry,
    actor: Option<&str>,
) -> (Vec<Event>, Result<Played, ActionError>) {
    let due = sim.advance_to(sim.now());
    let outcome = match entry {
        Entry::Action(action) => {
            sim.apply_now(action.clone(), actor.map(str::to_owned))
                .map(|events| Played {
                    events,
                    resolution: None,
                })
        }
        Entry::Speed { from, to } => Ok(Played {
            events: vec![clock_event(
                sim.now(),
                "clock.speed_changed",
                serde_json::json!({"from": from, "to": to, "reason": "operator action"}),
                actor,
            )],
            resolution: None,
        }),
        Entry::Step => {
            let from = sim.now().as_millis();
            let mut events = sim.step_to_next();
            let to = sim.now().as_millis();
            events.push(clock_event(
                sim.now(),
                "clock.stepped",
                serde_json::json!({"from_ms": from, "to_ms": to, "reason": "operator action"}),
                actor,
            ));
            Ok(Played {
                events,
                resolution: None,
            })
        }
        Entry::Dns { domain, client } => Ok(Played {
            events: Vec::new(),
            resolution: Some(sim.resolve_dns(domain, *client)),
        }),
    };
    (due, outcome)
}

/// Replays one journal entry on `sim`: advances to its instant, then plays it, as the live
/// runtime did. Returns every event this produces, in order (the resume stores the missing
/// ones; a time travel drops them). An entry that no longer applies is an error naming it.
pub fn replay(sim: &mut Simulation, entry: &Journaled) -> Result<Vec<Event>, String> {
    let mut events = sim.advance_to(SimTime(entry.t_ms));
    let (due, played) = play(sim, &entry.entry, entry.actor.as_deref());
    events.extend(due);
    let played = played.map_err(|e| {
        format!(
            "journal entry {} (t = {} ms) no longer applies: {e}",
            entry.seq, entry.t_ms
        )
    })?;
    events.extend(played.events);
    Ok(events)
}

fn clock_event(now: SimTime, kind: &str, details: serde_json::Value, actor: Option<&str>) -> Event {
    Event::new(now, EngineId::Core, "clock", kind, details).with_actor(actor.map(str::to_owned))
}
