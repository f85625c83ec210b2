//! `GET /healthz` (JSON, 200 when the database answers, 503 otherwise) and `GET /metrics`
//! (Prometheus text).

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::state::ServerState;

/// The health check.
pub async fn healthz(State(state): State<ServerState>) -> Response {
    let database_ok = state.services.store.ping().await.is_ok();
    let status = state.services.runtime.status();
    let body = serde_json::json!({
        "status": if database_ok { "ok" } else { "degraded" },
        "database": if database_ok { "ok" } else { "unreachable" },
        "version": env!("CARGO_PKG_VERSION"),
        "role": status.role,
        "run": status.run_id,
        "lag_ms": status.follower_lag_ms,
        "journal_entries": status.journal_entries,
        "run_id": status.run_id,
        "scenario": status.scenario,
        "sim_time_ms": status.t_ms,
        "speed": status.speed,
    });
    let code = if database_ok {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (code, Json(body)).into_response()
}

/// The Prometheus exposition.
pub async fn metrics(State(state): State<ServerState>) -> Response {
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        state.prometheus.render(),
    )
        .into_response()
}
