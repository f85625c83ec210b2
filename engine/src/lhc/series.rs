//! The HA state band and the registration counts of a resource location as its charts draw
//! them, read back from the persisted `rl.ha_state` and `registrations` events (the console
//! keeps charts in the history, not in memory).

use serde::{Deserialize, Serialize};

use super::HaState;

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

/// Reads an `rl.ha_state` event's details (`from`, `to`) into states.
pub fn state_change(details: &serde_json::Value) -> Option<(HaState, HaState)> {
    let from = serde_json::from_value(details.get("from")?.clone()).ok()?;
    let to = serde_json::from_value(details.get("to")?.clone()).ok()?;
    Some((from, to))
}

/// Reads a `registrations` event's details (`cloud`, `secondary` by FQDN, `unregistered`).
pub fn registration_point(t_ms: u64, details: &serde_json::Value) -> Option<RegistrationPoint> {
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

/// The HA-state band from `rl.ha_state` events `(t_ms, details)`, oldest first: the state
/// before the first change holds from 0; with no change at all, Working Normally throughout.
pub fn state_band(changes: impl IntoIterator<Item = (u64, serde_json::Value)>) -> Vec<StatePoint> {
    let mut band = Vec::new();
    for (t_ms, details) in changes {
        if let Some((from, to)) = state_change(&details) {
            if band.is_empty() {
                band.push(StatePoint {
                    t_ms: 0,
                    state: from,
                });
            }
            band.push(StatePoint { t_ms, state: to });
        }
    }
    if band.is_empty() {
        band.push(StatePoint {
            t_ms: 0,
            state: HaState::WorkingNormally,
        });
    }
    band
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_engine_event_details() {
        let change = serde_json::json!({"from": "pending_ha", "to": "ha_initial", "reason": "x"});
        assert_eq!(
            state_change(&change),
            Some((HaState::PendingHa, HaState::HaInitial))
        );
        let regs =
            serde_json::json!({"cloud": 3, "secondary": {"a": 2, "b": 5}, "unregistered": 1});
        assert_eq!(
            registration_point(9, &regs),
            Some(RegistrationPoint {
                t_ms: 9,
                cloud: 3,
                secondary: 7,
                unregistered: 1
            })
        );
        assert_eq!(
            registration_point(9, &serde_json::json!({"cloud": 1})),
            None
        );
    }

    #[test]
    fn the_band_starts_at_zero_in_the_state_before_the_first_change() {
        let change = |from: &str, to: &str| serde_json::json!({"from": from, "to": to});
        let band = state_band([
            (60_000, change("working_normally", "pending_ha")),
            (90_000, serde_json::json!({"unreadable": true})),
            (120_000, change("pending_ha", "ha_initial")),
        ]);
        let states: Vec<(u64, HaState)> = band.iter().map(|p| (p.t_ms, p.state)).collect();
        assert_eq!(
            states,
            vec![
                (0, HaState::WorkingNormally),
                (60_000, HaState::PendingHa),
                (120_000, HaState::HaInitial),
            ]
        );
        assert_eq!(
            state_band([]),
            vec![StatePoint {
                t_ms: 0,
                state: HaState::WorkingNormally
            }]
        );
    }
}
