//! The live connection to the server's event stream (`GET /api/stream`, server-sent events):
//! `clock` messages carry a [`ClockView`], `event` messages an [`EventRow`], and a last
//! `shutdown` message says the server is stopping. Only the browser
//! opens it; the server-rendered page shows the state read at render time.

use leptos::prelude::*;

use crate::model::{ClockView, EventRow};

/// How many live events the dashboard shows.
pub const FEED_LEN: usize = 30;

/// How many live events the dashboard keeps, so that a filtered feed (heartbeats hidden, one
/// engine) still has [`FEED_LEN`] rows to show.
pub const FEED_KEPT: usize = 150;

/// Signals fed by the live stream.
#[derive(Clone, Copy)]
pub struct Live {
    /// The latest clock status received, if any.
    pub clock: RwSignal<Option<ClockView>>,
    /// Live events received, newest first (at most [`FEED_KEPT`]).
    pub events: RwSignal<Vec<EventRow>>,
    /// Whether the stream is connected.
    pub connected: RwSignal<bool>,
}

/// Creates the signals and, in the browser, connects them to the stream for the lifetime of
/// the calling component.
pub fn use_live() -> Live {
    let live = Live {
        clock: RwSignal::new(None),
        events: RwSignal::new(Vec::new()),
        connected: RwSignal::new(false),
    };
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| browser::connect(live));
    live
}

#[cfg(feature = "hydrate")]
mod browser {
    use leptos::prelude::*;
    use send_wrapper::SendWrapper;
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    use web_sys::{Event, EventSource, MessageEvent};

    use super::{Live, FEED_KEPT};
    use crate::model::{ClockView, EventRow};

    type Handler = Closure<dyn FnMut(MessageEvent)>;

    fn text(ev: &MessageEvent) -> Option<String> {
        ev.data().as_string()
    }

    pub(super) fn connect(live: Live) {
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
            }
        });
        let on_open: Closure<dyn FnMut(Event)> = Closure::new(move |_| live.connected.set(true));
        let on_error: Closure<dyn FnMut(Event)> = Closure::new(move |_| live.connected.set(false));
        // The server is stopping; the browser reconnects on its own once it is back.
        let on_shutdown: Handler = Closure::new(move |_| live.connected.set(false));
        let _ = source.add_event_listener_with_callback("clock", on_clock.as_ref().unchecked_ref());
        let _ = source.add_event_listener_with_callback("event", on_event.as_ref().unchecked_ref());
        let _ = source
            .add_event_listener_with_callback("shutdown", on_shutdown.as_ref().unchecked_ref());
        source.set_onopen(Some(on_open.as_ref().unchecked_ref()));
        source.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        // The closures must live as long as the source; both go when the component does.
        let held = SendWrapper::new((source, on_clock, on_event, on_shutdown, on_open, on_error));
        on_cleanup(move || {
            let (source, ..) = held.take();
            source.close();
        });
    }
}

/// A counter that goes up every `period_ms` of wall time in the browser (never on the
/// server), for pages that re-read their data periodically. It stands still while the page
/// shows the past (`?at=`, see [`crate::time_travel`]): the past does not change.
pub fn use_refresh(period_ms: u32) -> ReadSignal<u64> {
    let (tick, set_tick) = signal(0u64);
    #[cfg(feature = "hydrate")]
    let past = use_context::<Memo<crate::time_travel::AsOf>>();
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        let handle = set_interval_with_handle(
            move || {
                if !past.is_some_and(|p| p.get_untracked().is_past()) {
                    set_tick.update(|t| *t += 1);
                }
            },
            std::time::Duration::from_millis(u64::from(period_ms)),
        );
        if let Ok(handle) = handle {
            on_cleanup(move || handle.clear());
        }
    });
    #[cfg(not(feature = "hydrate"))]
    let _ = (set_tick, period_ms);
    tick
}
