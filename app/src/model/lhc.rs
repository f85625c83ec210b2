//! What the resource-location pages receive: the engine's own views plus the series for the
//! charts, read back from the persisted events.

use engine::lhc::{ConnectorView, HaState, RlView, StorefrontView};
use serde::{Deserialize, Serialize};

use super::EventRow;

/// The HA state of a resource location from `t_ms` on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatePoint {
    /// Simulated ms.
    pub t_ms: u64,
    /// State from then on.
    pub state: HaState,
}

/// Registration counts of a resource location from `t_ms` on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegistrationPoint {
    /// Simulated ms.
    pub t_ms: u64,
    /// VDAs on the cloud broker.
    pub cloud: u32,
    /// VDAs on a secondary broker.
    pub secondary: u32,
    /// VDAs registered nowhere.
    pub unregistered: u32,
}

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

/// Reads an `rl.ha_state` event's details (`from`, `to`) into states.
pub fn parse_state_change(details: &serde_json::Value) -> Option<(HaState, HaState)> {
    let from = serde_json::from_value(details.get("from")?.clone()).ok()?;
    let to = serde_json::from_value(details.get("to")?.clone()).ok()?;
    Some((from, to))
}

/// Reads a `registrations` event's details (`cloud`, `secondary` by FQDN, `unregistered`).
pub fn parse_registrations(t_ms: u64, details: &serde_json::Value) -> Option<RegistrationPoint> {
    let count = |key: &str| details.get(key).and_then(serde_json::Value::as_u64);
    let secondary = details
        .get("secondary")?
        .as_object()?
        .values()
        .filter_map(serde_json::Value::as_u64)
        .sum::<u64>();
    Some(RegistrationPoint {
        t_ms,
        cloud: u32::try_from(count("cloud")?).ok()?,
        secondary: u32::try_from(secondary).ok()?,
        unregistered: u32::try_from(count("unregistered")?).ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_engine_event_details() {
        let change = serde_json::json!({"from": "pending_ha", "to": "ha_initial", "reason": "x"});
        assert_eq!(
            parse_state_change(&change),
            Some((HaState::PendingHa, HaState::HaInitial))
        );
        let regs =
            serde_json::json!({"cloud": 3, "secondary": {"a": 2, "b": 5}, "unregistered": 1});
        assert_eq!(
            parse_registrations(9, &regs),
            Some(RegistrationPoint {
                t_ms: 9,
                cloud: 3,
                secondary: 7,
                unregistered: 1
            })
        );
        assert_eq!(
            parse_registrations(9, &serde_json::json!({"cloud": 1})),
            None
        );
    }
}
