//! The load-management engine ([`EngineId::Lms`](crate::EngineId::Lms), SPEC §2): zones and
//! data collectors, load evaluators and the load index, placement, load throttling and the
//! black-hole effect. `docs/LMS.md` explains the model and its choices.
//!
//! Reading order: [`rules`] (compiled evaluators, rule loads, the formula: pure functions),
//! `placement` (the per-application index), `model` (state), [`LmsEngine`] (`engine`:
//! construction, the step contract, recompute and push), `cadence` (counters, collector
//! duties, samples, power cycle, elections), `sessions` (launches, logons, logoffs, timers),
//! `storms`, `actions` and `evaluators` (operator actions), `query` with the [`views`] it
//! returns, `preview` (evaluator what-if), [`ab`] (the black-hole A/B) and `bench` (probes
//! for the placement benchmark).
//!
//! Per instant the order is fixed: power transitions, the recurring storm, storm logons,
//! session timers (disconnect, relaunch, logoff), the counter tick, the collector tick, the
//! samples.

pub mod ab;
mod actions;
mod bench;
mod cadence;
mod engine;
mod evaluators;
mod model;
mod placement;
mod preview;
mod query;
pub mod rules;
mod sessions;
mod storms;
pub mod views;

pub use ab::black_hole_ab;
pub use engine::LmsEngine;
pub use preview::MAX_PREVIEW_LAUNCHES;
