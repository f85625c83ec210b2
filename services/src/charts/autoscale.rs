//! A group's latest decisions and the operator actions on it.

use crate::store::Store;

use crate::error::Result;
use crate::history::{recent_events, EventFilter, StoredEvent};

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

/// `group`'s latest decisions and operator actions in `window`, newest first (the
/// engine's events name the group as their subject, the zone in their details).
pub async fn decisions(
    store: &Store,
    window: super::Window,
    group: &str,
) -> Result<Vec<StoredEvent>> {
    let filter = EventFilter {
        engine: Some("autoscale".into()),
        subject: Some(group.to_owned()),
        kinds: DECISION_KINDS.iter().map(|k| (*k).to_owned()).collect(),
        ..window.filter()
    };
    let rows = recent_events(store, &filter, DECISIONS).await?;
    Ok(rows)
}
