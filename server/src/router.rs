//! The axum router: Leptos pages and server functions (with the services in their context),
//! the plain HTTP routes, static files, and the layers (sessions, same-origin check, sign-in
//! gate, metrics).

use std::sync::OnceLock;

use app::{shell, App};
use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use leptos::config::LeptosOptions;
use leptos::prelude::provide_context;
use leptos_axum::{
    generate_route_list, handle_server_fns_with_context, AxumRouteListing, LeptosRoutes,
};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use services::Services;
use tower_http::compression::predicate::{DefaultPredicate, Predicate};
use tower_http::compression::{CompressionLayer, CompressionLevel};
use tower_sessions::cookie::time::Duration as CookieDuration;
use tower_sessions::cookie::SameSite;
use tower_sessions::{Expiry, SessionManagerLayer};

use crate::origin::Origins;
pub use crate::state::{ServerParts, ServerState};
use crate::{bundle, export, gate, health, live, origin};

/// Sessions end after this long without a request.
pub const SESSION_IDLE_HOURS: i64 = 8;

/// The process-wide Prometheus recorder (installed once, shared by every router built).
pub fn prometheus() -> PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let recorder = PrometheusBuilder::new().build_recorder();
            let handle = recorder.handle();
            if metrics::set_global_recorder(recorder).is_err() {
                tracing::warn!("a metrics recorder was already installed; /metrics may be empty");
            }
            services::telemetry::describe();
            handle
        })
        .clone()
}

/// The application's routes, listed once per process. Listing them renders the whole app
/// with resource loads suppressed by a switch the framework keeps for the whole process: a
/// resource first asked for by a page rendering at that moment waits forever (its page never
/// ends). Listed once, before the first router exists, no page can render meanwhile, however
/// many routers a process builds (the tests build one each, in parallel). Reported to the
/// framework as leptos-rs/leptos#4773.
fn routes() -> Vec<AxumRouteListing> {
    static ROUTES: OnceLock<Vec<AxumRouteListing>> = OnceLock::new();
    ROUTES.get_or_init(|| generate_route_list(App)).clone()
}

/// Leptos options for a site root (the bundle's folder read from the site, [`bundle`]).
pub fn leptos_options(site_root: &str, addr: std::net::SocketAddr) -> LeptosOptions {
    LeptosOptions::builder()
        .output_name(app::OUTPUT_NAME)
        .site_root(site_root)
        .site_pkg_dir(bundle::pkg_dir(std::path::Path::new(site_root)))
        .site_addr(addr)
        .env(leptos::config::Env::PROD)
        .build()
}

/// The router's web-facing settings (`--public-url`, `--cookie-secure`).
#[derive(Debug, Clone)]
pub struct WebSettings {
    /// Where state-changing requests may come from.
    pub origins: Origins,
    /// Whether the session cookie carries `Secure` (sent over HTTPS only).
    pub cookie_secure: bool,
}

impl WebSettings {
    /// The defaults for a console listening on `addr`: its own origin, a cookie without
    /// `Secure`.
    pub fn for_addr(addr: std::net::SocketAddr) -> WebSettings {
        WebSettings {
            origins: Origins::of_listen_addr(addr),
            cookie_secure: false,
        }
    }
}

/// Builds the whole application router with the defaults of its listen address
/// ([`WebSettings::for_addr`] of the options' `site_addr`).
pub async fn build(
    services: Services,
    leptos_options: LeptosOptions,
) -> Result<Router, services::ServiceError> {
    let web = WebSettings::for_addr(leptos_options.site_addr);
    build_with(services, leptos_options, web).await
}

/// Builds the whole application router.
pub async fn build_with(
    services: Services,
    leptos_options: LeptosOptions,
    web: WebSettings,
) -> Result<Router, services::ServiceError> {
    let store = services::sessions::Sessions::open(&services.store).await?;
    tokio::spawn(
        tower_sessions::ExpiredDeletion::continuously_delete_expired(
            store.clone(),
            services::sessions::DELETE_EXPIRED_EVERY,
        ),
    );
    let sessions = SessionManagerLayer::new(store)
        .with_name("switchyard_session")
        .with_http_only(true)
        .with_same_site(SameSite::Strict)
        .with_secure(web.cookie_secure)
        .with_expiry(Expiry::OnInactivity(CookieDuration::hours(
            SESSION_IDLE_HOURS,
        )));

    let routes = routes();
    let state = ServerState::new(ServerParts {
        render: page_renderer(routes.clone(), services.clone(), leptos_options.clone()),
        services,
        leptos_options,
        prometheus: prometheus(),
        origins: web.origins,
        exports: Default::default(),
    });
    let fallback_services = state.services.clone();
    let pkg = Router::new()
        .fallback_service(bundle::pkg_files(std::path::Path::new(
            state.leptos_options.site_root.as_ref(),
        )))
        .layer(middleware::from_fn(bundle::cache_forever));
    Ok(Router::new()
        .nest("/pkg", pkg)
        .route("/api/stream", get(live::stream))
        .route("/api/history/export", get(export::export))
        .route("/healthz", get(health::healthz))
        .route("/metrics", get(health::metrics))
        .route("/api/{*fn_name}", get(server_fn).post(server_fn))
        .leptos_routes_with_handler(routes, get(page))
        .fallback(leptos_axum::file_and_error_handler_with_context::<
            ServerState,
            _,
        >(
            move || provide_context(fallback_services.clone()), shell
        ))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            gate::require_sign_in,
        ))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            origin::same_origin_only,
        ))
        .layer(sessions)
        // Pages and server-function answers compressed (gzip, brotli) for clients that accept
        // it, at the fastest level: a page is rendered per request. The event stream is never
        // compressed (it would be held back in the encoder), nor the `/pkg` files that were
        // compressed once at build time, nor the history exports (attachments streamed as
        // they are read).
        .layer(
            CompressionLayer::new()
                .quality(CompressionLevel::Fastest)
                .compress_when(DefaultPredicate::new().and(not_an_attachment)),
        )
        .layer(middleware::from_fn(count_requests))
        .with_state(state))
}

/// Whether a response is not a download (`Content-Disposition: attachment`): downloads are
/// sent as they are streamed.
fn not_an_attachment(
    _: axum::http::StatusCode,
    _: axum::http::Version,
    headers: &axum::http::HeaderMap,
    _: &axum::http::Extensions,
) -> bool {
    !headers.contains_key(axum::http::header::CONTENT_DISPOSITION)
}

async fn server_fn(State(state): State<ServerState>, request: Request) -> Response {
    let services = state.services.clone();
    let response =
        handle_server_fns_with_context(move || provide_context(services.clone()), request)
            .await
            .into_response();
    with_error_status(response).await
}

/// Error bodies of server functions are a few hundred bytes; this bounds the read.
const ERROR_BODY_LIMIT: usize = 64 * 1024;

/// A server function's own refusals set their status (`app::auth`); a call the framework
/// refused before the function ran (arguments that do not decode, a body over the limit)
/// comes back as 500 with the [`app::error::AppError`] in its body. This gives it the
/// status that error maps to ([`app::error::AppError::status`]): one mapping for every
/// server function.
async fn with_error_status(response: Response) -> Response {
    if response.status() != axum::http::StatusCode::INTERNAL_SERVER_ERROR {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let bytes = match axum::body::to_bytes(body, ERROR_BODY_LIMIT).await {
        Ok(bytes) => bytes,
        Err(e) => {
            tracing::warn!(error = %e, "unreadable error body of a server function");
            return (parts, axum::body::Body::empty()).into_response();
        }
    };
    if let Ok(error) = serde_json::from_slice::<app::error::AppError>(&bytes) {
        if let Ok(status) = axum::http::StatusCode::from_u16(error.status()) {
            parts.status = status;
        }
    }
    Response::from_parts(parts, axum::body::Body::from(bytes))
}

/// The pages' renderer ([`crate::state::PageRenderer`]), built once: the framework's
/// per-route dispatch holds every route listing, which is not copied per request.
fn page_renderer(
    routes: Vec<leptos_axum::AxumRouteListing>,
    services: Services,
    options: LeptosOptions,
) -> crate::state::PageRenderer {
    let shell_options = options.clone();
    let render = leptos_axum::render_route_with_context(
        routes,
        move || provide_context(services.clone()),
        move || shell(shell_options.clone()),
    );
    // The framework's renderer may be called from any thread but is not `Sync`: the lock is
    // held only while a rendering is created, not while it runs.
    let render = std::sync::Mutex::new(render);
    std::sync::Arc::new(move |request| {
        let render = render.lock().unwrap_or_else(|e| e.into_inner());
        render(State(options.clone()), request)
    })
}

async fn page(State(state): State<ServerState>, request: Request) -> Response {
    (state.render)(request).await
}

async fn count_requests(request: Request, next: Next) -> Response {
    let method = request.method().to_string();
    let response = next.run(request).await;
    metrics::counter!(
        services::telemetry::HTTP_REQUESTS,
        "method" => method,
        "status" => response.status().as_u16().to_string()
    )
    .increment(1);
    response
}
