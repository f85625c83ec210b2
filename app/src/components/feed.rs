//! The overview's live event feed: the newest stored events that pass the feed's filters
//! (one engine, heartbeats shown or not), read on the server. The overview is read again when
//! the live stream says the estate changed, which brings the new events in.

use engine::EngineId;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::answer::answer;
use crate::api::clock::recent_events;
use crate::components::built_once::build_view_next;
use crate::components::event_table::EventTable;
use crate::components::filter_form::FilterForm;
use crate::components::live::FEED_LEN;
use crate::erase::Erase;
use crate::ids;
use crate::pages::LoadError;

/// The live event feed with its filters (`?feed-engine=lms&feed-heartbeats=1`, read on the
/// server; the overview is read again as the estate changes, so new events come in).
#[component]
pub fn LiveFeed() -> impl IntoView {
    let query = use_query_map();
    // Heartbeats are hidden unless asked for; every engine unless one is chosen.
    let filters = Memo::new(move |_| {
        let q = query.read();
        (
            q.get("feed-engine").unwrap_or_default(),
            q.get("feed-heartbeats").is_some_and(|v| !v.is_empty()),
        )
    });
    let stored = answer(
        move || filters.get(),
        |(engine, heartbeats)| recent_events(FEED_LEN as u32, Some(engine), Some(heartbeats)),
    );
    let (engine, heartbeats) = filters.get_untracked();
    view! {
        <section class="card">
            <h2>"Live events " <span class="muted small">"(newest first, read again as the estate changes)"</span></h2>
            <FilterForm class="filters form inline" id="feed-filters" merge=true auto=true>
                <label>
                    "Engine "
                    <select name="feed-engine">
                        <option value="" selected=engine.is_empty()>"All"</option>
                        {EngineId::ALL
                            .iter()
                            .map(|e| view! { <option value=e.as_str() selected=engine == e.as_str()>{e.as_str()}</option> })
                            .collect_view()}
                    </select>
                </label>
                <label>
                    <input type="checkbox" name="feed-heartbeats" value="1" checked=heartbeats/>
                    "Show heartbeats"
                </label>
                <button type="submit">"Filter"</button>
            </FilterForm>
            <Transition fallback=|| view! { <p class="muted">"Loading…"</p> }>
                {move || Suspend::new(async move {
                    let stored = stored.await;
                    build_view_next().await;
                    match stored {
                        Err(e) => view! { <LoadError error=e/> }.erase(),
                        Ok(rows) => view! { <EventTable rows id=ids::LIVE_FEED/> }.erase(),
                    }
                })}
            </Transition>
        </section>
    }
}
