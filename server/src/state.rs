//! [`ServerState`]: what every handler of the router can reach.

use axum::extract::FromRef;
use leptos::config::LeptosOptions;
use leptos_axum::AxumRouteListing;
use metrics_exporter_prometheus::PrometheusHandle;
use services::Services;

/// What every handler can reach.
#[derive(Clone)]
pub struct ServerState {
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
    pub(crate) routes: Vec<AxumRouteListing>,
}

impl FromRef<ServerState> for LeptosOptions {
    fn from_ref(state: &ServerState) -> Self {
        state.leptos_options.clone()
    }
}
