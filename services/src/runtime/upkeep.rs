//! The leader's upkeep of its run's history, in the background every [`UPKEEP_EVERY`]: roll
//! up the complete hours of the charted series ([`crate::rollups`]), then remove the raw
//! events past their engine's retention ([`crate::retention`]). Ends with the runtime task.

use std::time::Duration;

use tokio::sync::watch;

use super::ClockStatus;
use crate::retention::{self, Retention};
use crate::rollups::{self, HOUR_MS, SERIES};
use crate::store::Store;
use crate::telemetry;

/// Wall time between two rounds.
pub const UPKEEP_EVERY: Duration = Duration::from_secs(5);

/// Runs rounds until the runtime's status channel closes.
pub(super) async fn run(
    store: Store,
    run_id: i64,
    mut status: watch::Receiver<ClockStatus>,
    retention: Retention,
) {
    let mut every = tokio::time::interval(UPKEEP_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        if status.has_changed().is_err() {
            return;
        }
        let now_ms = status.borrow_and_update().t_ms;
        if let Err(e) = round(&store, run_id, now_ms, &retention).await {
            tracing::debug!(error = %e, "history upkeep stopped; trying again");
        }
    }
}

/// One round: rollups first, so that retention never removes a sample not rolled up.
pub async fn round(
    store: &Store,
    run_id: i64,
    now_ms: u64,
    retention: &Retention,
) -> crate::error::Result<()> {
    for (engine, kind) in SERIES {
        let rows = rollups::roll_up(store, run_id, engine, kind, now_ms).await?;
        metrics::counter!(telemetry::ROLLUP_ROWS).increment(rows as u64);
    }
    for (engine, days) in retention.engines() {
        let mut rolled_until_ms = u64::MAX;
        for (_, kind) in SERIES.iter().filter(|(e, _)| *e == engine) {
            let hour = rollups::rolled_until(store, run_id, engine, kind).await?;
            rolled_until_ms = rolled_until_ms.min(hour.saturating_mul(HOUR_MS));
        }
        let before = retention::cutoff(now_ms, days, rolled_until_ms);
        if before == 0 {
            continue;
        }
        let (deleted, dropped) = retention::expire(store, run_id, engine, before).await?;
        metrics::counter!(telemetry::EVENTS_EXPIRED).increment(deleted);
        if dropped > 0 {
            tracing::info!(
                engine,
                before_ms = before,
                partitions = dropped,
                "retention dropped partitions"
            );
        }
    }
    Ok(())
}
