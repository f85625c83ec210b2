//! The GSLB engine ([`EngineId::Gslb`](crate::EngineId::Gslb), SPEC §3): parent-child
//! topology over MEP, backup parents and adoption, and the ADNS answers of the parents.

mod engine;
pub mod views;

pub use engine::{guided_replay, GslbEngine};
