//! The event history: filters in the URL, server-side paging by keyset ("Newer" / "Older"
//! links carry the place of the page's first or last event), CSV / JSON export of the
//! filtered set.

use engine::EngineId;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::answer::answer;
use crate::api::history::list_events;
use crate::components::event_table::EventTable;
use crate::components::filter_form::FilterForm;
use crate::components::page_help::PageHelp;
use crate::components::sort_header::{sort_header, SortedBy};
use crate::erase::Erase;
use crate::ids;
use crate::model::listing::{key_of, keyed};
use crate::model::{HistoryPage as Page, HistoryQuery, HistorySort, HISTORY_SORTS};
use crate::pages::LoadError;

/// The history page.
#[component]
pub fn HistoryPage() -> impl IntoView {
    let query_map = use_query_map();
    let query = Memo::new(move |_| {
        let q = query_map.read();
        HistoryQuery {
            run: q.get("run"),
            engine: q.get("engine"),
            subject: q.get("subject"),
            search: q.get("search"),
            kind: q.get("kind"),
            from: q.get("from"),
            to: q.get("to"),
            sort: q.get("sort"),
            order: q.get("order"),
            before: q.get("before"),
            after: q.get("after"),
        }
    });
    let page = answer(move || query.get(), list_events);
    view! {
        <Title text="History"/>
        <h1>"History"</h1>
        <PageHelp text="Every event the engines produced on the run, newest or oldest first or sorted by engine, subject or kind (click a column's name), filtered by engine, kind, subject (or the start of its name) and time; each one says why it happened. Use it to reconstruct an incident after the fact, or export the run."/>
        <Filters query/>
        <Transition fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match page.await {
                    Ok(p) => view! { <Results page=p query=query.get_untracked()/> }.erase(),
                    Err(e) => view! { <LoadError error=e/> }.erase(),
                }
            })}
        </Transition>
    }
}

#[component]
fn Filters(query: Memo<HistoryQuery>) -> impl IntoView {
    let q = move || query.get();
    let engine_selected = move |e: &'static str| q().engine.as_deref() == Some(e);
    view! {
        <FilterForm class="card form filters" id=ids::HISTORY_FILTERS>
            <input type="hidden" name="run" value=move || q().run.unwrap_or_default()/>
            <label>"Engine "
                <select name="engine">
                    <option value="" selected=move || q().engine.unwrap_or_default().is_empty()>"all"</option>
                    {EngineId::ALL
                        .into_iter()
                        .map(|e| view! {
                            <option value=e.as_str() selected=move || engine_selected(e.as_str())>{e.as_str()}</option>
                        })
                        .collect_view()}
                </select>
            </label>
            <label>"Subject starts with " <input type="search" name="search" size="14" maxlength="100" placeholder="e.g. XA-PAR" value=move || q().search.unwrap_or_default()/></label>
            <label>"Exact subject " <input type="text" name="subject" value=move || q().subject.unwrap_or_default()/></label>
            <label>"Kind " <input type="text" name="kind" value=move || q().kind.unwrap_or_default()/></label>
            <label>"From " <input type="text" name="from" size="8" placeholder="e.g. 5m" value=move || q().from.unwrap_or_default()/></label>
            <label>"To " <input type="text" name="to" size="8" placeholder="e.g. 2h" value=move || q().to.unwrap_or_default()/></label>
            <label>"Sort by "
                <select name="sort">
                    // Time is the default: no `sort` in the URL.
                    {HISTORY_SORTS
                        .into_iter()
                        .map(|(name, sort)| {
                            let value = if sort == HistorySort::Time { "" } else { name };
                            view! {
                                <option value=value selected=move || sorted_by(&q()) == sort>{name}</option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
            <label>"Order "
                <select name="order">
                    <option value="" selected=move || q().order.as_deref() != Some("oldest")>"newest first (names from Z)"</option>
                    <option value="oldest" selected=move || q().order.as_deref() == Some("oldest")>"oldest first (names from A)"</option>
                </select>
            </label>
            <button type="submit" class="primary">"Filter"</button>
            <a href="/history" class="button">"Clear"</a>
        </FilterForm>
    }
}

#[component]
fn Results(page: Page, query: HistoryQuery) -> impl IntoView {
    let qs = query.to_query_string();
    let export = |format: &str| {
        let run = if query.run.as_deref().unwrap_or("").is_empty() {
            format!("&run={}", page.run_id)
        } else {
            String::new()
        };
        let sep = if qs.is_empty() { "" } else { "&" };
        format!("/api/history/export?format={format}{run}{sep}{qs}")
    };
    let href = |side: &str, place: &str| {
        let sep = if qs.is_empty() { "" } else { "&" };
        format!("/history?{qs}{sep}{side}={place}")
    };
    let newer = page.newer.as_deref().map(|p| href("after", p));
    let older = page.older.as_deref().map(|p| href("before", p));
    let shown = page.rows.len();
    // Read oldest first, the page turns the other way: the next page is the newer one.
    let oldest_first = query.order.as_deref() == Some("oldest");
    let sort = sorted_by(&query);
    let mut rows = page.rows;
    let (prev, next) = if oldest_first {
        rows.reverse();
        (older, newer)
    } else {
        (newer, older)
    };
    let (prev_label, next_label) = match (sort, oldest_first) {
        (HistorySort::Time, true) => ("← Older", "Newer →"),
        (HistorySort::Time, false) => ("← Newer", "Older →"),
        _ => ("← Previous", "Next →"),
    };
    let order_text = match (sort, oldest_first) {
        (HistorySort::Time, true) => "oldest first".to_owned(),
        (HistorySort::Time, false) => "newest first".to_owned(),
        (sort, true) => format!(
            "by {} from A, each oldest first",
            key_of(&HISTORY_SORTS, &sort)
        ),
        (sort, false) => format!(
            "by {} from Z, each newest first",
            key_of(&HISTORY_SORTS, &sort)
        ),
    };
    let head = sort_headers(&query, sort, !oldest_first);
    let run_label = page
        .runs
        .iter()
        .find(|r| r.id == page.run_id)
        .map(|r| {
            format!(
                "run {} · {} · seed {} · started {}",
                r.id, r.scenario, r.seed, r.started_at
            )
        })
        .unwrap_or_else(|| format!("run {} (unknown)", page.run_id));
    view! {
        <section class="card">
            <div class="toolbar">
                <span id=ids::HISTORY_SHOWN data-rows=shown.to_string()>
                    {format!("{shown} events, {order_text}")}
                </span>
                <span class="muted">{run_label}</span>
                <span class="spacer"></span>
                <a class="button" href=export("csv") download="">"Export CSV"</a>
                <a class="button" href=export("json") download="">"Export JSON"</a>
            </div>
            <EventTable rows id=ids::HISTORY_TABLE head run=page.run_id/>
            <nav class="pager">
                {prev.map(|h| view! { <a href=h rel="prev">{prev_label}</a> })}
                <span>{format!("{} per page", page.per_page)}</span>
                {next.map(|h| view! { <a href=h rel="next">{next_label}</a> })}
            </nav>
            <details class="muted small">
                <summary>"Other runs"</summary>
                <ul>
                    {page.runs.iter().map(|r| view! {
                        <li><a href=format!("/history?run={}", r.id)>{format!("run {} · {} · seed {} · {}", r.id, r.scenario, r.seed, r.started_at)}</a></li>
                    }).collect_view()}
                </ul>
            </details>
        </section>
    }
}

/// The column `query` sorts by (time when it names none or one the server refuses).
fn sorted_by(query: &HistoryQuery) -> HistorySort {
    keyed("sort", &HISTORY_SORTS, query.sort.as_deref())
        .ok()
        .flatten()
        .unwrap_or_default()
}

/// The history table's header cells: time, engine, subject and kind sort the history (a
/// new order starts at its first page and keeps the filters); details and actor do not.
fn sort_headers(query: &HistoryQuery, sort: HistorySort, desc: bool) -> AnyView {
    let filters = HistoryQuery {
        sort: None,
        order: None,
        ..query.clone()
    }
    .to_query_string();
    let now = SortedBy {
        key: key_of(&HISTORY_SORTS, &sort),
        desc,
    };
    let header = |key: &'static str, label: &'static str| {
        // Time reads newest first at a first click, the names from A.
        sort_header(key, label, now, key == "time", |key, desc| {
            let order = if desc { "newest" } else { "oldest" };
            let sep = if filters.is_empty() { "" } else { "&" };
            format!("/history?{filters}{sep}sort={key}&order={order}")
        })
    };
    view! {
        {header("time", "Sim time")}
        {header("engine", "Engine")}
        {header("subject", "Subject")}
        {header("kind", "Kind")}
        <th>"Details"</th>
        <th>"Actor"</th>
    }
    .erase()
}
