//! The core engine ([`EngineId::Core`](crate::EngineId::Core)): periodic heartbeats with
//! seeded jitter, and operator notes. The smallest engine that exercises the whole step
//! contract; it shows in the console that simulated time is moving.
//!
//! Events: `heartbeat` (subject = heartbeat id, details `interval_ms`, `jitter_ms`, `seq`),
//! `heartbeat.paused`, `heartbeat.resumed`, `heartbeat.interval_changed`, and
//! `operator.note` (subject `operator`, details `text`).

//!
//! Reading order: [`config`] (`[core]`), [`actions`] (what an operator can do and how it is
//! checked), `engine` (the step contract), `heartbeat` (one beat's schedule).

pub mod actions;
pub mod config;
mod engine;
mod heartbeat;

pub use actions::CoreAction;
pub use config::{CoreConfig, HeartbeatConfig};
pub use engine::CoreEngine;
pub use heartbeat::Heartbeat;
