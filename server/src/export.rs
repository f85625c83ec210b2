//! `GET /api/history/export?format=csv|json&…filters`: the filtered events of a run, oldest
//! first, as a CSV or JSON download. Same filters and validation as the history page.
//!
//! The body is streamed: rows are read by keyset in steps of [`EXPORT_BATCH_ROWS`] and
//! encoded as they go, so an export of ten million events holds one step in memory. At most
//! [`MAX_EXPORTS_PER_USER`] exports of one user run at once (429 with `Retry-After` beyond).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use app::model::HistoryQuery;
use axum::body::{Body, Bytes};
use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use services::history::{self, Cursor, EventFilter, StoredEvent};
use tower_sessions::Session;

use crate::state::ServerState;

/// Rows read from the store per step of an export: an export holds one step's rows and
/// their encoding in memory, whatever the size of the run.
pub const EXPORT_BATCH_ROWS: i64 = 2_000;

/// Exports one user may run at the same time; one more answers 429.
pub const MAX_EXPORTS_PER_USER: usize = 2;

/// Query parameters: the format and the history filters.
#[derive(Debug, Deserialize)]
pub struct ExportParams {
    /// `csv` (default) or `json`.
    pub format: Option<String>,
    /// The history filters.
    #[serde(flatten)]
    pub query: HistoryQuery,
}

fn refuse(field: &str, message: &str) -> Response {
    let body = serde_json::json!({ "error": format!("{field}: {message}"), "field": field });
    (StatusCode::UNPROCESSABLE_ENTITY, Json(body)).into_response()
}

/// Exports running now, per user id.
#[derive(Debug, Clone, Default)]
pub struct ExportSlots {
    running: Arc<Mutex<HashMap<i64, usize>>>,
}

/// One running export; its slot is given back when the body is finished or dropped.
struct Slot {
    slots: ExportSlots,
    user: i64,
}

impl ExportSlots {
    /// Takes a slot for `user`, or `None` when they run [`MAX_EXPORTS_PER_USER`] already.
    fn take(&self, user: i64) -> Option<Slot> {
        let mut running = self.running.lock().ok()?;
        let count = running.entry(user).or_default();
        if *count >= MAX_EXPORTS_PER_USER {
            return None;
        }
        *count += 1;
        Some(Slot {
            slots: self.clone(),
            user,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Ok(mut running) = self.slots.running.lock() {
            if let Some(count) = running.get_mut(&self.user) {
                *count = count.saturating_sub(1);
                if *count == 0 {
                    running.remove(&self.user);
                }
            }
        }
    }
}

/// The handler (any signed-in user; the gate has checked the session).
pub async fn export(
    State(state): State<ServerState>,
    session: Session,
    Query(params): Query<ExportParams>,
) -> Response {
    let format = match params.format.as_deref().unwrap_or("csv") {
        "csv" => Format::Csv,
        "json" => Format::Json,
        _ => return refuse("format", "must be csv or json"),
    };
    let filter = match params.query.validate() {
        Ok(f) => f,
        Err(app::error::AppError::Invalid { field, message }) => return refuse(&field, &message),
        Err(e) => return refuse("query", &e.to_string()),
    };
    let user = match session.get::<i64>(app::auth::USER_ID_KEY).await {
        Ok(Some(user)) => user,
        _ => return StatusCode::UNAUTHORIZED.into_response(),
    };
    let Some(slot) = state.exports.take(user) else {
        let body = serde_json::json!({
            "error": format!("at most {MAX_EXPORTS_PER_USER} exports at a time: wait for one to finish"),
            "status": 429,
        });
        return (
            StatusCode::TOO_MANY_REQUESTS,
            [(header::RETRY_AFTER, "5")],
            Json(body),
        )
            .into_response();
    };
    let services = &state.services;
    let current = services.runtime.run().id;
    let store = match app::api::history::resolved_filter(&services.store, &filter, current).await {
        Ok(Some(store)) => store,
        // No subject starts with the search: an export of no rows (an empty window).
        Ok(None) => services::history::EventFilter {
            from_ms: Some(1),
            to_ms: Some(0),
            ..app::api::history::store_filter(&filter, current)
        },
        Err(app::error::AppError::Invalid { field, message }) => return refuse(&field, &message),
        Err(e) => return refuse("query", &e.to_string()),
    };
    let name = format!(
        "switchyard-run{}-events.{}",
        store.run_id,
        format.extension()
    );
    let rows = Rows {
        store: services.store.clone(),
        filter: store,
        format,
        place: None,
        started: false,
        done: false,
        _slot: slot,
    };
    (
        [
            (header::CONTENT_TYPE, format.content_type().to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        Body::from_stream(futures::stream::unfold(rows, Rows::next_chunk)),
    )
        .into_response()
}

/// The two formats of an export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Csv,
    Json,
}

impl Format {
    fn extension(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Json => "json",
        }
    }

    fn content_type(self) -> &'static str {
        match self {
            Format::Csv => "text/csv; charset=utf-8",
            Format::Json => "application/json",
        }
    }
}

/// The state of one export's body: where the next step starts.
struct Rows {
    store: services::Store,
    filter: EventFilter,
    format: Format,
    place: Option<Cursor>,
    started: bool,
    done: bool,
    _slot: Slot,
}

impl Rows {
    /// The next piece of the body: the header (CSV) or opening bracket (JSON) with the first
    /// step's rows, then one step of rows at a time, then the closing bracket (JSON).
    async fn next_chunk(mut self) -> Option<(Result<Bytes, std::io::Error>, Rows)> {
        if self.done {
            return None;
        }
        let batch =
            history::events_after(&self.store, &self.filter, self.place, EXPORT_BATCH_ROWS).await;
        let batch = match batch {
            Ok(batch) => batch,
            Err(e) => {
                // The client sees a cut-off body (no closing bracket, an incomplete CSV).
                tracing::error!(error = %e, "export failed");
                self.done = true;
                return Some((Err(std::io::Error::other("export failed")), self));
            }
        };
        let last = (batch.len() as i64) < EXPORT_BATCH_ROWS;
        self.place = batch.last().map(Cursor::of).or(self.place);
        let mut out = Vec::with_capacity(batch.len() * 160 + 64);
        if !self.started {
            out.extend_from_slice(match self.format {
                Format::Csv => b"t_ms,engine,subject,kind,details,actor\n",
                Format::Json => b"[",
            });
        }
        for (i, row) in batch.iter().enumerate() {
            match self.format {
                Format::Csv => csv_line(&mut out, row),
                Format::Json => {
                    if self.started || i > 0 {
                        out.push(b',');
                    }
                    json_item(&mut out, row);
                }
            }
        }
        self.started = true;
        if last {
            if self.format == Format::Json {
                out.push(b']');
            }
            self.done = true;
        }
        Some((Ok(Bytes::from(out)), self))
    }
}

/// One event as a JSON object (details as an object, not text).
fn json_item(out: &mut Vec<u8>, r: &StoredEvent) {
    let details: serde_json::Value =
        serde_json::from_str(&r.details).unwrap_or(serde_json::Value::String(r.details.clone()));
    let item = serde_json::json!({
        "t_ms": r.t_ms,
        "engine": r.engine,
        "subject": r.subject,
        "kind": r.kind,
        "details": details,
        "actor": r.actor,
    });
    // Writing a `Value` into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, &item);
}

/// One event as a CSV record; details as JSON text.
fn csv_line(out: &mut Vec<u8>, r: &StoredEvent) {
    let mut writer = csv::Writer::from_writer(&mut *out);
    // Writing into a Vec cannot fail.
    let _ = writer.write_record([
        r.t_ms.to_string().as_str(),
        &r.engine,
        &r.subject,
        &r.kind,
        &r.details,
        r.actor.as_deref().unwrap_or(""),
    ]);
    let _ = writer.flush();
}
