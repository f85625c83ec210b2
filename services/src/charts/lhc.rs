//! A resource location's HA-state band, registration counts and latest events.

use crate::store::Store;
use engine::lhc::series::{registration_point, state_band, RegistrationPoint, StatePoint};

use super::{details, t_ms};
use crate::error::Result;
use crate::history::{latest_in_time_order, recent_events, EventFilter, StoredEvent};
use crate::rollups;

/// Points read back per series (the latest ones).
pub const CHART_POINTS: i64 = 2_000;
/// Events listed in a resource location's log.
pub const RL_EVENTS: i64 = 100;

/// What the resource-location page charts and lists.
#[derive(Debug, Clone, PartialEq)]
pub struct RlHistory {
    /// HA-state changes, oldest first (the first point is at 0).
    pub states: Vec<StatePoint>,
    /// Registration counts, oldest first.
    pub registrations: Vec<RegistrationPoint>,
    /// Latest events of the resource location and of `subjects` (its connectors), newest
    /// first.
    pub events: Vec<StoredEvent>,
}

/// Reads `rl`'s series and the log of `subjects` in `window`.
pub async fn rl_history(
    store: &Store,
    window: super::Window,
    rl: &str,
    subjects: Vec<String>,
) -> Result<RlHistory> {
    let series = |kind: &str| EventFilter {
        engine: Some("lhc".into()),
        subject: Some(rl.to_owned()),
        kind: Some(kind.to_owned()),
        ..window.filter()
    };
    let changes = latest_in_time_order(store, &series("rl.ha_state"), CHART_POINTS).await?;
    let states = state_band(changes.iter().map(|r| (t_ms(r.t_ms), details(&r.details))));
    // The recent per-minute counts, and hourly rollups before them.
    let registrations = rollups::with_rollups(store, &series("registrations"), CHART_POINTS)
        .await?
        .iter()
        .filter_map(|r| registration_point(t_ms(r.t_ms), &details(&r.details)))
        .collect();
    let log = EventFilter {
        engine: Some("lhc".into()),
        subjects,
        ..window.filter()
    };
    let events = recent_events(store, &log, RL_EVENTS).await?;
    Ok(RlHistory {
        states,
        registrations,
        events,
    })
}
