//! `GET /api/stream`: server-sent events for live views. `clock` messages carry the clock
//! status after every runtime tick; `event` messages carry engine events, at most
//! [`EVENTS_PER_WINDOW`] per [`WINDOW`] per connection (at speed `max` the engines produce far
//! more than a page can show; the clock's counters stay exact), and a `changed` message names
//! the engines whose changes were among the skipped ones. When the server stops, every
//! stream ends with one `shutdown` message, so that open pages never hold the process up.

use std::convert::Infallible;
use std::time::Duration;

use app::components::live::is_heartbeat;
use app::model::{ClockView, EventRow};
use axum::extract::State;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use futures::{Stream, StreamExt};
use tokio::sync::broadcast::error::RecvError;
use tokio::time::Instant;
use tokio_stream::wrappers::WatchStream;

use crate::state::ServerState;

/// Length of the rate window for event messages.
pub const WINDOW: Duration = Duration::from_millis(250);
/// Event messages sent per window at most; the rest are skipped.
pub const EVENTS_PER_WINDOW: u32 = 20;

/// The handler.
pub async fn stream(
    State(state): State<ServerState>,
) -> Sse<impl Stream<Item = Result<SseEvent, Infallible>>> {
    let runtime = &state.services.runtime;
    let clock = WatchStream::new(runtime.watch_status()).filter_map(|status| async move {
        SseEvent::default()
            .event("clock")
            .json_data(ClockView::from(status))
            .ok()
    });
    // Events over the window's budget are skipped; the engines whose changes were among them
    // are named in one `changed` message at the end of the window, so a page that refreshes
    // on its engine's changes never misses one.
    let events = futures::stream::unfold(
        (
            runtime.subscribe(),
            Instant::now(),
            0u32,
            Vec::<&'static str>::new(),
        ),
        |(mut rx, mut window, mut sent, mut skipped)| async move {
            loop {
                if window.elapsed() >= WINDOW {
                    window = Instant::now();
                    sent = 0;
                    if !skipped.is_empty() {
                        let engines = std::mem::take(&mut skipped);
                        let Ok(message) = SseEvent::default().event("changed").json_data(&engines)
                        else {
                            continue;
                        };
                        return Some((message, (rx, window, sent, skipped)));
                    }
                }
                let received = if skipped.is_empty() {
                    rx.recv().await
                } else {
                    match tokio::time::timeout_at(window + WINDOW, rx.recv()).await {
                        Ok(received) => received,
                        // The window ended with skipped changes: say so now.
                        Err(_) => continue,
                    }
                };
                match received {
                    Ok(event) => {
                        if window.elapsed() >= WINDOW {
                            window = Instant::now();
                            sent = 0;
                        }
                        if sent >= EVENTS_PER_WINDOW {
                            let engine = event.engine.as_str();
                            if !is_heartbeat(&event.kind) && !skipped.contains(&engine) {
                                skipped.push(engine);
                            }
                            continue;
                        }
                        sent += 1;
                        let Ok(message) = SseEvent::default()
                            .event("event")
                            .json_data(EventRow::from(event.as_ref()))
                        else {
                            continue;
                        };
                        return Some((message, (rx, window, sent, skipped)));
                    }
                    Err(RecvError::Lagged(_)) => continue,
                    Err(RecvError::Closed) => return None,
                }
            }
        },
    );
    let farewell = futures::stream::once(async {
        SseEvent::default()
            .event("shutdown")
            .data("the console is shutting down")
    });
    let merged = futures::stream::select(clock, events)
        .take_until(runtime.stopping())
        .chain(farewell)
        .map(Ok);
    Sse::new(merged).keep_alive(KeepAlive::default())
}
