//! The time bar of estate pages: which runs exist and how far each can be viewed.

use leptos::prelude::*;

use crate::error::AppError;
use crate::model::TimeRange;

/// Runs offered in the time bar (newest first).
pub const RUNS_OFFERED: usize = 20;

/// The instants of `run` (the running one when `None`) that can be viewed, and the runs to
/// choose from.
#[server(endpoint = "time_extent", input = crate::api::codec::Form)]
pub async fn time_extent(run: Option<i64>) -> Result<TimeRange, AppError> {
    use crate::auth::read_only;
    use crate::model::RunChoice;
    read_only(
        "time.range",
        engine::Role::Viewer,
        |services, _| async move {
            let live_run = services.runtime.run().id;
            let run_id = run.unwrap_or(live_run);
            let extent =
                services::time_travel::extent(&services.store, &services.runtime, run_id).await?;
            let runs = services
                .time_travel
                .runs(&services.store)
                .await?
                .iter()
                .take(RUNS_OFFERED)
                .map(|r| RunChoice {
                    id: r.id,
                    label: if r.id == live_run {
                        format!("run {} (live) · {}", r.id, r.scenario)
                    } else {
                        format!("run {} · {} · started {}", r.id, r.scenario, r.started_at)
                    },
                })
                .collect();
            Ok(TimeRange {
                run_id,
                live: extent.live,
                end_ms: extent.end.as_millis(),
                runs,
            })
        },
    )
    .await
}
