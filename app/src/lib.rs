//! Switchyard's user interface: the HTML shell, the routes, the pages and the server functions
//! behind them. Built twice: with `ssr` into the server (rendering and server functions) and
//! with `hydrate` into the browser bundle (the same components, made interactive).
//!
//! Reading order: [`App`] (routes) → [`pages`] (one file per screen) → [`components`] →
//! [`api`] (server functions: authorize → call a service → map the error → audit) →
//! [`model`] (what crosses the wire) → [`error`].

// The `#[server]` and `#[component]` macros generate structs whose fields carry no docs.
#![recursion_limit = "256"]
#![expect(
    missing_docs,
    reason = "macro-generated server-function and prop structs"
)]

pub mod api;
#[cfg(feature = "ssr")]
pub mod auth;
pub mod components;
pub mod error;
pub mod form;
pub mod format;
pub mod ids;
pub mod model;
pub mod pages;
pub mod time_travel;

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, MetaTags, Title};
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;
use leptos_router::SsrMode;

use crate::components::layout::Layout;
use crate::pages::gslb::GslbPage;
use crate::pages::gslb_cli::GslbCliPage;
use crate::pages::gslb_guided::GslbGuidedPage;
use crate::pages::gslb_links::GslbLinksPage;
use crate::pages::gslb_site::GslbSitePage;
use crate::pages::{
    alert_rules::AlertRulesPage, alerts::AlertsPage, audit::AuditPage, autoscale::AutoscalePage,
    autoscale_editor::AutoscaleEditorPage, autoscale_group::AutoscaleGroupPage,
    autoscale_nodes::AutoscaleNodesPage, dashboard::Dashboard, history::HistoryPage, lhc::LhcPage,
    lhc_connectors::LhcConnectorsPage, lhc_detail::LhcDetailPage, lms::LmsPage,
    lms_black_hole::LmsBlackHolePage, lms_evaluators::LmsEvaluatorsPage, lms_server::LmsServerPage,
    lms_store::LmsStorePage, login::LoginPage, users::UsersPage,
};

/// The name of the browser bundle (`/pkg/switchyard.{js,wasm,css}`); a built site names its
/// files `switchyard-<content hash>` and the server reads that name from the site
/// (`LeptosOptions::output_name`).
pub const OUTPUT_NAME: &str = "switchyard";

/// The whole HTML document rendered by the server around [`App`].
pub fn shell(options: LeptosOptions) -> impl IntoView {
    let stylesheet = format!("/{}/{}.css", options.site_pkg_dir, options.output_name);
    view! {
        <!DOCTYPE html>
        <html lang="en">
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <meta name="color-scheme" content="light dark"/>
                <link rel="icon" href="/favicon.svg" type="image/svg+xml"/>
                <link rel="stylesheet" href=stylesheet/>
                <HydrationScripts options/>
                <MetaTags/>
            </head>
            <body>
                <App/>
            </body>
        </html>
    }
}

/// The application: stylesheet, title and routes.
#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    // One live stream per tab, shared by every page (components/live.rs).
    components::live::provide_live();
    view! {
        <Title formatter=|page: String| if page.is_empty() { "Switchyard".to_owned() } else { format!("{page} · Switchyard") }/>
        <Router>
            <Routes fallback=|| view! { <Layout><p class="empty">"No such page."</p></Layout> }>
                <Route path=path!("/login") view=LoginPage/>
                // The overview waits for all its data (a few milliseconds) and is sent in one
                // piece: streamed, its dozen boundaries cost a chunk and a swap script each.
                <Route path=path!("/") view=|| view! { <Layout><Dashboard/></Layout> } ssr=SsrMode::Async/>
                <Route path=path!("/alerts") view=|| view! { <Layout><AlertsPage/></Layout> }/>
                <Route path=path!("/alerts/rules") view=|| view! { <Layout><AlertRulesPage/></Layout> }/>
                <Route path=path!("/history") view=|| view! { <Layout><HistoryPage/></Layout> }/>
                <Route path=path!("/audit") view=|| view! { <Layout><AuditPage/></Layout> }/>
                <Route path=path!("/users") view=|| view! { <Layout><UsersPage/></Layout> }/>
                <Route path=path!("/lhc") view=|| view! { <Layout><LhcPage/></Layout> }/>
                <Route path=path!("/lhc/connectors") view=|| view! { <Layout><LhcConnectorsPage/></Layout> }/>
                <Route path=path!("/lhc/:id") view=|| view! { <Layout><LhcDetailPage/></Layout> }/>
                <Route path=path!("/lms") view=|| view! { <Layout><LmsPage/></Layout> }/>
                <Route path=path!("/lms/servers/:host") view=|| view! { <Layout><LmsServerPage/></Layout> }/>
                <Route path=path!("/lms/store") view=|| view! { <Layout><LmsStorePage/></Layout> }/>
                <Route path=path!("/lms/evaluators") view=|| view! { <Layout><LmsEvaluatorsPage/></Layout> }/>
                <Route path=path!("/lms/black-hole") view=|| view! { <Layout><LmsBlackHolePage/></Layout> }/>
                <Route path=path!("/gslb") view=|| view! { <Layout><GslbPage/></Layout> }/>
                <Route path=path!("/gslb/links") view=|| view! { <Layout><GslbLinksPage/></Layout> }/>
                <Route path=path!("/gslb/sites/:name") view=|| view! { <Layout><GslbSitePage/></Layout> }/>
                <Route path=path!("/gslb/guided") view=|| view! { <Layout><GslbGuidedPage/></Layout> }/>
                <Route path=path!("/gslb/cli") view=|| view! { <Layout><GslbCliPage/></Layout> }/>
                <Route path=path!("/autoscale") view=|| view! { <Layout><AutoscalePage/></Layout> }/>
                <Route path=path!("/autoscale/nodes") view=|| view! { <Layout><AutoscaleNodesPage/></Layout> }/>
                <Route path=path!("/autoscale/:group") view=|| view! { <Layout><AutoscaleGroupPage/></Layout> }/>
                <Route path=path!("/autoscale/:group/edit") view=|| view! { <Layout><AutoscaleEditorPage/></Layout> }/>
            </Routes>
        </Router>
    }
}

/// Entry point of the browser bundle: hydrates the server-rendered page.
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_body(App);
}
