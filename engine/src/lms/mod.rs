//! The load-management engine ([`EngineId::Lms`](crate::EngineId::Lms), SPEC §2): zones and
//! data collectors, load evaluators and the load index, placement, load throttling and the
//! black-hole effect.

pub mod views;
