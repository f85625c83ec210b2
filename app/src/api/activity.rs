//! Each engine's recent changes (the overview's sparklines).

use leptos::prelude::*;

use crate::error::AppError;
use crate::model::activity::ActivityView;

/// `engine`'s changes per 10 simulated minutes over the last 4 simulated hours of the live run.
#[server(endpoint = "engine_activity", input = crate::api::codec::Form)]
pub async fn engine_activity(engine: String) -> Result<ActivityView, AppError> {
    use crate::auth::read_only;
    read_only("activity", engine::Role::Viewer, |services, _| async move {
        let id = crate::form::engine_name(&engine, "engine")?;
        Ok(activity_view(&services, id))
    })
    .await
}

/// `engine`'s changes per bucket in the live run, as the sparklines take them.
#[cfg(feature = "ssr")]
pub fn activity_view(services: &services::Services, engine: engine::EngineId) -> ActivityView {
    let series = services.runtime.activity(engine);
    ActivityView {
        engine: engine.as_str().to_owned(),
        from_ms: series.from_ms,
        bucket_ms: services::activity::BUCKET_MS,
        counts: series.counts,
    }
}
