//! Retention of raw events: per engine, the events older than a number of simulated days
//! behind the run's clock are removed, never before their series are rolled up
//! ([`crate::rollups`]). On PostgreSQL whole partitions of 30 simulated days are dropped and
//! the rest of the oldest one deleted in batches; on SQLite rows are deleted in batches.
//! Runs, the journal, snapshots and rollups are kept: a run can still be resumed, travelled
//! in time and charted.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use crate::error::{Result, ServiceError};
use crate::store::{on_pool, postgres, to_i64, Dialect, Store};

/// One simulated day.
pub const DAY_MS: u64 = 86_400_000;
/// The longest retention accepted: 100 years of simulated time.
pub const MAX_DAYS: u64 = 36_500;
/// Rows deleted per statement.
const BATCH_ROWS: i64 = 10_000;
/// Statements per engine per round, at most (the next round goes on).
const BATCHES_PER_ROUND: usize = 10;

/// Simulated days of raw events kept, per engine; an engine not named keeps everything
/// (the default).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Retention {
    days: BTreeMap<String, u64>,
}

impl Retention {
    /// The engines with a retention and their days.
    pub fn engines(&self) -> impl Iterator<Item = (&str, u64)> {
        self.days.iter().map(|(e, d)| (e.as_str(), *d))
    }

    /// Whether nothing is ever removed.
    pub fn keeps_everything(&self) -> bool {
        self.days.is_empty()
    }
}

/// Why a retention setting was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("retention: {0}")]
pub struct RetentionError(String);

impl FromStr for Retention {
    type Err = RetentionError;

    /// `engine=days[,engine=days…]`, e.g. `lms=7,lhc=30` (a trailing `d` is allowed); an
    /// empty text keeps everything.
    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        let engines: Vec<&str> = engine::EngineId::ALL.iter().map(|e| e.as_str()).collect();
        let mut days = BTreeMap::new();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((engine, count)) = part.split_once('=') else {
                return Err(RetentionError(format!(
                    "{part:?} is not engine=days (e.g. lms=7)"
                )));
            };
            let engine = engine.trim();
            if !engines.contains(&engine) {
                return Err(RetentionError(format!(
                    "unknown engine {engine:?} (one of {})",
                    engines.join(", ")
                )));
            }
            let count = count.trim();
            let count = count.strip_suffix('d').unwrap_or(count);
            let n: u64 = count
                .parse()
                .ok()
                .filter(|n| (1..=MAX_DAYS).contains(n))
                .ok_or_else(|| {
                    RetentionError(format!(
                        "{engine}: days must be a whole number from 1 to {MAX_DAYS}, not {count:?}"
                    ))
                })?;
            if days.insert(engine.to_owned(), n).is_some() {
                return Err(RetentionError(format!("{engine} is named twice")));
            }
        }
        Ok(Retention { days })
    }
}

impl fmt::Display for Retention {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.days.is_empty() {
            return f.write_str("keep everything");
        }
        let parts: Vec<String> = self.engines().map(|(e, d)| format!("{e}={d}d")).collect();
        f.write_str(&parts.join(","))
    }
}

/// The instant before which `engine`'s raw events of a run at `now_ms` may go: `days`
/// behind the clock, and never past `rolled_until_ms` (series not rolled up yet stay).
pub fn cutoff(now_ms: u64, days: u64, rolled_until_ms: u64) -> u64 {
    now_ms
        .saturating_sub(days.saturating_mul(DAY_MS))
        .min(rolled_until_ms)
}

/// Removes run `run_id`'s raw events of `engine` before `before_ms` (at most
/// [`BATCHES_PER_ROUND`] batches of rows, after whole partitions on PostgreSQL). Returns the
/// rows deleted one by one and the partitions dropped.
pub async fn expire(
    store: &Store,
    run_id: i64,
    engine: &str,
    before_ms: u64,
) -> Result<(u64, u64)> {
    if !engine::EngineId::ALL.iter().any(|e| e.as_str() == engine) {
        return Err(ServiceError::invalid(
            "engine",
            format!("unknown engine {engine:?}"),
        ));
    }
    let dropped = match store.postgres_pool() {
        Some(pool) => {
            postgres::drop_spans_before(pool, store.partitions(), run_id, engine, before_ms).await?
        }
        None => 0,
    };
    let sql = match store.dialect() {
        Dialect::Sqlite => {
            "DELETE FROM events WHERE id IN (SELECT id FROM events \
             WHERE run_id = $1 AND engine = $2 AND t_ms < $3 ORDER BY t_ms LIMIT $4)"
        }
        Dialect::Postgres => {
            "DELETE FROM events WHERE run_id = $1 AND engine = $2 AND (t_ms, seq) IN \
             (SELECT t_ms, seq FROM events WHERE run_id = $1 AND engine = $2 AND t_ms < $3 \
             ORDER BY t_ms LIMIT $4)"
        }
    };
    let mut deleted = 0;
    for _ in 0..BATCHES_PER_ROUND {
        let n = on_pool!(store, pool => sqlx::query(sql)
            .bind(run_id)
            .bind(engine)
            .bind(to_i64(before_ms))
            .bind(BATCH_ROWS)
            .execute(pool)
            .await
            .map(|done| done.rows_affected()))?;
        deleted += n;
        if n < BATCH_ROWS as u64 {
            break;
        }
    }
    Ok((deleted, dropped))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_read_as_engine_and_days() {
        let cases: [(&str, Result<&str, &str>); 9] = [
            ("", Ok("keep everything")),
            ("lms=7", Ok("lms=7d")),
            ("lms=7d, lhc=30", Ok("lhc=30d,lms=7d")),
            ("gslb=36500", Ok("gslb=36500d")),
            ("lms", Err("is not engine=days")),
            ("disk=7", Err("unknown engine \"disk\"")),
            ("lms=0", Err("from 1 to 36500")),
            ("lms=seven", Err("from 1 to 36500")),
            ("lms=7,lms=8", Err("named twice")),
        ];
        for (text, want) in cases {
            match (text.parse::<Retention>(), want) {
                (Ok(got), Ok(shown)) => assert_eq!(got.to_string(), shown, "{text}"),
                (Err(e), Err(part)) => assert!(e.to_string().contains(part), "{text}: {e}"),
                (got, want) => panic!("{text}: got {got:?}, want {want:?}"),
            }
        }
    }

    #[test]
    fn the_cutoff_is_days_behind_the_clock_and_never_past_the_rollups() {
        let cases = [
            // (now, days, rolled until, cutoff)
            (10 * DAY_MS, 7, u64::MAX, 3 * DAY_MS),
            (10 * DAY_MS, 7, DAY_MS, DAY_MS),
            (2 * DAY_MS, 7, u64::MAX, 0),
            (u64::MAX, MAX_DAYS, u64::MAX, u64::MAX - MAX_DAYS * DAY_MS),
        ];
        for (now, days, rolled, want) in cases {
            assert_eq!(cutoff(now, days, rolled), want, "{now} {days} {rolled}");
        }
    }
}
