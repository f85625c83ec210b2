//! The pages as routes whose code the browser loads with the section that shows them.
//!
//! The pages are grouped in six sections (overview, administration, LHC, LMS, GSLB,
//! autoscale). Each section is one split point of the browser bundle: a `#[lazy]` function that
//! shows one of its pages in the layout, which `scripts/build-site.sh` cuts out into the
//! section's own wasm module (with small modules for the code several sections share). The
//! main module keeps the framework, the router and the live stream. The server renders every
//! page as before and names the section's modules in `<link rel="preload">`, so the browser
//! fetches them beside the main module; a click to another section fetches that section's
//! modules before it shows the page. One split point per page made hundreds of tiny modules,
//! each a request (docs/PERFORMANCE.md).

use leptos::prelude::*;
use leptos_router::LazyRoute;

use crate::components::layout::Layout;
use crate::erase::Erase;
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
    lms_store::LmsStorePage, users::UsersPage,
};

/// Declares one section of the console: an enum of its pages, the function that shows one of
/// them inside the console's [`Layout`] (one split point of the browser bundle: the section's
/// pages are loaded together, the first time one of them is shown) and a route type per page.
/// `$preload` is the name `#[lazy]` gives the function that loads `$show`'s module.
macro_rules! lazy_section {
    (
        $(#[$doc:meta])*
        $section:ident / $show:ident / $preload:ident {
            $($(#[$route_doc:meta])* $route:ident => $page:ident,)*
        }
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        #[allow(
            clippy::enum_variant_names,
            reason = "the variants are named after the route types"
        )]
        pub enum $section {
            $($(#[$route_doc])* $route,)*
        }

        /// Shows one page of the section in the layout; in the browser, its code is fetched the
        /// first time.
        #[allow(clippy::unused_async, reason = "the route awaits it")]
        async fn $show(page: $section) -> AnyView {
            match page {
                $($section::$route => view! { <Layout><$page/></Layout> }.erase(),)*
            }
        }

        $(
            $(#[$route_doc])*
            pub struct $route;

            impl LazyRoute for $route {
                fn data() -> Self {
                    Self
                }

                async fn view(_route: Self) -> AnyView {
                    $show($section::$route).await
                }

                // The router awaits this before it hydrates or shows the page, so the view
                // above is ready at once (a view still loading would not match the page the
                // server sent).
                async fn preload() {

                }
            }
        )*
    };
}

lazy_section! {
    /// The overview.
    OverviewSection / show_overview / __preload_show_overview {
        /// `/`.
        OverviewRoute => Dashboard,
    }
}

lazy_section! {
    /// Alerts and the administration pages.
    AdminSection / show_admin / __preload_show_admin {
        /// `/alerts`.
        AlertsRoute => AlertsPage,
        /// `/alerts/rules`.
        AlertRulesRoute => AlertRulesPage,
        /// `/history`.
        HistoryRoute => HistoryPage,
        /// `/audit`.
        AuditRoute => AuditPage,
        /// `/users`.
        UsersRoute => UsersPage,
    }
}

lazy_section! {
    /// Local Host Cache: resource locations and Cloud Connectors.
    LhcSection / show_lhc / __preload_show_lhc {
        /// `/lhc`.
        LhcRoute => LhcPage,
        /// `/lhc/connectors`.
        LhcConnectorsRoute => LhcConnectorsPage,
        /// `/lhc/:id`.
        LhcDetailRoute => LhcDetailPage,
    }
}

lazy_section! {
    /// Load management.
    LmsSection / show_lms / __preload_show_lms {
        /// `/lms`.
        LmsRoute => LmsPage,
        /// `/lms/servers/:host`.
        LmsServerRoute => LmsServerPage,
        /// `/lms/store`.
        LmsStoreRoute => LmsStorePage,
        /// `/lms/evaluators`.
        LmsEvaluatorsRoute => LmsEvaluatorsPage,
        /// `/lms/black-hole`.
        LmsBlackHoleRoute => LmsBlackHolePage,
    }
}

lazy_section! {
    /// GSLB.
    GslbSection / show_gslb / __preload_show_gslb {
        /// `/gslb`.
        GslbRoute => GslbPage,
        /// `/gslb/links`.
        GslbLinksRoute => GslbLinksPage,
        /// `/gslb/sites/:name`.
        GslbSiteRoute => GslbSitePage,
        /// `/gslb/guided`.
        GslbGuidedRoute => GslbGuidedPage,
        /// `/gslb/cli`.
        GslbCliRoute => GslbCliPage,
    }
}

lazy_section! {
    /// Autoscale.
    AutoscaleSection / show_autoscale / __preload_show_autoscale {
        /// `/autoscale`.
        AutoscaleRoute => AutoscalePage,
        /// `/autoscale/nodes`.
        AutoscaleNodesRoute => AutoscaleNodesPage,
        /// `/autoscale/:group`.
        AutoscaleGroupRoute => AutoscaleGroupPage,
        /// `/autoscale/:group/edit`.
        AutoscaleEditorRoute => AutoscaleEditorPage,
    }
}

/// The `#[lazy]` function that shows the page at `path` (the start of its key in the bundle's
/// split manifest), or `None` for a page outside the sections (the sign-in page, an unknown
/// path). The server names that function's modules in the page's `<link rel="preload">`
/// ([`crate::components::section_preloads`]); the routes are in [`crate::App`].
pub fn section_of(path: &str) -> Option<&'static str> {
    let first = path.trim_start_matches('/').split('/').next().unwrap_or("");
    Some(match first {
        "" => "show_overview",
        "alerts" | "history" | "audit" | "users" => "show_admin",
        "lhc" => "show_lhc",
        "lms" => "show_lms",
        "gslb" => "show_gslb",
        "autoscale" => "show_autoscale",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::section_of;

    #[test]
    fn each_path_belongs_to_the_section_that_shows_it() {
        let cases = [
            ("/", Some("show_overview")),
            ("/alerts/rules", Some("show_admin")),
            ("/history", Some("show_admin")),
            ("/audit", Some("show_admin")),
            ("/users", Some("show_admin")),
            ("/lhc/rl-paris", Some("show_lhc")),
            ("/lms/servers/XA-PAR-01", Some("show_lms")),
            ("/gslb/sites/SiteP1", Some("show_gslb")),
            ("/autoscale/asg_web/edit", Some("show_autoscale")),
            ("/login", None),
            ("/nowhere", None),
        ];
        for (path, want) in cases {
            assert_eq!(section_of(path), want, "{path}");
        }
    }
}
