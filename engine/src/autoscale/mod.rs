//! The autoscale engine ([`EngineId::Autoscale`](crate::EngineId::Autoscale), SPEC §4):
//! autoscale groups of ADC clusters per availability zone, decisions per cluster, the node
//! lifecycle and the distributor (DNS or NLB).

mod engine;
pub mod views;

pub use engine::AutoscaleEngine;
