//! A server's load samples, the placements that chose or passed over it, and its events.

use crate::store::Store;
use engine::lms::series::{load_sample, placement_row, LoadSample, PlacementRow};

use super::{details, t_ms};
use crate::error::Result;
use crate::history::{recent_events, EventFilter, StoredEvent};
use crate::rollups;

/// Samples read back for the chart (the latest ones).
pub const SAMPLES: i64 = 600;
/// Placements listed.
pub const PLACEMENTS: i64 = 50;
/// Events listed.
pub const EVENTS: i64 = 50;

/// What the server page charts and lists.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerHistory {
    /// The server's load samples, oldest first.
    pub samples: Vec<LoadSample>,
    /// Placements naming the server (chosen or compared), newest first.
    pub placements: Vec<PlacementRow>,
    /// The server's latest events, newest first.
    pub events: Vec<StoredEvent>,
}

/// Reads server `host`'s history in `window`. `zone` is the server's zone: samples are
/// per-zone `load.sample` events listing the servers that changed.
pub async fn server_history(
    store: &Store,
    window: super::Window,
    host: &str,
    zone: &str,
) -> Result<ServerHistory> {
    let base = EventFilter {
        engine: Some("lms".into()),
        ..window.filter()
    };
    let sampled = EventFilter {
        subject: Some(zone.to_owned()),
        kind: Some("load.sample".into()),
        details_contains: Some(format!("\"{host}\":{{")),
        ..base.clone()
    };
    // The recent samples, and hourly rollups (each server's last load of the hour) before.
    let samples = rollups::with_rollups(store, &sampled, SAMPLES)
        .await?
        .iter()
        .filter_map(|r| {
            let details = details(&r.details);
            load_sample(t_ms(r.t_ms), details.get("servers")?.get(host)?)
        })
        .collect();
    // Placements naming the server: chosen, or among the candidates compared.
    let placed = EventFilter {
        kind: Some("session.placed".into()),
        details_contains: Some(format!("\"{host}\"")),
        ..base.clone()
    };
    let rows = recent_events(store, &placed, PLACEMENTS).await?;
    let placements = rows
        .iter()
        .filter_map(|r| placement_row(t_ms(r.t_ms), &details(&r.details), host))
        .collect();
    let log = EventFilter {
        subject: Some(host.to_owned()),
        ..base
    };
    let events = recent_events(store, &log, EVENTS).await?;
    Ok(ServerHistory {
        samples,
        placements,
        events,
    })
}
