//! A server's load samples, the placements that chose or passed over it, and its events.

use crate::store::Store;
use engine::lms::series::{load_sample, placement_row, LoadSample, PlacementRow};

use super::{details, t_ms};
use crate::error::Result;
use crate::history::{nth_newest_t_ms, recent_events, EventFilter, StoredEvent};
use crate::rollups;

/// Samples read back for the chart (the latest ones).
pub const SAMPLES: i64 = 600;
/// How far before a chart's range its samples are read: two hours, so that the last
/// rollup before the range's hour is among them.
pub const LEAD_IN_MS: u64 = 2 * 3_600_000;
/// Placements listed.
pub const PLACEMENTS: i64 = 50;
/// Events listed.
pub const EVENTS: i64 = 50;
/// The farm's latest placements searched for the ones that compared a server and chose
/// another (the ones that chose it are all found, through its own events).
pub const PLACEMENTS_SEARCHED: i64 = 10_000;

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
/// per-zone `load.sample` events listing the servers that changed. Only the samples that
/// matter to the chart's range `shown` (simulated ms, both ends included) are read: those
/// inside it, and those of the [`LEAD_IN_MS`] before it, so that the step in force at its
/// start is there (a rollup is the last sample of its hour).
pub async fn server_history(
    store: &Store,
    window: super::Window,
    host: &str,
    zone: &str,
    shown: (u64, u64),
) -> Result<ServerHistory> {
    let base = EventFilter {
        engine: Some("lms".into()),
        ..window.filter()
    };
    let sampled = EventFilter {
        subject: Some(zone.to_owned()),
        kind: Some("load.sample".into()),
        details_contains: Some(format!("\"{host}\":{{")),
        from_ms: Some(shown.0.saturating_sub(LEAD_IN_MS)),
        to_ms: Some(window.until_ms.map_or(shown.1, |until| until.min(shown.1))),
        ..base.clone()
    };
    // The recent samples, and hourly rollups (each server's last load of the hour) before.
    let samples = rollups::with_rollups(store, &sampled, SAMPLES)
        .await?
        .iter()
        .filter_map(|r| load_sample(t_ms(r.t_ms), &host_sample(&r.details, host)?))
        .collect();
    let placements = placements(store, &base, host)
        .await?
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

/// The newest [`PLACEMENTS`] placements naming server `host` among the events `base` selects,
/// newest first: the ones that chose it (its own events: found through the subject index,
/// however old), and the ones that compared it and chose another among the farm's latest
/// [`PLACEMENTS_SEARCHED`] placements. Those name it only inside their JSON, and searching
/// the whole run's text (half a million placements a simulated day at full scale) took
/// hundreds of milliseconds for a server that had none.
async fn placements(store: &Store, base: &EventFilter, host: &str) -> Result<Vec<StoredEvent>> {
    let placed = EventFilter {
        kind: Some("session.placed".into()),
        ..base.clone()
    };
    let chose = EventFilter {
        subject: Some(host.to_owned()),
        ..placed.clone()
    };
    let mut rows = recent_events(store, &chose, PLACEMENTS).await?;
    let searched_from = nth_newest_t_ms(store, &placed, PLACEMENTS_SEARCHED).await?;
    let compared = EventFilter {
        details_contains: Some(format!("\"host\":\"{host}\"")),
        from_ms: searched_from.max(placed.from_ms),
        ..placed
    };
    rows.extend(recent_events(store, &compared, PLACEMENTS).await?);
    rows.sort_by_key(|r| std::cmp::Reverse((r.t_ms, r.id)));
    rows.dedup_by_key(|r| r.id);
    rows.truncate(PLACEMENTS as usize);
    Ok(rows)
}

/// Server `host`'s entry in a zone's `load.sample` details (`{"servers":{"XA-01":{…},…}}`),
/// parsed alone: a zone's sample lists up to a hundred servers, and a chart reads hundreds
/// of samples.
fn host_sample(details: &str, host: &str) -> Option<serde_json::Value> {
    let key = format!("\"{host}\":");
    let at = details.find(&key)? + key.len();
    serde_json::Deserializer::from_str(details.get(at..)?)
        .into_iter::<serde_json::Value>()
        .next()?
        .ok()
}

#[cfg(test)]
mod tests {
    use super::host_sample;
    use serde_json::json;

    #[test]
    fn a_servers_entry_is_read_alone_from_its_zones_sample() {
        let sample = json!({
            "servers": {
                "XA-01": {"load": 100, "rules": {"b": 100.0}},
                "XA-010": {"load": 9000, "rules": {"b": 9000.0}},
                "XA-02": {"load": 200, "rules": {}},
            },
            "zone": "z1",
        })
        .to_string();
        let cases = [
            ("XA-01", Some(json!({"load": 100, "rules": {"b": 100.0}}))),
            (
                "XA-010",
                Some(json!({"load": 9000, "rules": {"b": 9000.0}})),
            ),
            ("XA-02", Some(json!({"load": 200, "rules": {}}))),
            ("XA-03", None),
        ];
        for (host, want) in cases {
            assert_eq!(host_sample(&sample, host), want, "{host}");
        }
    }
}
