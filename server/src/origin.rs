//! The cross-site request defence: a state-changing request (any method but `GET`, `HEAD`
//! and `OPTIONS`) is served only when it comes from one of the console's own origins
//! (`--public-url`, by default the listen address).
//!
//! A browser says where a request comes from, and a page cannot make it lie:
//! - `Sec-Fetch-Site` (every current browser): `same-origin` and `none` (the user's own
//!   navigation) pass; `same-site` (another port or subdomain of the same site) and
//!   `cross-site` are refused;
//! - `Origin` (sent with every `POST`): when present it must be one of the allowed origins;
//!   `null` (a sandboxed frame, a `data:` page) is refused.
//!
//! A request with neither header does not come from a browser (curl, scripts, the tests): no
//! page can make a browser send it with the user's cookie, so it passes.
//!
//! Server functions take forms: a `POST` to `/api/…` must also be
//! `application/x-www-form-urlencoded` — a `text/plain` body is one a page on another site
//! may send without asking first.
//!
//! A refusal answers 403 with a JSON body and writes an audit row (`http.cross_origin`,
//! outcome `refused`, with the method, path and the headers that decided).

use std::net::SocketAddr;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use tower_sessions::Session;

use crate::state::ServerState;

/// The origins state-changing requests may come from, as `scheme://host[:port]` (lower case,
/// no default port).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origins(Vec<String>);

impl Origins {
    /// The origins of the public URLs an operator gave (`--public-url`, repeatable), e.g.
    /// `https://console.example.com`. A URL with a path, query or user part, or a scheme
    /// other than `http`/`https`, is refused with the reason.
    pub fn from_urls<S: AsRef<str>>(urls: &[S]) -> Result<Origins, String> {
        let mut origins = Vec::with_capacity(urls.len());
        for url in urls {
            let url = url.as_ref().trim();
            let origin = normalise(url.strip_suffix('/').unwrap_or(url)).ok_or_else(|| {
                format!("{url:?} is not an origin: give scheme://host[:port], e.g. https://console.example.com")
            })?;
            if !origins.contains(&origin) {
                origins.push(origin);
            }
        }
        Ok(Origins(origins))
    }

    /// The default: the listen address (`http://127.0.0.1:3000`), and `http://localhost:PORT`
    /// too when it is a loopback address.
    pub fn of_listen_addr(addr: SocketAddr) -> Origins {
        let mut origins = vec![format!("http://{addr}")];
        if addr.ip().is_loopback() {
            origins.push(format!("http://localhost:{}", addr.port()));
        }
        Origins(origins)
    }

    /// Whether any origin is `https` (the session cookie is then `Secure` by default).
    pub fn any_https(&self) -> bool {
        self.0.iter().any(|o| o.starts_with("https://"))
    }

    /// The origins, as compared.
    pub fn as_slice(&self) -> &[String] {
        &self.0
    }

    /// Whether a request's `Origin` header value is one of these.
    pub fn allows(&self, origin: &str) -> bool {
        normalise(origin).is_some_and(|o| self.0.contains(&o))
    }
}

/// `scheme://host[:port]` in lower case without the scheme's default port, or `None` when
/// `text` is not exactly that.
fn normalise(text: &str) -> Option<String> {
    let (scheme, rest) = text.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let default_port = match scheme.as_str() {
        "http" => ":80",
        "https" => ":443",
        _ => return None,
    };
    let valid = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']');
    if rest.is_empty() || !rest.chars().all(valid) {
        return None;
    }
    let host = rest.to_ascii_lowercase();
    let host = host.strip_suffix(default_port).unwrap_or(&host);
    Some(format!("{scheme}://{host}"))
}

/// Why a request is refused, or `None` when it may go on.
pub fn refusal(
    method: &Method,
    path: &str,
    headers: &HeaderMap,
    origins: &Origins,
) -> Option<&'static str> {
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return None;
    }
    let text = |name| {
        headers
            .get(name)
            .map(|v: &header::HeaderValue| v.to_str().unwrap_or("\u{FFFD}"))
    };
    match text("sec-fetch-site") {
        None | Some("same-origin") | Some("none") => {}
        Some(_) => return Some("the request comes from another site (Sec-Fetch-Site)"),
    }
    if let Some(origin) = text(header::ORIGIN.as_str()) {
        if !origins.allows(origin) {
            return Some("the request comes from another origin (Origin)");
        }
    }
    if *method == Method::POST && path.starts_with("/api/") {
        let form = text(header::CONTENT_TYPE.as_str()).is_some_and(|t| {
            t.split(';').next().is_some_and(|m| {
                m.trim()
                    .eq_ignore_ascii_case("application/x-www-form-urlencoded")
            })
        });
        if !form {
            return Some("server functions take application/x-www-form-urlencoded bodies");
        }
    }
    None
}

/// The middleware (inside the session layer, before the sign-in gate).
pub async fn same_origin_only(
    State(state): State<ServerState>,
    session: Session,
    request: Request,
    next: Next,
) -> Response {
    let Some(reason) = refusal(
        request.method(),
        request.uri().path(),
        request.headers(),
        &state.origins,
    ) else {
        return next.run(request).await;
    };
    let arguments = refused_request(&request);
    drop(request);
    let actor = actor(&state, &session).await;
    tracing::warn!(%actor, %arguments, reason, "cross-origin request refused");
    if let Err(e) = services::audit::record(
        &state.services.store,
        &actor,
        "http.cross_origin",
        &arguments,
        &format!("refused: {reason}"),
    )
    .await
    {
        tracing::warn!(error = %e, "could not audit a refused cross-origin request");
    }
    let body = serde_json::json!({ "error": format!("forbidden: {reason}"), "status": 403 });
    (StatusCode::FORBIDDEN, Json(body)).into_response()
}

/// What the audit row keeps of a refused request: method, path and the deciding headers
/// (each cut to 200 characters).
fn refused_request(request: &Request) -> serde_json::Value {
    let header_text = |name: &str| {
        request.headers().get(name).map(|v| {
            let text = String::from_utf8_lossy(v.as_bytes());
            text.chars().take(200).collect::<String>()
        })
    };
    serde_json::json!({
        "method": request.method().as_str(),
        "path": request.uri().path().chars().take(200).collect::<String>(),
        "origin": header_text("origin"),
        "sec_fetch_site": header_text("sec-fetch-site"),
        "content_type": header_text("content-type"),
    })
}

/// The signed-in user's name, or `anonymous` (also for a session no longer valid).
async fn actor(state: &ServerState, session: &Session) -> String {
    match app::auth::session_user(&state.services.store, session).await {
        Ok(Some(user)) => user.username,
        _ => "anonymous".to_owned(),
    }
}
