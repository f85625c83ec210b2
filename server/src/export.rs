//! `GET /api/history/export?format=csv|json&…filters`: the filtered events of a run, oldest
//! first, as a CSV or JSON download. Same filters and validation as the history page.

use app::model::HistoryQuery;
use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;

use crate::state::ServerState;

/// Most rows one export returns (the response says when it was cut).
pub const MAX_EXPORT_ROWS: i64 = 200_000;

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

/// The handler (any signed-in user; the gate has checked the session).
pub async fn export(
    State(state): State<ServerState>,
    Query(params): Query<ExportParams>,
) -> Response {
    let format = params.format.as_deref().unwrap_or("csv");
    if format != "csv" && format != "json" {
        return refuse("format", "must be csv or json");
    }
    let filter = match params.query.validate() {
        Ok(f) => f,
        Err(app::error::AppError::Invalid { field, message }) => return refuse(&field, &message),
        Err(e) => return refuse("query", &e.to_string()),
    };
    let services = &state.services;
    let store = app::api::history::store_filter(&filter, services.runtime.run().id);
    let rows =
        match services::history::export_events(&services.pool, &store, MAX_EXPORT_ROWS + 1).await {
            Ok(rows) => rows,
            Err(e) => {
                tracing::error!(error = %e, "export failed");
                return StatusCode::INTERNAL_SERVER_ERROR.into_response();
            }
        };
    let truncated = rows.len() as i64 > MAX_EXPORT_ROWS;
    let rows = &rows[..rows.len().min(MAX_EXPORT_ROWS as usize)];
    let name = format!("switchyard-run{}-events.{format}", store.run_id);
    let body = if format == "json" {
        json_body(rows)
    } else {
        match csv_body(rows) {
            Ok(body) => body,
            Err(e) => {
                tracing::error!(error = %e, "csv encoding failed");
                return StatusCode::INTERNAL_SERVER_ERROR.into_response();
            }
        }
    };
    let content_type = if format == "json" {
        "application/json"
    } else {
        "text/csv; charset=utf-8"
    };
    (
        [
            (header::CONTENT_TYPE, content_type.to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
            (
                header::HeaderName::from_static("x-switchyard-truncated"),
                truncated.to_string(),
            ),
        ],
        body,
    )
        .into_response()
}

/// One JSON array of event objects (details as objects, not text).
fn json_body(rows: &[services::history::StoredEvent]) -> String {
    let items: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| {
            let details: serde_json::Value = serde_json::from_str(&r.details)
                .unwrap_or(serde_json::Value::String(r.details.clone()));
            serde_json::json!({
                "t_ms": r.t_ms,
                "engine": r.engine,
                "subject": r.subject,
                "kind": r.kind,
                "details": details,
                "actor": r.actor,
            })
        })
        .collect();
    serde_json::Value::Array(items).to_string()
}

/// CSV with a header row; details as JSON text.
fn csv_body(rows: &[services::history::StoredEvent]) -> Result<String, csv::Error> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(["t_ms", "engine", "subject", "kind", "details", "actor"])?;
    for r in rows {
        writer.write_record([
            r.t_ms.to_string().as_str(),
            &r.engine,
            &r.subject,
            &r.kind,
            &r.details,
            r.actor.as_deref().unwrap_or(""),
        ])?;
    }
    let bytes = writer.into_inner().map_err(|e| e.into_error())?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
