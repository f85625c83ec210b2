//! A group's latest decisions and the operator actions on it.

use sqlx::SqlitePool;

use crate::error::Result;
use crate::history::{query_events, EventFilter, StoredEvent};

/// Decisions listed.
pub const DECISIONS: i64 = 50;

/// The kinds listed: decisions, skipped evaluations and what operators did (not the hourly
/// samples nor the record and IPSet details).
pub const DECISION_KINDS: [&str; 11] = [
    "autoscale.scale_out",
    "autoscale.scale_in",
    "autoscale.at_limit",
    "evaluation.skipped",
    "evaluation.resumed",
    "load.injected",
    "load.released",
    "app.deployed",
    "app.removed",
    "distribution.switched",
    "group.settings",
];

/// `group`'s latest decisions and operator actions in run `run_id`, newest first (the
/// engine's events name the group as their subject, the zone in their details).
pub async fn decisions(pool: &SqlitePool, run_id: i64, group: &str) -> Result<Vec<StoredEvent>> {
    let filter = EventFilter {
        run_id,
        engine: Some("autoscale".into()),
        subject: Some(group.to_owned()),
        kinds: DECISION_KINDS.iter().map(|k| (*k).to_owned()).collect(),
        ..Default::default()
    };
    let (rows, _) = query_events(pool, &filter, 0, DECISIONS).await?;
    Ok(rows)
}
