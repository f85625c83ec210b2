//! The event history: filtered, paged reading (export is a plain GET route of the server).

use leptos::prelude::*;

use crate::error::AppError;
use crate::model::{HistoryPage, HistoryQuery};

#[cfg(feature = "ssr")]
impl From<services::history::Run> for crate::model::RunView {
    fn from(r: services::history::Run) -> Self {
        crate::model::RunView {
            id: r.id,
            scenario: r.scenario,
            seed: r.seed,
            started_at: r.started_at,
        }
    }
}

/// Turns validated filters into the store's filter (the current run when none is named).
#[cfg(feature = "ssr")]
pub fn store_filter(
    filter: &crate::model::HistoryFilter,
    current_run: i64,
) -> services::history::EventFilter {
    services::history::EventFilter {
        run_id: filter.run.unwrap_or(current_run),
        engine: filter.engine.map(|e| e.as_str().to_owned()),
        subject: filter.subject.clone(),
        kind: filter.kind.clone(),
        subjects: Vec::new(),
        kinds: Vec::new(),
        from_ms: filter.from_ms,
        to_ms: filter.to_ms,
        details_contains: None,
    }
}

/// The store's place of a validated page place.
#[cfg(feature = "ssr")]
fn page_at(place: crate::model::HistoryPlace) -> services::history::PageAt {
    use crate::model::HistoryPlace;
    use services::history::{Cursor, PageAt};
    match place {
        HistoryPlace::Newest => PageAt::Newest,
        HistoryPlace::Oldest => PageAt::Oldest,
        HistoryPlace::Older { t_ms, id } => PageAt::Older(Cursor { t_ms, id }),
        HistoryPlace::Newer { t_ms, id } => PageAt::Newer(Cursor { t_ms, id }),
    }
}

/// One page of events matching `query`.
#[server(endpoint = "history", input = crate::api::codec::Form)]
pub async fn list_events(#[server(default)] query: HistoryQuery) -> Result<HistoryPage, AppError> {
    use crate::auth::read_only;
    use crate::model::HISTORY_PAGE_SIZE;
    read_only(
        "history.list",
        engine::Role::Viewer,
        |services, _| async move {
            let filter = query.validate()?;
            let store = store_filter(&filter, services.runtime.run().id);
            let page = services::history::page(
                &services.store,
                &store,
                page_at(filter.place),
                i64::from(HISTORY_PAGE_SIZE),
            )
            .await?;
            let runs = services::history::list_runs(&services.store).await?;
            Ok(HistoryPage {
                run_id: store.run_id,
                runs: runs.into_iter().map(Into::into).collect(),
                rows: page.rows.into_iter().map(Into::into).collect(),
                older: page.older.map(|c| c.to_string()),
                newer: page.newer.map(|c| c.to_string()),
                per_page: HISTORY_PAGE_SIZE,
            })
        },
    )
    .await
}
