//! Operator actions and injected faults: what an operator does from the console, or what a
//! scenario's `[[actions]]` timeline does at a given time.
//!
//! Each engine owns its action type, with its checks, in its own folder
//! ([`CoreAction`], [`LhcAction`], [`LmsAction`], [`GslbAction`], [`AutoscaleAction`]).
//! [`Action`] only says which engine an action is for; the [`Simulation`](crate::Simulation)
//! routes it there once, and each engine matches its own type exhaustively.
//!
//! In files and JSON an action is one flat table whatever its engine: `at` (a duration since
//! the start), optional `actor`, `kind`, then the kind's own fields:
//!
//! ```toml
//! [[actions]]
//! at = "10m"
//! actor = "alice"
//! kind = "heartbeat_interval"
//! heartbeat = "hb-fast"
//! interval = "30s"
//! ```

mod buffer;
pub mod error;
mod wire;

use serde::{Deserialize, Serialize};

pub use self::error::ActionError;
use crate::autoscale::AutoscaleAction;
use crate::clock::SimTime;
use crate::core::CoreAction;
use crate::event::EngineId;
use crate::gslb::GslbAction;
use crate::lhc::LhcAction;
use crate::lms::LmsAction;

/// One operator action or injected fault, tagged with the engine it is for. Serialized as
/// the inner action alone (flat, with its `kind`): the engine is implied by the kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Notes and heartbeats.
    Core(CoreAction),
    /// Local Host Cache / HA: resource locations, connectors, VDAs.
    Lhc(LhcAction),
    /// Load management: farm, servers, sessions, evaluators.
    Lms(LmsAction),
    /// GSLB: sites, MEP links, backup lists, topology.
    Gslb(GslbAction),
    /// Autoscale: groups, injected load, application, distribution, parameters.
    Autoscale(AutoscaleAction),
}

/// Every kind of every engine, in engine order ([`EngineId::ALL`]).
const KIND_COUNT: usize = CoreAction::KINDS.len()
    + LhcAction::KINDS.len()
    + LmsAction::KINDS.len()
    + GslbAction::KINDS.len()
    + AutoscaleAction::KINDS.len();

impl Action {
    /// Every `kind` of every engine, in the order of [`EngineId::ALL`], each engine's in
    /// declaration order.
    pub const KINDS: [&'static str; KIND_COUNT] = concat([
        &CoreAction::KINDS,
        &LhcAction::KINDS,
        &LmsAction::KINDS,
        &GslbAction::KINDS,
        &AutoscaleAction::KINDS,
    ]);

    /// The `kind` tag, as written in files (`"heartbeat_pause"`).
    pub fn kind(&self) -> &'static str {
        match self {
            Action::Core(a) => a.kind(),
            Action::Lhc(a) => a.kind(),
            Action::Lms(a) => a.kind(),
            Action::Gslb(a) => a.kind(),
            Action::Autoscale(a) => a.kind(),
        }
    }

    /// The engine that handles this action.
    pub fn engine(&self) -> EngineId {
        match self {
            Action::Core(_) => EngineId::Core,
            Action::Lhc(_) => EngineId::Lhc,
            Action::Lms(_) => EngineId::Lms,
            Action::Gslb(_) => EngineId::Gslb,
            Action::Autoscale(_) => EngineId::Autoscale,
        }
    }

    /// The engine whose actions include `kind`, if any.
    pub fn engine_of(kind: &str) -> Option<EngineId> {
        let has = |kinds: &[&str]| kinds.contains(&kind);
        if has(&CoreAction::KINDS) {
            Some(EngineId::Core)
        } else if has(&LhcAction::KINDS) {
            Some(EngineId::Lhc)
        } else if has(&LmsAction::KINDS) {
            Some(EngineId::Lms)
        } else if has(&GslbAction::KINDS) {
            Some(EngineId::Gslb)
        } else if has(&AutoscaleAction::KINDS) {
            Some(EngineId::Autoscale)
        } else {
            None
        }
    }
}

/// The engines' kind lists, one after the other (checked at compile time).
const fn concat<const N: usize>(parts: [&[&'static str]; 5]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    let mut p = 0;
    while p < parts.len() {
        let mut j = 0;
        while j < parts[p].len() {
            out[i] = parts[p][j];
            i += 1;
            j += 1;
        }
        p += 1;
    }
    assert!(i == N, "KIND_COUNT is the sum of the engines' kinds");
    out
}

macro_rules! from_engine_action {
    ($($variant:ident($ty:ty)),* $(,)?) => {
        $(
            impl From<$ty> for Action {
                fn from(action: $ty) -> Action {
                    Action::$variant(action)
                }
            }
        )*
    };
}

from_engine_action!(
    Core(CoreAction),
    Lhc(LhcAction),
    Lms(LmsAction),
    Gslb(GslbAction),
    Autoscale(AutoscaleAction),
);

/// An action scheduled at a simulated time, with the operator it is attributed to.
///
/// Serialized flat, like a file entry: `{"at": "5m", "actor": "alice", "kind": "note", ...}`
/// where `at` is the duration since the start.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimedAction {
    /// When the action happens.
    #[serde(with = "wire::at_as_duration")]
    pub at: SimTime,
    /// Who did it (shown in the history), if anyone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actor: Option<String>,
    /// What is done.
    #[serde(flatten)]
    pub action: Action,
}
