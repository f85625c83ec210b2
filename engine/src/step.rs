//! The [`Engine`] trait: the step contract every engine follows (see the crate doc).

use crate::action::{Action, ActionError};
use crate::clock::SimTime;
use crate::event::{EngineId, Event};

/// An engine: state plus a step function, output = events. It never sleeps and never does IO;
/// the [`Simulation`](crate::Simulation) feeds it time and actions and collects its events.
///
/// Contract:
/// * [`next_wakeup`](Engine::next_wakeup) is the earliest instant at which the engine has
///   something to do, or `None` when it is idle until an action arrives.
/// * [`advance`](Engine::advance) is called with non-decreasing instants. It processes
///   everything due at or before `now` in time order, appending events stamped at or before
///   `now` in non-decreasing time order. Afterwards `next_wakeup()` is `None` or later than
///   `now`.
/// * [`apply`](Engine::apply) returns `Ok(false)`, changing nothing, for an action meant for
///   another engine. On `Err` it changes nothing and appends nothing. On `Ok(true)` it has
///   applied the action at `now` and appended its events, attributed to `actor`.
/// * Randomness comes only from the [`Rng`](crate::Rng) streams the engine was built with.
pub trait Engine {
    /// Which engine this is (the `engine` of its events).
    fn id(&self) -> EngineId;

    /// The earliest instant at which [`advance`](Engine::advance) has work, if any.
    fn next_wakeup(&self) -> Option<SimTime>;

    /// Processes everything due at or before `now`, appending events to `out`.
    fn advance(&mut self, now: SimTime, out: &mut Vec<Event>);

    /// Applies an operator action at `now`; `Ok(false)` if the action is not for this engine.
    /// The events the action causes carry `actor`; start-up events emitted first do not.
    fn apply(
        &mut self,
        now: SimTime,
        action: &Action,
        actor: Option<&str>,
        out: &mut Vec<Event>,
    ) -> Result<bool, ActionError>;
}
