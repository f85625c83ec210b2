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

pub mod answer;
pub mod api;
#[cfg(feature = "ssr")]
pub mod auth;
pub mod components;
pub mod erase;
pub mod error;
pub mod form;
pub mod format;
pub mod ids;
pub mod model;
pub mod pages;
pub mod routes;
pub mod time_travel;

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, MetaTags, Title};
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;
use leptos_router::SsrMode;

use crate::components::layout::Layout;
use crate::components::section_preloads::SectionPreloads;
use crate::pages::login::LoginPage;
use crate::routes::*;
use leptos_router::Lazy;

/// The name of the browser bundle's files (`switchyard.js`, `switchyard_bg.wasm`,
/// `switchyard.css`, `LeptosOptions::output_name`); a built site keeps them in a folder named
/// after their content (`pkg/switchyard-<hash>/`), which the server reads from the site.
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
                <HydrationScripts options=options.clone() islands=true/>
                <SectionPreloads options/>
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
                <Route path=path!("/") view={Lazy::<OverviewRoute>::new()} ssr=SsrMode::Async/>
                <Route path=path!("/alerts") view={Lazy::<AlertsRoute>::new()}/>
                <Route path=path!("/alerts/rules") view={Lazy::<AlertRulesRoute>::new()}/>
                <Route path=path!("/history") view={Lazy::<HistoryRoute>::new()}/>
                <Route path=path!("/audit") view={Lazy::<AuditRoute>::new()}/>
                <Route path=path!("/users") view={Lazy::<UsersRoute>::new()}/>
                <Route path=path!("/lhc") view={Lazy::<LhcRoute>::new()}/>
                <Route path=path!("/lhc/connectors") view={Lazy::<LhcConnectorsRoute>::new()}/>
                <Route path=path!("/lhc/:id") view={Lazy::<LhcDetailRoute>::new()}/>
                <Route path=path!("/lms") view={Lazy::<LmsRoute>::new()}/>
                <Route path=path!("/lms/servers/:host") view={Lazy::<LmsServerRoute>::new()}/>
                <Route path=path!("/lms/store") view={Lazy::<LmsStoreRoute>::new()}/>
                <Route path=path!("/lms/evaluators") view={Lazy::<LmsEvaluatorsRoute>::new()}/>
                <Route path=path!("/lms/black-hole") view={Lazy::<LmsBlackHoleRoute>::new()}/>
                <Route path=path!("/gslb") view={Lazy::<GslbRoute>::new()}/>
                <Route path=path!("/gslb/links") view={Lazy::<GslbLinksRoute>::new()}/>
                <Route path=path!("/gslb/sites/:name") view={Lazy::<GslbSiteRoute>::new()}/>
                <Route path=path!("/gslb/guided") view={Lazy::<GslbGuidedRoute>::new()}/>
                <Route path=path!("/gslb/cli") view={Lazy::<GslbCliRoute>::new()}/>
                <Route path=path!("/autoscale") view={Lazy::<AutoscaleRoute>::new()}/>
                <Route path=path!("/autoscale/nodes") view={Lazy::<AutoscaleNodesRoute>::new()}/>
                <Route path=path!("/autoscale/:group") view={Lazy::<AutoscaleGroupRoute>::new()}/>
                <Route path=path!("/autoscale/:group/edit") view={Lazy::<AutoscaleEditorRoute>::new()}/>
            </Routes>
        </Router>
    }
}

/// Entry point of the browser bundle: hydrates the server-rendered page.
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_islands();
}
