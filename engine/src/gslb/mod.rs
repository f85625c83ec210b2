//! The GSLB engine ([`EngineId::Gslb`](crate::EngineId::Gslb), SPEC §3): parent-child
//! topology over MEP, backup parents and adoption, and the ADNS answers of the parents.
//! `docs/GSLB.md` explains the model and its choices.
//!
//! Reading order: [`config`] (`[gslb]`: sites, services, domains, client locations, timings),
//! [`actions`] (what an operator can do, checked against the configuration and the state),
//! [`net`] (address ranges, locations) and [`version`] (releases, the initiator rule), `model`
//! (state), [`GslbEngine`] (`engine`: construction, the step
//! contract, the order of work at one instant), `mep` (event-driven MEP: site up/down, link
//! cuts, flips of each direction's view), `adoption` (decisions of the parents, requests and
//! the child's verdict), `adns` (answers), `query` with the [`views`] it returns,
//! [`cli`] (import/export of the product's CLI text), `replay` (the documented scenarios)
//! and `bench` (probes for the benchmark).
//!
//! Per instant the order is fixed: answer logs of the seconds that ended, then rounds of
//! (MEP flips → `mep.link` events → orphaned children → adoption decisions → requests
//! reaching children) until nothing more is due at that instant.

pub mod actions;
mod adns;
mod adoption;
mod bench;
pub mod cli;
pub mod config;
mod engine;
mod mep;
mod model;
pub mod net;
mod query;
mod replay;
pub mod version;
pub mod views;
mod watched;

pub use actions::GslbAction;
pub use cli::{export_cli, parse_cli, CliError};
pub use config::{GslbConfig, GslbMethod, SiteRole};
pub(crate) use engine::idx as engine_idx;
pub use engine::GslbEngine;
pub use replay::{guided_replay, DOCUMENTED_TOPOLOGY};
