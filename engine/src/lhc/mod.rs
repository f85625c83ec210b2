//! The Local Host Cache / HA engine ([`EngineId::Lhc`](crate::EngineId::Lhc), SPEC §1):
//! resource locations, Cloud Connectors (CSS, High Availability Service, RBP), VDAs,
//! StoreFront and the ADC's CITRIX-XD-DDC monitor. `docs/LHC.md` explains the model and its
//! choices; `docs/SCENARIOS.md` lists the events and actions.
//!
//! Reading order: [`config`] (`[lhc]` and its look-ups), [`actions`] (what an operator can
//! do, checked against the configuration and the state), [`ha_state`] (the state machine, a
//! pure function) and [`election`] (pure), then `connector` (one connector's state and health predicates), `vdas` (compact per-VDA
//! state), `model` (resource-location state), [`LhcEngine`] (`engine`: construction, the step
//! contract, the per-instant order), `detection` (health checks, aggregation, elections,
//! ADC), `registration` (sweeps, moves, drops, purge), `sync` (CSS / LocalDB), `storefront`,
//! `launch`, `operations` (what a checked action does), `query` with the [`views`] it returns
//! (read-only, for the console), [`series`] (the charts' series read back from events),
//! and `audit` (the self-check).
//!
//! Per instant and resource location the order is fixed: connector timers (restart done,
//! cloud lost, CSS poll / import), the health check (every `health_check_interval`, only when
//! something may change), the aggregated state, the target broker of the VDAs, the VDA
//! contacts due now, the ADC monitor, then the aggregated registration events.

pub mod actions;
mod audit;
pub mod config;
mod connector;
mod detection;
pub mod election;
mod engine;
pub mod ha_state;
mod launch;
mod model;
mod operations;
mod query;
mod registration;
pub mod series;
mod storefront;
mod sync;
mod vdas;
pub mod views;
mod watched;

pub use actions::LhcAction;
pub use config::LhcConfig;
pub use connector::{Component, Power};
pub use engine::LhcEngine;
pub use ha_state::HaState;
pub use views::{
    Broker, BrokerFilter, ComponentsView, ConnectorView, LocalDbView, RlView, RlWarning,
    StorefrontView, VdaPage, VdaQuery, VdaRow, VdaSort,
};
