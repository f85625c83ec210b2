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

/// Most subjects a search by the start of their name may find (each is read through its
/// own index range).
pub const SEARCH_SUBJECTS_MAX: usize = 20;

/// [`store_filter`] with the search resolved: the run's subjects whose name starts with it
/// (at most [`SEARCH_SUBJECTS_MAX`], or the search is refused and asks for more of the name).
/// `None` when no subject starts with it: nothing matches.
#[cfg(feature = "ssr")]
pub async fn resolved_filter(
    store: &services::Store,
    filter: &crate::model::HistoryFilter,
    current_run: i64,
) -> Result<Option<services::history::EventFilter>, AppError> {
    let mut events = store_filter(filter, current_run);
    let Some(prefix) = &filter.search else {
        return Ok(Some(events));
    };
    match services::history::subjects_starting_with(
        store,
        events.run_id,
        prefix,
        SEARCH_SUBJECTS_MAX,
    )
    .await?
    {
        None => Err(AppError::invalid(
            "search",
            format!(
                "more than {SEARCH_SUBJECTS_MAX} subjects start with `{prefix}`: type more of the name"
            ),
        )),
        Some(found) if found.is_empty() => Ok(None),
        Some(found) => {
            events.subjects = found;
            Ok(Some(events))
        }
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

/// The store's order of a validated sort.
#[cfg(feature = "ssr")]
fn event_order(sort: crate::model::HistorySort) -> services::history::EventOrder {
    use crate::model::HistorySort;
    use services::history::EventOrder;
    match sort {
        HistorySort::Time => EventOrder::Time,
        HistorySort::Engine => EventOrder::Engine,
        HistorySort::Subject => EventOrder::Subject,
        HistorySort::Kind => EventOrder::Kind,
    }
}

/// The details (the JSON object, as stored) of one event: of run `run` (the current run when
/// none), at `t_ms`, place `id` ([`services::history::StoredEvent::id`]). An event table
/// carries each row's key, not its JSON; its disclosure asks for the JSON when it opens.
#[server(endpoint = "event_json", input = crate::api::codec::Form)]
pub async fn event_json(run: Option<i64>, t_ms: i64, id: i64) -> Result<String, AppError> {
    use crate::auth::read_only;
    read_only(
        "history.event_json",
        engine::Role::Viewer,
        |services, _| async move {
            if run.is_some_and(|r| r < 1) {
                return Err(AppError::invalid("run", "must be a run id (1 or more)"));
            }
            if t_ms < 0 {
                return Err(AppError::invalid("t_ms", "must be 0 or more"));
            }
            if id < 0 {
                return Err(AppError::invalid("id", "must be 0 or more"));
            }
            let run = run.unwrap_or_else(|| services.runtime.run().id);
            let at = services::history::Cursor { t_ms, id };
            services::history::event_details(&services.store, run, at)
                .await?
                .ok_or_else(|| AppError::NotFound(format!("run {run} has no event {at}")))
        },
    )
    .await
}

/// One page of events matching `query`, in its order.
#[server(endpoint = "history", input = crate::api::codec::Form)]
pub async fn list_events(#[server(default)] query: HistoryQuery) -> Result<HistoryPage, AppError> {
    use crate::auth::read_only;
    use crate::model::HISTORY_PAGE_SIZE;
    read_only(
        "history.list",
        engine::Role::Viewer,
        |services, _| async move {
            let filter = query.validate()?;
            let current = services.runtime.run().id;
            let page = match resolved_filter(&services.store, &filter, current).await? {
                Some(store) => {
                    services::history::sorted_page(
                        &services.store,
                        &store,
                        event_order(filter.sort),
                        page_at(filter.place),
                        i64::from(HISTORY_PAGE_SIZE),
                    )
                    .await?
                }
                None => services::history::EventPage::default(),
            };
            let runs = services::history::list_runs(&services.store).await?;
            Ok(HistoryPage {
                run_id: filter.run.unwrap_or(current),
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
