//! The overview's live event feed: the newest stored events that pass the feed's filters
//! (one engine, heartbeats shown or not), under the events the live stream brought since. The
//! server sends only the rows shown, and is asked again when a filter changes.

use std::sync::Arc;

use engine::EngineId;
use leptos::prelude::*;

use crate::answer::answer;
use crate::api::clock::recent_events;
use crate::components::built_once::build_view_next;
use crate::components::event_table::EventTable;
use crate::components::live::{is_heartbeat, Live, FEED_LEN};
use crate::erase::Erase;
use crate::ids;
use crate::model::EventRow;
use crate::pages::LoadError;

/// The same event, whether read from the store (with its row id) or from the stream (none).
fn same_event(a: &EventRow, b: &EventRow) -> bool {
    a.t_ms == b.t_ms
        && a.engine == b.engine
        && a.subject == b.subject
        && a.kind == b.kind
        && a.details == b.details
}

/// The rows the feed shows, newest first, at most `len`: the live events that `shown` keeps
/// and that the stored read does not hold, then the stored ones.
///
/// The store writes events in the order they happen, so a live event older than the newest
/// stored one was stored already (it is in `stored`, or older than all of it); one at the
/// same instant is new unless `stored` has it.
pub fn feed_rows(
    live: &[EventRow],
    stored: &[EventRow],
    shown: impl Fn(&EventRow) -> bool,
    len: usize,
) -> Vec<EventRow> {
    let newest = stored.first().map(|e| e.t_ms);
    let fresh = |e: &&EventRow| match newest {
        None => true,
        Some(t) => {
            e.t_ms > t
                || (e.t_ms == t
                    && !stored
                        .iter()
                        .take_while(|s| s.t_ms == t)
                        .any(|s| same_event(s, e)))
        }
    };
    live.iter()
        .filter(fresh)
        .chain(stored.iter())
        .filter(|e| shown(e))
        .take(len)
        .cloned()
        .collect()
}

/// The live event feed with its filters.
#[component]
pub fn LiveFeed(live: Live) -> impl IntoView {
    // Heartbeats are hidden unless asked for; every engine unless one is chosen.
    let engine = RwSignal::new(String::new());
    let heartbeats = RwSignal::new(false);
    let stored = answer(
        move || (engine.get(), heartbeats.get()),
        // Shared, not copied, by each await of the boundary below.
        |(engine, heartbeats)| async move {
            recent_events(FEED_LEN as u32, Some(engine), Some(heartbeats))
                .await
                .map(Arc::new)
        },
    );
    let shown = move |e: &EventRow| {
        let (engine, heartbeats) = (engine.get(), heartbeats.get());
        (engine.is_empty() || e.engine == engine) && (heartbeats || !is_heartbeat(&e.kind))
    };
    view! {
        <section class="card">
            <h2>
                "Live events "
                <span class="muted small">
                    {move || if live.connected.get() { "● live" } else { "○ connecting" }}
                </span>
            </h2>
            <div class="filters form inline" id="feed-filters">
                <label>
                    "Engine "
                    <select
                        name="feed-engine"
                        on:change=move |ev| engine.set(event_target_value(&ev))
                        prop:value=move || engine.get()
                    >
                        <option value="">"All"</option>
                        {EngineId::ALL
                            .iter()
                            .map(|e| view! { <option value=e.as_str()>{e.as_str()}</option> })
                            .collect_view()}
                    </select>
                </label>
                <label>
                    <input
                        type="checkbox"
                        name="feed-heartbeats"
                        prop:checked=move || heartbeats.get()
                        on:change=move |ev| heartbeats.set(event_target_checked(&ev))
                    />
                    "Show heartbeats"
                </label>
            </div>
            <Transition fallback=|| view! { <p class="muted">"Loading…"</p> }>
                {move || Suspend::new(async move {
                    let stored = stored.await;
                    build_view_next().await;
                    match stored {
                        Err(e) => view! { <LoadError error=e/> }.erase(),
                        Ok(rows) => view! {
                            {move || {
                                let rows = live.events.with(|l| feed_rows(l, &rows, shown, FEED_LEN));
                                view! { <EventTable rows id=ids::LIVE_FEED/> }
                            }}
                        }.erase(),
                    }
                })}
            </Transition>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(id: Option<i64>, t_ms: u64, engine: &str, kind: &str) -> EventRow {
        EventRow {
            id,
            t_ms,
            engine: engine.into(),
            subject: "s".into(),
            kind: kind.into(),
            details: "{}".into(),
            actor: None,
        }
    }

    fn times(rows: &[EventRow]) -> Vec<(u64, &str)> {
        rows.iter().map(|e| (e.t_ms, e.kind.as_str())).collect()
    }

    #[test]
    fn live_rows_come_first_and_stored_ones_are_not_repeated() {
        let all = |_: &EventRow| true;
        let stored = vec![
            event(Some(3), 20, "lhc", "b"),
            event(Some(2), 20, "lhc", "a"),
            event(Some(1), 10, "lhc", "x"),
        ];
        // (live events newest first, expected (t, kind) of the feed)
        type Case = (Vec<EventRow>, Vec<(u64, &'static str)>);
        let cases: Vec<Case> = vec![
            (vec![], vec![(20, "b"), (20, "a"), (10, "x")]),
            // Newer than every stored row: shown above them.
            (
                vec![event(None, 30, "lhc", "c")],
                vec![(30, "c"), (20, "b"), (20, "a"), (10, "x")],
            ),
            // The same instant: new unless stored (b is, d is not).
            (
                vec![event(None, 20, "lhc", "d"), event(None, 20, "lhc", "b")],
                vec![(20, "d"), (20, "b"), (20, "a"), (10, "x")],
            ),
            // Older than the newest stored row: stored already.
            (
                vec![event(None, 15, "lhc", "y")],
                vec![(20, "b"), (20, "a"), (10, "x")],
            ),
        ];
        for (live, want) in cases {
            assert_eq!(times(&feed_rows(&live, &stored, all, 10)), want);
        }
    }

    #[test]
    fn the_filter_and_the_length_apply_to_both_sources() {
        let live = vec![
            event(None, 40, "lms", "moved"),
            event(None, 35, "lhc", "connector.heartbeat"),
            event(None, 30, "lhc", "state"),
        ];
        let stored = vec![
            event(Some(2), 20, "lhc", "old"),
            event(Some(1), 10, "gslb", "x"),
        ];
        let lhc_only = |e: &EventRow| e.engine == "lhc" && !is_heartbeat(&e.kind);
        assert_eq!(
            times(&feed_rows(&live, &stored, lhc_only, 10)),
            vec![(30, "state"), (20, "old")]
        );
        assert_eq!(
            times(&feed_rows(&live, &stored, |_| true, 2)),
            vec![(40, "moved"), (35, "connector.heartbeat")]
        );
        assert!(feed_rows(&[], &[], |_| true, 5).is_empty());
    }
}
