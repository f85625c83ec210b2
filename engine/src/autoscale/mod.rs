//! The autoscale engine ([`EngineId::Autoscale`](crate::EngineId::Autoscale), SPEC §4):
//! autoscale groups of ADC clusters per availability zone, decisions per cluster, the node
//! lifecycle and the distributor (DNS or NLB). `docs/AUTOSCALE.md` explains the model, its
//! defaults (documented or assumed) and the events.
//!
//! Reading order: [`config`] (`[autoscale]`: groups, parameters, thresholds, workloads),
//! [`actions`] (what an operator can do, checked against the configuration and the state),
//! `decide` (the pure decision step shared by the engine and the what-if:
//! limits, metric model, phases, streaks), `history` (the per-minute ring kept in memory),
//! `model` (groups, clusters, nodes, demand, addresses), [`AutoscaleEngine`] (`engine`: the
//! step contract and the minute loop; `lifecycle`: the node lifecycle and the events of a
//! minute; `events` builds their details), `operations` (what a checked action does), `query` with the
//! [`views`] it returns, [`chart`] (a zone's timeline as a chart draws it), `whatif`.
//!
//! Per minute the order is fixed: groups in configuration order, zones in group order; per
//! cluster: demand, phase transitions (drain → TTL wait → deprovision → evaluating), the
//! statistics, the evaluation, then the lifecycle and events; at each full hour one
//! `autoscale.sample` per group.

pub mod actions;
pub mod chart;
pub mod config;
mod decide;
mod engine;
mod events;
mod history;
mod lifecycle;
mod model;
mod operations;
mod query;
pub mod views;
mod watched;
mod whatif;

pub use actions::AutoscaleAction;
pub use config::{AutoscaleConfig, DistributionMode, GroupParams};
pub use engine::AutoscaleEngine;
pub use history::HISTORY_MINUTES;
pub use whatif::MAX_WHAT_IF_HOURS;
