//! The sign-in gate: anonymous requests to pages are redirected to the sign-in page, anonymous
//! API calls get 401. Roles are checked by each server function itself, not here.

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use axum::Json;
use tower_sessions::Session;

use crate::state::ServerState;

/// Paths open without signing in.
fn is_public(path: &str) -> bool {
    matches!(
        path,
        "/login" | "/api/login" | "/healthz" | "/metrics" | "/favicon.svg" | "/robots.txt"
    ) || path.starts_with("/pkg/")
}

/// Percent-encodes a path and query for the `next` parameter.
fn encode_next(path_and_query: &str) -> String {
    let mut out = String::with_capacity(path_and_query.len());
    for b in path_and_query.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b'/') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// 503 for a request that cannot be served while the database does not answer.
fn unavailable() -> Response {
    let body = serde_json::json!({
        "error": app::error::AppError::Unavailable.to_string(),
        "status": 503,
    });
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(axum::http::header::RETRY_AFTER, "5")],
        Json(body),
    )
        .into_response()
}

/// The session's user: on SQLite as remembered when it was looked up less than a second ago
/// ([`services::signed_in`]), else from the session record and the account. Sessions live in
/// the database: when it does not answer, nobody can be recognised.
async fn signed_in_user(
    state: &ServerState,
    session: &Session,
) -> Result<Option<services::accounts::User>, services::ServiceError> {
    let services = &state.services;
    let Some(id) = session.id() else {
        return Ok(None);
    };
    // Only an SQLite file, which this console alone serves, is trusted to stay as it was
    // read: on PostgreSQL every request asks, so that a sign-out on another replica counts
    // at once and a database that stops answering is reported here.
    let remember = services.store.dialect() == services::store::Dialect::Sqlite;
    let version = services.store.accounts_version();
    if let Some(user) = remember
        .then(|| services.signed_in.get(id, version))
        .flatten()
    {
        return Ok(Some(user));
    }
    let user = app::auth::session_user(&services.store, session).await?;
    if let (true, Some(user)) = (remember, &user) {
        services.signed_in.put(id, version, user.clone());
    }
    Ok(user)
}

/// The middleware.
pub async fn require_sign_in(
    State(state): State<ServerState>,
    session: Session,
    mut request: Request,
    next: Next,
) -> Response {
    let path = request.uri().path().to_owned();
    if is_public(&path) {
        return next.run(request).await;
    }
    let signed_in = match signed_in_user(&state, &session).await {
        Ok(Some(user)) => {
            // The server functions of this request read it from here (one lookup per request).
            request
                .extensions_mut()
                .insert(app::auth::RequestUser(user));
            true
        }
        Ok(None) => false,
        Err(services::ServiceError::Unavailable(e)) => {
            tracing::warn!(error = %e, "session or account lookup failed");
            return unavailable();
        }
        Err(e) => {
            tracing::error!(error = %e, "account lookup failed");
            false
        }
    };
    if signed_in {
        return next.run(request).await;
    }
    if path.starts_with("/api/") {
        let body = serde_json::json!({ "error": "sign in first", "status": 401 });
        return (StatusCode::UNAUTHORIZED, Json(body)).into_response();
    }
    let target = request.uri().path_and_query().map_or("/", |pq| pq.as_str());
    if target == "/" {
        Redirect::to("/login").into_response()
    } else {
        Redirect::to(&format!("/login?next={}", encode_next(target))).into_response()
    }
}
