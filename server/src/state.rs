//! [`ServerState`]: what every handler of the router can reach.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::FromRef;
use axum::http::Request;
use axum::response::Response;
use leptos::config::LeptosOptions;
use metrics_exporter_prometheus::PrometheusHandle;
use services::Services;

/// A page's rendering, started (the future of its response).
pub type Rendering = Pin<Box<dyn Future<Output = Response<Body>> + Send>>;

/// The pages' renderer, built once for the router: it finds the route's rendering mode and
/// renders the app with the services in its context.
pub type PageRenderer = Arc<dyn Fn(Request<Body>) -> Rendering + Send + Sync>;

/// What every handler can reach, shared behind one `Arc`: axum clones the state for each
/// handler and each middleware a request passes, so a clone is one reference count (the
/// fields are read through `Deref`).
#[derive(Clone)]
pub struct ServerState(Arc<ServerParts>);

impl ServerState {
    /// The state of a router.
    pub fn new(parts: ServerParts) -> Self {
        ServerState(Arc::new(parts))
    }
}

impl std::ops::Deref for ServerState {
    type Target = ServerParts;

    fn deref(&self) -> &ServerParts {
        &self.0
    }
}

/// What [`ServerState`] shares.
pub struct ServerParts {
    /// Backend services.
    pub services: Services,
    /// Leptos options (site root, bundle name).
    pub leptos_options: LeptosOptions,
    /// The Prometheus recorder's handle.
    pub prometheus: PrometheusHandle,
    /// Where state-changing requests may come from ([`crate::origin`]).
    pub origins: crate::origin::Origins,
    /// Exports running now, per user.
    pub exports: crate::export::ExportSlots,
    /// Renders a page ([`PageRenderer`]).
    pub(crate) render: PageRenderer,
}

impl FromRef<ServerState> for LeptosOptions {
    fn from_ref(state: &ServerState) -> Self {
        state.leptos_options.clone()
    }
}
