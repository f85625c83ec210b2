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
use engine::EngineId;
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
        (runtime.subscribe(), Budget::new(Instant::now())),
        |(mut rx, mut budget)| async move {
            loop {
                if let Some(engines) = budget.close_window(Instant::now()) {
                    let Ok(message) = SseEvent::default().event("changed").json_data(&engines)
                    else {
                        continue;
                    };
                    return Some((message, (rx, budget)));
                }
                let received = match budget.deadline() {
                    None => rx.recv().await,
                    Some(deadline) => match tokio::time::timeout_at(deadline, rx.recv()).await {
                        Ok(received) => received,
                        // The window ended with skipped changes: say so now.
                        Err(_) => continue,
                    },
                };
                match received {
                    Ok(event) => {
                        if !budget.admit(Instant::now(), event.engine, &event.kind) {
                            continue;
                        }
                        let Ok(message) = SseEvent::default()
                            .event("event")
                            .json_data(EventRow::from(event.as_ref()))
                        else {
                            continue;
                        };
                        return Some((message, (rx, budget)));
                    }
                    // The connection fell behind the runtime: any engine may have changed.
                    Err(RecvError::Lagged(_)) => budget.lost_unknown(),
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

/// One connection's event budget: at most [`EVENTS_PER_WINDOW`] event messages per
/// [`WINDOW`], and the engines whose changes (events other than heartbeats) were skipped,
/// to be named when the window ends. Pure: the caller passes the instants.
#[derive(Debug, Clone)]
pub struct Budget {
    window_start: Instant,
    sent: u32,
    skipped: Vec<EngineId>,
}

impl Budget {
    /// A budget whose first window starts at `now`.
    pub fn new(now: Instant) -> Budget {
        Budget {
            window_start: now,
            sent: 0,
            skipped: Vec::new(),
        }
    }

    /// Whether an event of `engine` and `kind` arriving at `now` is sent; if not, its engine
    /// is remembered when the event is a change.
    pub fn admit(&mut self, now: Instant, engine: EngineId, kind: &str) -> bool {
        if now.duration_since(self.window_start) >= WINDOW && self.skipped.is_empty() {
            self.window_start = now;
            self.sent = 0;
        }
        if self.sent < EVENTS_PER_WINDOW {
            self.sent += 1;
            return true;
        }
        if !is_heartbeat(kind) && !self.skipped.contains(&engine) {
            self.skipped.push(engine);
        }
        false
    }

    /// Events were lost without being seen (the connection fell behind): every engine may
    /// have changed.
    pub fn lost_unknown(&mut self) {
        self.skipped = EngineId::ALL.to_vec();
    }

    /// When the current window ends, if changes were skipped in it (the caller must then
    /// come back by that instant even if no event arrives).
    pub fn deadline(&self) -> Option<Instant> {
        (!self.skipped.is_empty()).then_some(self.window_start + WINDOW)
    }

    /// At or after the end of the window: starts the next one and returns the names of the
    /// engines whose changes were skipped, if any.
    pub fn close_window(&mut self, now: Instant) -> Option<Vec<&'static str>> {
        if now.duration_since(self.window_start) < WINDOW {
            return None;
        }
        self.window_start = now;
        self.sent = 0;
        if self.skipped.is_empty() {
            return None;
        }
        Some(
            std::mem::take(&mut self.skipped)
                .into_iter()
                .map(EngineId::as_str)
                .collect(),
        )
    }
}
