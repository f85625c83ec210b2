//! What the resource-location pages receive: the engine's own views plus the series for the
//! charts, read back from the persisted events (`services::charts::lhc`).

use engine::lhc::series::{RegistrationPoint, StatePoint};
use engine::lhc::{ConnectorView, RlView, StorefrontView};
use serde::{Deserialize, Serialize};

use super::EventRow;

/// Everything the resource-location detail page shows (but the VDA table, paged apart).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RlDetail {
    /// The resource location now.
    pub rl: RlView,
    /// Its Cloud Connectors, election rank order.
    pub connectors: Vec<ConnectorView>,
    /// StoreFront as the engine sees it.
    pub storefront: StorefrontView,
    /// Resources published by its VDAs (for test launches).
    pub resources: Vec<String>,
    /// Simulated time of this view.
    pub now_ms: u64,
    /// HA-state changes, oldest first (the first point is at 0).
    pub states: Vec<StatePoint>,
    /// Registration counts, oldest first.
    pub registrations: Vec<RegistrationPoint>,
    /// Latest events of the resource location and its connectors, newest first.
    pub events: Vec<EventRow>,
}
