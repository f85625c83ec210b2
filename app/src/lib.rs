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
pub mod time_travel;

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, MetaTags, Title};
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;
use leptos_router::SsrMode;

use crate::components::layout::Layout;
use crate::erase::Erase;
use crate::pages::gslb::GslbPage;
use crate::pages::gslb_cli::GslbCliPage;
use crate::pages::gslb_guided::GslbGuidedPage;
use crate::pages::gslb_links::GslbLinksPage;
use crate::pages::gslb_site::GslbSitePage;
use crate::pages::login::LoginPage;
use crate::pages::{
    alert_rules::AlertRulesPage, alerts::AlertsPage, audit::AuditPage, autoscale::AutoscalePage,
    autoscale_editor::AutoscaleEditorPage, autoscale_group::AutoscaleGroupPage,
    autoscale_nodes::AutoscaleNodesPage, dashboard::Dashboard, history::HistoryPage, lhc::LhcPage,
    lhc_connectors::LhcConnectorsPage, lhc_detail::LhcDetailPage, lms::LmsPage,
    lms_black_hole::LmsBlackHolePage, lms_evaluators::LmsEvaluatorsPage, lms_server::LmsServerPage,
    lms_store::LmsStorePage, users::UsersPage,
};

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
                <HydrationScripts options islands=true/>
                <MetaTags/>
            </head>
            // `data-hydrated` is the browser's (components/layout.rs, `Hydrated`): a page read
            // in place keeps it.
            <body data-client-attrs="data-hydrated">
                <App/>
            </body>
        </html>
    }
}

/// A route's view: `$page` inside the console's [`Layout`] (type-erased: one nested view
/// type for every page would be too deep for the compiler).
macro_rules! framed {
    ($page:ident) => {
        || view! { <Layout><$page/></Layout> }.erase()
    };
}

/// The application: stylesheet, title and routes. Every page is rendered on the server; the
/// browser hydrates only the islands (components marked `#[island]`: the clock, the alert
/// badge, the menu button, the behaviours over the server's HTML, the live refreshes and the
/// two editors).
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
                <Route path=path!("/") view=framed!(Dashboard) ssr=SsrMode::Async/>
                <Route path=path!("/alerts") view=framed!(AlertsPage)/>
                <Route path=path!("/alerts/rules") view=framed!(AlertRulesPage)/>
                <Route path=path!("/history") view=framed!(HistoryPage)/>
                <Route path=path!("/audit") view=framed!(AuditPage)/>
                <Route path=path!("/users") view=framed!(UsersPage)/>
                <Route path=path!("/lhc") view=framed!(LhcPage)/>
                <Route path=path!("/lhc/connectors") view=framed!(LhcConnectorsPage)/>
                <Route path=path!("/lhc/:id") view=framed!(LhcDetailPage)/>
                <Route path=path!("/lms") view=framed!(LmsPage)/>
                <Route path=path!("/lms/servers/:host") view=framed!(LmsServerPage)/>
                <Route path=path!("/lms/store") view=framed!(LmsStorePage)/>
                <Route path=path!("/lms/evaluators") view=framed!(LmsEvaluatorsPage)/>
                <Route path=path!("/lms/black-hole") view=framed!(LmsBlackHolePage)/>
                <Route path=path!("/gslb") view=framed!(GslbPage)/>
                <Route path=path!("/gslb/links") view=framed!(GslbLinksPage)/>
                <Route path=path!("/gslb/sites/:name") view=framed!(GslbSitePage)/>
                <Route path=path!("/gslb/guided") view=framed!(GslbGuidedPage)/>
                <Route path=path!("/gslb/cli") view=framed!(GslbCliPage)/>
                <Route path=path!("/autoscale") view=framed!(AutoscalePage)/>
                <Route path=path!("/autoscale/nodes") view=framed!(AutoscaleNodesPage)/>
                <Route path=path!("/autoscale/:group") view=framed!(AutoscaleGroupPage)/>
                <Route path=path!("/autoscale/:group/edit") view=framed!(AutoscaleEditorPage)/>
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
