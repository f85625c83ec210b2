//! Hourly rollups of the sampled series the charts draw, so that a chart of a month reads a
//! few hundred rows and outlives the raw events' retention ([`crate::retention`]).
//!
//! A series is one kind of sample event of one engine ([`SERIES`]), per subject. Its rollup
//! for a simulated hour is the hour's samples merged in order ([`merge`]: later values win,
//! objects merge key by key), i.e. the state the samples described at the end of the hour —
//! for a resource location's registration counts, the last count; for a zone's load samples
//! (which list only the servers that changed), every server's last load of the hour.
//!
//! The leader rolls up complete hours in the background ([`roll_up`]); charts read the raw
//! samples of the recent past and the rollups before them ([`with_rollups`]).

use serde_json::Value;
use sqlx::QueryBuilder;

use crate::error::Result;
use crate::history::{self, Cursor, EventFilter, StoredEvent};
use crate::store::{keep_prepared, on_pool, to_i64, Store};

/// One simulated hour.
pub const HOUR_MS: u64 = 3_600_000;
/// The series rolled up: (engine, kind).
pub const SERIES: [(&str, &str); 2] = [("lhc", "registrations"), ("lms", "load.sample")];
/// Raw events read per batch of a round.
const BATCH_EVENTS: i64 = 5_000;
/// Raw events a round reads before it stops at an hour's boundary.
pub const ROUND_EVENTS: usize = 50_000;
/// Rollup rows per statement (8 values each, under SQLite's 32,766).
const ROWS_PER_STATEMENT: usize = 2_000;
/// Hourly points a chart reads at most: 30 simulated days.
pub const CHART_HOURS: i64 = 720;

/// Merges `sample` into `into`: objects key by key (recursively), anything else replaced.
pub fn merge(into: &mut Value, sample: &Value) {
    match (into, sample) {
        (Value::Object(into), Value::Object(sample)) => {
            for (key, value) in sample {
                match into.get_mut(key) {
                    Some(slot) => merge(slot, value),
                    None => {
                        into.insert(key.clone(), value.clone());
                    }
                }
            }
        }
        (into, sample) => *into = sample.clone(),
    }
}

/// An hour of one subject's series, being merged.
#[derive(Debug, Clone, PartialEq)]
struct Hour {
    subject: String,
    hour: u64,
    samples: i64,
    t_ms: i64,
    details: Value,
}

/// The first hour of `engine`'s `kind` series of run `run_id` not rolled up yet.
pub async fn rolled_until(store: &Store, run_id: i64, engine: &str, kind: &str) -> Result<u64> {
    let last: Option<i64> = on_pool!(store, pool => sqlx::query_scalar(
        "SELECT MAX(hour) FROM rollups WHERE run_id = $1 AND engine = $2 AND kind = $3",
    )
    .bind(run_id)
    .bind(engine)
    .bind(kind)
    .fetch_one(pool)
    .await)?;
    Ok(last.map_or(0, |h| u64::try_from(h).unwrap_or(0).saturating_add(1)))
}

/// Rolls up the complete hours of `engine`'s `kind` series of run `run_id` before `now_ms`
/// not rolled up yet, reading at most about [`ROUND_EVENTS`] raw events (the next round goes
/// on from there). Returns the rollup rows written.
pub async fn roll_up(
    store: &Store,
    run_id: i64,
    engine: &str,
    kind: &str,
    now_ms: u64,
) -> Result<usize> {
    let from_hour = rolled_until(store, run_id, engine, kind).await?;
    let until_hour = now_ms / HOUR_MS;
    if from_hour >= until_hour {
        return Ok(0);
    }
    let filter = EventFilter {
        run_id,
        engine: Some(engine.to_owned()),
        kind: Some(kind.to_owned()),
        from_ms: Some(from_hour.saturating_mul(HOUR_MS)),
        to_ms: Some(until_hour.saturating_mul(HOUR_MS) - 1),
        ..Default::default()
    };
    let mut hours: Vec<Hour> = Vec::new();
    let mut place = None;
    let mut read = 0;
    // Hours before `complete` have been read whole.
    let complete = loop {
        let batch = history::events_after(store, &filter, place, BATCH_EVENTS).await?;
        let full = batch.len() as i64 == BATCH_EVENTS;
        read += batch.len();
        place = batch.last().map(Cursor::of);
        for event in &batch {
            add(&mut hours, event);
        }
        let last_hour = batch.last().map(|e| hour_of(e.t_ms));
        match last_hour {
            Some(last) if full && read >= ROUND_EVENTS && hours.iter().any(|h| h.hour < last) => {
                break last
            }
            Some(_) if full => continue,
            _ => break until_hour,
        }
    };
    hours.retain(|h| h.hour < complete);
    write(store, run_id, engine, kind, &hours).await?;
    Ok(hours.len())
}

fn hour_of(t_ms: i64) -> u64 {
    u64::try_from(t_ms).unwrap_or(0) / HOUR_MS
}

/// Adds `event` to its subject's hour (events arrive in time order).
fn add(hours: &mut Vec<Hour>, event: &StoredEvent) {
    let hour = hour_of(event.t_ms);
    let details: Value = serde_json::from_str(&event.details).unwrap_or(Value::Null);
    let found = hours
        .iter_mut()
        .rev()
        .find(|h| h.hour == hour && h.subject == event.subject);
    match found {
        Some(h) => {
            merge(&mut h.details, &details);
            h.samples += 1;
            h.t_ms = event.t_ms;
        }
        None => hours.push(Hour {
            subject: event.subject.clone(),
            hour,
            samples: 1,
            t_ms: event.t_ms,
            details,
        }),
    }
}

async fn write(store: &Store, run_id: i64, engine: &str, kind: &str, hours: &[Hour]) -> Result<()> {
    for chunk in hours.chunks(ROWS_PER_STATEMENT) {
        on_pool!(store, pool => {
            let mut q = QueryBuilder::new(
                "INSERT INTO rollups (run_id, engine, subject, kind, hour, samples, t_ms, details) ",
            );
            q.push_values(chunk, |mut row, h| {
                row.push_bind(run_id)
                    .push_bind(engine.to_owned())
                    .push_bind(h.subject.clone())
                    .push_bind(kind.to_owned())
                    .push_bind(to_i64(h.hour))
                    .push_bind(h.samples)
                    .push_bind(h.t_ms)
                    .push_bind(h.details.to_string());
            });
            q.push(
                " ON CONFLICT (run_id, engine, kind, subject, hour) DO UPDATE SET \
                 samples = excluded.samples, t_ms = excluded.t_ms, details = excluded.details",
            );
            q.build()
                .persistent(keep_prepared(chunk.len(), ROWS_PER_STATEMENT))
                .execute(pool)
                .await
                .map(|_| ())
        })?;
    }
    Ok(())
}

/// A chart's points: the newest `cap` raw samples matching `filter` (engine, kind and
/// subject set), and before the oldest of them the series' hourly rollups that match it too
/// (at most [`CHART_HOURS`], e.g. a month), oldest first. A rollup reads as one sample at
/// the instant of the last sample of its hour.
pub async fn with_rollups(
    store: &Store,
    filter: &EventFilter,
    cap: i64,
) -> Result<Vec<StoredEvent>> {
    let raw = history::latest_in_time_order(store, filter, cap).await?;
    let (Some(engine), Some(kind)) = (&filter.engine, &filter.kind) else {
        return Ok(raw);
    };
    // Hours entirely before the first raw sample (all hours up to the window's end when
    // there is none).
    let before_hour = match raw.first() {
        Some(first) => hour_of(first.t_ms),
        None => filter.to_ms.map_or(u64::MAX / HOUR_MS, |t| t / HOUR_MS + 1),
    };
    type Row = (i64, String, String, String, String);
    let dialect = store.dialect();
    let rows: Vec<Row> = on_pool!(store, pool => {
        let mut q = QueryBuilder::new(
            "SELECT t_ms, engine, subject, kind, details FROM rollups WHERE run_id = ",
        );
        q.push_bind(filter.run_id)
            .push(" AND engine = ")
            .push_bind(engine.clone())
            .push(" AND kind = ")
            .push_bind(kind.clone())
            .push(" AND hour < ")
            .push_bind(to_i64(before_hour));
        if let Some(subject) = &filter.subject {
            q.push(" AND subject = ").push_bind(subject.clone());
        }
        if let Some(from) = filter.from_ms {
            q.push(" AND t_ms >= ").push_bind(to_i64(from));
        }
        if let Some(to) = filter.to_ms {
            q.push(" AND t_ms <= ").push_bind(to_i64(to));
        }
        if let Some(text) = &filter.details_contains {
            history::push_details_contain(&mut q, text, dialect);
        }
        q.push(" ORDER BY hour DESC LIMIT ").push_bind(CHART_HOURS);
        q.build_query_as::<Row>().fetch_all(pool).await
    })?;
    let mut points: Vec<StoredEvent> = rows
        .into_iter()
        .rev()
        .map(|(t_ms, engine, subject, kind, details)| StoredEvent {
            id: 0,
            t_ms,
            engine,
            subject,
            kind,
            details,
            actor: None,
        })
        .collect();
    points.extend(raw);
    Ok(points)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn samples_merge_into_the_state_at_the_end_of_the_hour() {
        let cases = [
            // Counts: the last sample wins.
            (
                json!({"registered": 10, "total": 12}),
                json!({"registered": 11, "total": 12}),
                json!({"registered": 11, "total": 12}),
            ),
            // Load samples list the servers that changed: every server's last load is kept.
            (
                json!({"servers": {"a": {"load": 100}, "b": {"load": 200}}}),
                json!({"servers": {"b": {"load": 250}, "c": {"load": 5}}}),
                json!({"servers": {"a": {"load": 100}, "b": {"load": 250}, "c": {"load": 5}}}),
            ),
            // A value that changes type is replaced.
            (json!({"x": {"y": 1}}), json!({"x": 3}), json!({"x": 3})),
            (Value::Null, json!({"x": 1}), json!({"x": 1})),
        ];
        for (mut into, sample, want) in cases {
            merge(&mut into, &sample);
            assert_eq!(into, want);
        }
    }

    #[test]
    fn events_group_by_subject_and_hour() {
        let ev = |t: i64, subject: &str, n: i64| StoredEvent {
            id: t,
            t_ms: t,
            engine: "lhc".into(),
            subject: subject.into(),
            kind: "registrations".into(),
            details: json!({ "registered": n }).to_string(),
            actor: None,
        };
        let mut hours = Vec::new();
        for e in [
            ev(0, "a", 1),
            ev(60_000, "b", 7),
            ev(120_000, "a", 2),
            ev(3_600_000, "a", 3),
        ] {
            add(&mut hours, &e);
        }
        let got: Vec<(String, u64, i64, i64, Value)> = hours
            .into_iter()
            .map(|h| (h.subject, h.hour, h.samples, h.t_ms, h.details))
            .collect();
        assert_eq!(
            got,
            vec![
                ("a".into(), 0, 2, 120_000, json!({"registered": 2})),
                ("b".into(), 0, 1, 60_000, json!({"registered": 7})),
                ("a".into(), 1, 1, 3_600_000, json!({"registered": 3})),
            ]
        );
    }
}
