//! The load-management engine ([`EngineId::Lms`](crate::EngineId::Lms), SPEC §2): zones and
//! data collectors, load evaluators and the load index, placement, load throttling and the
//! black-hole effect. `docs/LMS.md` explains the model and its choices.
//!
//! Reading order: [`config`] (`[lms]`: farm, zones, servers, evaluators and their rules, the
//! workload; look-ups), [`actions`] (what an operator can do, checked against the
//! configuration and the state), [`rules`] (compiled evaluators, rule loads, the formula: pure functions),
//! `placement` (the per-application index), `model` (state), [`LmsEngine`] (`engine`:
//! construction, the step contract, recompute and push), `cadence` (counters, collector
//! duties, samples, power cycle, elections), `sessions` (launches, logons, logoffs, timers),
//! `storms`, `operations` and `evaluators` (what checked actions do), `query` with the [`views`] it
//! returns, [`series`] (the server page's series read back from events), `preview`
//! (evaluator what-if), [`ab`] (the black-hole A/B) and `bench` (probes
//! for the placement benchmark).
//!
//! Per instant the order is fixed: power transitions, the recurring storm, storm logons,
//! session timers (disconnect, relaunch, logoff), the counter tick, the collector tick, the
//! samples.

pub mod ab;
pub mod actions;
mod audit;
mod bench;
mod cadence;
pub mod config;
mod engine;
mod evaluators;
mod model;
mod operations;
mod payloads;
mod placement;
mod preview;
mod query;
pub mod rules;
pub mod series;
mod sessions;
mod storms;
pub mod views;
mod watched;

pub use ab::black_hole_ab;
pub use actions::{LmsAction, SpikeCounter};
pub use config::rules::Rule;
pub use config::{LmsConfig, LoadFormula};
pub use engine::LmsEngine;
pub use preview::MAX_PREVIEW_LAUNCHES;
