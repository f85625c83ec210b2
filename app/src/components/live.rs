//! The live connection to the server's event stream (`GET /api/stream`, server-sent events):
//! `clock` messages carry a [`ClockView`], `event` messages an [`EventRow`], and a last
//! `shutdown` message says the server is stopping. Only the browser opens it, once per tab
//! (pages share it through the context); the server-rendered page shows the state read at
//! render time. A page is read again from the server when the stream says its engine changed
//! ([`LiveRefresh`]).

use leptos::prelude::*;

use crate::model::{ClockView, EventRow};

/// How many live events the dashboard shows.
pub const FEED_LEN: usize = 30;

/// How many live events the dashboard keeps, so that a filtered feed (heartbeats hidden, one
/// engine) still has [`FEED_LEN`] rows to show.
pub const FEED_KEPT: usize = 150;

/// Signals fed by the live stream: one stream per browser tab, shared by every page through
/// the context ([`provide_live`] at the root, [`use_live`] in pages).
#[derive(Clone, Copy)]
pub struct Live {
    /// The latest clock status received, if any.
    pub clock: RwSignal<Option<ClockView>>,
    /// Live events received, newest first (at most [`FEED_KEPT`]).
    pub events: RwSignal<Vec<EventRow>>,
    /// Events received since the page was loaded (the newest `received - seen` of
    /// [`Self::events`] are the ones a watcher has not seen yet).
    pub received: RwSignal<u64>,
    /// The engines the server named in its latest `changed` message (changes among the
    /// events it skipped to keep the stream small), with a count of such messages.
    pub changed: RwSignal<(u64, Vec<String>)>,
    /// Whether the stream is connected.
    pub connected: RwSignal<bool>,
    /// Confirmations open on the page ([`crate::components::confirm::ConfirmButton`]): while
    /// one is, live refreshes wait, so that the question does not vanish under the person
    /// answering it (the refresh happens once it is closed).
    pub holds: RwSignal<u32>,
}

/// Creates the live signals for the rendering of a page and puts them in the context (in the
/// browser, [`use_live`] opens the tab's stream the first time an island asks for it).
pub fn provide_live() -> Live {
    let live = Live {
        clock: RwSignal::new(None),
        events: RwSignal::new(Vec::new()),
        received: RwSignal::new(0),
        changed: RwSignal::new((0, Vec::new())),
        connected: RwSignal::new(false),
        holds: RwSignal::new(0),
    };
    provide_context(live);
    live
}

/// The tab's live signals: in the browser one set per tab, whose stream opens the first time
/// an island asks for it; on the server the context's ([`provide_live`]), or a detached set.
pub fn use_live() -> Live {
    #[cfg(feature = "hydrate")]
    {
        browser::tab_live()
    }
    #[cfg(not(feature = "hydrate"))]
    {
        use_context::<Live>().unwrap_or_else(detached)
    }
}

/// A set of live signals fed by nothing.
fn detached() -> Live {
    Live {
        clock: RwSignal::new(None),
        events: RwSignal::new(Vec::new()),
        received: RwSignal::new(0),
        changed: RwSignal::new((0, Vec::new())),
        connected: RwSignal::new(false),
        holds: RwSignal::new(0),
    }
}

/// Re-reads the page from the server when the live stream says `engine` changed (one engine,
/// several separated by commas, or [`ALERTS`] for the counts of firing alerts; at most once
/// per [`LIVE_REFRESH_GAP_MS`]); the console's reader ([`crate::components::reader`]) diffs
/// the new page into the one shown, so what a person is typing, the scroll and the islands'
/// state stay. Nothing happens while the page shows the past (`?at=`).
#[component]
pub fn LiveRefresh(#[prop(into)] engine: String) -> impl IntoView {
    let past = crate::time_travel::page_shows_past();
    // As the browser's address reads it (`components::reader::here`): the path, then `?` and
    // the query if any.
    let location = leptos_router::hooks::use_location();
    let search = location.search.get_untracked();
    let search = search.trim_start_matches('?');
    let page = if search.is_empty() {
        location.pathname.get_untracked()
    } else {
        format!("{}?{search}", location.pathname.get_untracked())
    };
    view! { <LiveRefreshIsland engine past page/> }
}

/// [`LiveRefresh`] in the browser: the island, one per page (its address in the props).
#[island]
fn LiveRefreshIsland(engine: String, past: bool, page: String) -> impl IntoView {
    // Another page gets an island of its own (its address is in the props). The island of a
    // page left is out of the document but still listening: it reads nothing once the
    // address is not its page's.
    #[cfg(feature = "hydrate")]
    if !past {
        let tick = refresh_ticks(engine);
        Effect::new(move |prev: Option<u64>| {
            let now = tick.get();
            if prev.is_some_and(|p| p != now) && crate::components::reader::here() == page {
                reload_in_place();
            }
            now
        });
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (engine, past, page);
}

/// Reads the page shown again from the server and diffs it in (the console's reader,
/// [`crate::components::reader`]), as a live refresh does.
pub fn reload_in_place() {
    #[cfg(feature = "hydrate")]
    crate::components::reader::read_in_place(
        crate::components::reader::here(),
        crate::components::reader::History::Replace,
    );
}

/// Goes to `url` (path and query) as a link click would: the console's reader reads the page
/// from the server and diffs it in, adding a history entry.
pub fn navigate_to(url: &str) {
    #[cfg(feature = "hydrate")]
    crate::components::reader::read_in_place(
        url.to_owned(),
        crate::components::reader::History::Push,
    );
    #[cfg(not(feature = "hydrate"))]
    let _ = url;
}

/// The name [`LiveRefresh`] takes for the alerts: a page of alerts is read again when the
/// counts of firing alerts in the live clock status change.
pub const ALERTS: &str = "alerts";

/// Wall milliseconds a refresh waits after the event that asks for it: the store writes the
/// events it is sent every 200 ms at most.
pub const LIVE_REFRESH_SETTLE_MS: u64 = 400;

/// Fewest wall milliseconds between two refreshes driven by the stream.
pub const LIVE_REFRESH_GAP_MS: u64 = 1_000;

/// Whether an event kind is a liveness signal (it changes nothing a page shows).
pub fn is_heartbeat(kind: &str) -> bool {
    kind.contains("heartbeat")
}

/// Whether a live event says that a page of `engines` (one engine, or several separated by
/// commas) may show something new: an event of one of them other than a liveness signal.
pub fn changes_engine(event: &EventRow, engines: &str) -> bool {
    engines.split(',').any(|e| e == event.engine) && !is_heartbeat(&event.kind)
}

/// A counter that goes up when the live stream brings an event of `engine` that changes what
/// its pages show (not a heartbeat), at most once per [`LIVE_REFRESH_GAP_MS`] (events in
/// between are folded into one refresh at the end of the gap).
#[cfg(feature = "hydrate")]
fn refresh_ticks(engine: String) -> ReadSignal<u64> {
    let (tick, set_tick) = signal(0u64);
    let live = use_live();
    let seen = StoredValue::new(live.received.get_untracked());
    let seen_changed = StoredValue::new(live.changed.with_untracked(|c| c.0));
    let last_refresh = StoredValue::new(0f64);
    let pending = StoredValue::new(false);
    // A change seen and not refreshed yet (waiting for a confirmation to close).
    let deferred = StoredValue::new(false);
    let alerts_seen = StoredValue::new(live.clock.with_untracked(|c| c.as_ref().map(|c| c.alerts)));
    Effect::new(move |_| {
        let held = live.holds.get() > 0;
        // The alerts: the counts of the clock status, when they change.
        let alerts_changed = engine.split(',').any(|e| e == ALERTS) && {
            let now = live.clock.with(|c| c.as_ref().map(|c| c.alerts));
            let before = alerts_seen.get_value();
            alerts_seen.set_value(now);
            before.is_some() && now.is_some() && before != now
        };
        let received = live.received.get();
        let (changes, named) = live.changed.get();
        let new = received.saturating_sub(seen.get_value()) as usize;
        // Changes of this engine among the events the server skipped.
        let skipped = changes != seen_changed.get_value()
            && named.iter().any(|n| engine.split(',').any(|e| e == n));
        seen.set_value(received);
        seen_changed.set_value(changes);
        let relevant = skipped
            || alerts_changed
            || (new > 0
                && live.events.with_untracked(|events| {
                    events.iter().take(new).any(|e| changes_engine(e, &engine))
                }));
        if relevant {
            deferred.set_value(true);
        }
        if held || !deferred.get_value() || pending.get_value() {
            return;
        }
        deferred.set_value(false);
        let now = js_sys_now();
        // A moment for the event to be stored: what a page reads of the history (its feed,
        // its charts) is what the store holds.
        let wait = (last_refresh.get_value() + LIVE_REFRESH_GAP_MS as f64 - now)
            .max(LIVE_REFRESH_SETTLE_MS as f64);
        pending.set_value(true);
        set_timeout(
            move || {
                pending.set_value(false);
                if live.holds.get_untracked() > 0 {
                    // A confirmation opened meanwhile: refresh once it closes.
                    deferred.set_value(true);
                    return;
                }
                last_refresh.set_value(js_sys_now());
                set_tick.update(|t| *t += 1);
            },
            std::time::Duration::from_millis(wait as u64),
        );
    });
    tick
}

/// Milliseconds of wall time in the browser (`performance.now()`-like, from `Date.now()`).
#[cfg(feature = "hydrate")]
fn js_sys_now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

#[cfg(feature = "hydrate")]
mod browser {
    use leptos::prelude::*;
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    use web_sys::{Event, EventSource, MessageEvent};

    use super::{Live, FEED_KEPT};
    use crate::model::{ClockView, EventRow};

    type Handler = Closure<dyn FnMut(MessageEvent)>;

    fn text(ev: &MessageEvent) -> Option<String> {
        ev.data().as_string()
    }

    /// The tab's stream and the closures it calls (they must live as long as it does).
    type Stream = (EventSource, Vec<Box<dyn std::any::Any>>);

    thread_local! {
        static STREAM: std::cell::RefCell<Option<Stream>> = const { std::cell::RefCell::new(None) };
    }

    thread_local! {
        static LIVE: std::cell::Cell<Option<Live>> = const { std::cell::Cell::new(None) };
    }

    /// The tab's live signals, created and connected the first time.
    pub(super) fn tab_live() -> Live {
        if let Some(live) = LIVE.with(std::cell::Cell::get) {
            return live;
        }
        // Under an owner of their own that is never disposed: the island that asks first
        // may be disposed when its page is left (the console's reader).
        let owner = leptos::reactive::owner::Owner::new_root(None);
        let live = owner.with(super::detached);
        std::mem::forget(owner);
        LIVE.with(|cell| cell.set(Some(live)));
        connect(live);
        live
    }

    pub(super) fn connect(live: Live) {
        let open = STREAM.with(|s| {
            s.borrow()
                .as_ref()
                .is_some_and(|(source, _)| source.ready_state() != EventSource::CLOSED)
        });
        if open {
            return;
        }
        let Ok(source) = EventSource::new("/api/stream") else {
            return;
        };
        let on_clock: Handler = Closure::new(move |ev: MessageEvent| {
            if let Some(v) = text(&ev).and_then(|t| serde_json::from_str::<ClockView>(&t).ok()) {
                live.clock.set(Some(v));
            }
        });
        let on_event: Handler = Closure::new(move |ev: MessageEvent| {
            if let Some(row) = text(&ev).and_then(|t| serde_json::from_str::<EventRow>(&t).ok()) {
                live.events.update(|events| {
                    events.insert(0, row);
                    events.truncate(FEED_KEPT);
                });
                live.received.update(|n| *n += 1);
            }
        });
        let on_changed: Handler = Closure::new(move |ev: MessageEvent| {
            let engines = text(&ev).and_then(|t| serde_json::from_str::<Vec<String>>(&t).ok());
            if let Some(engines) = engines {
                live.changed.update(|(n, named)| {
                    *n += 1;
                    *named = engines;
                });
            }
        });
        let on_open: Closure<dyn FnMut(Event)> = Closure::new(move |_| live.connected.set(true));
        let on_error: Closure<dyn FnMut(Event)> = Closure::new(move |_| live.connected.set(false));
        // The server is stopping; the browser reconnects on its own once it is back.
        let on_shutdown: Handler = Closure::new(move |_| live.connected.set(false));
        let _ = source.add_event_listener_with_callback("clock", on_clock.as_ref().unchecked_ref());
        let _ = source.add_event_listener_with_callback("event", on_event.as_ref().unchecked_ref());
        let _ =
            source.add_event_listener_with_callback("changed", on_changed.as_ref().unchecked_ref());
        let _ = source
            .add_event_listener_with_callback("shutdown", on_shutdown.as_ref().unchecked_ref());
        source.set_onopen(Some(on_open.as_ref().unchecked_ref()));
        source.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        let held: Vec<Box<dyn std::any::Any>> = vec![
            Box::new(on_clock),
            Box::new(on_event),
            Box::new(on_changed),
            Box::new(on_shutdown),
            Box::new(on_open),
            Box::new(on_error),
        ];
        // A closed stream that is replaced goes with its closures.
        STREAM.with(|s| {
            if let Some((old, _)) = s.replace(Some((source, held))) {
                old.close();
            }
        });
    }
}
