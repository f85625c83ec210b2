//! The step contract every engine follows (see the crate doc), in two traits: [`Engine`] is
//! the timed half (the [`Simulation`](crate::Simulation) visits its engines through it in a
//! fixed order), [`Apply`] the input half (each engine takes actions of its own type only).

use crate::action::error::ActionError;
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
/// * Randomness comes only from the [`Rng`](crate::Rng) streams the engine was built with.
pub trait Engine {
    /// Which engine this is (the `engine` of its events).
    fn id(&self) -> EngineId;

    /// The earliest instant at which [`advance`](Engine::advance) has work, if any.
    fn next_wakeup(&self) -> Option<SimTime>;

    /// Processes everything due at or before `now`, appending events to `out`.
    fn advance(&mut self, now: SimTime, out: &mut Vec<Event>);
}

/// The input half of the contract: an engine applies the actions of its own type (e.g.
/// [`LhcAction`](crate::lhc::LhcAction)); [`Action`](crate::Action) says which engine an
/// action is for, and the simulation routes it there once.
///
/// [`apply`](Apply::apply) first checks the action against the configuration, then against
/// the state. On `Err` it changes nothing and appends nothing. On `Ok` it has applied the
/// action at `now` and appended its events, attributed to `actor` (start-up events that the
/// engine emits first are not attributed).
pub trait Apply: Engine {
    /// The engine's own action type.
    type Action;

    /// Applies an operator action at `now`.
    fn apply(
        &mut self,
        now: SimTime,
        action: &Self::Action,
        actor: Option<&str>,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError>;
}
