//! The frame of every signed-in page: header, navigation (the four engine sections included),
//! the current user and sign-out.

use engine::Role;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_router::hooks::use_location;

use crate::answer::{answer, Answer};
use crate::api::session::{whoami, Logout};
use crate::components::act::ActForm;
use crate::components::behaviours::Behaviours;
use crate::components::built_once::build_view_next;
use crate::components::header_alerts::HeaderAlerts;
use crate::components::header_clock::{provide_clock_status, use_clock_status, HeaderClock};
use crate::components::time_bar::TimeBar;
use crate::erase::{Erase, ErasedChildren};
use crate::error::AppError;
use crate::ids;
use crate::model::SessionUser;
use crate::time_travel::{page_shows_past, use_as_of};

/// The signed-in user, loaded once per page by [`Layout`] and shared through the context.
#[derive(Clone, Copy)]
pub struct CurrentUser(pub Answer<Option<SessionUser>>);

impl CurrentUser {
    /// Waits for the user and tells whether their role includes `needed`. Await it inside a
    /// `Suspense`/`Transition` so the server and the browser render the same thing.
    pub async fn allows(self, needed: Role) -> bool {
        answer_allows(&self.0.await, needed)
    }
}

/// Whether an answer of [`CurrentUser`]'s resource, already awaited, is a signed-in user
/// whose role includes `needed`.
pub fn answer_allows(answer: &Result<Option<SessionUser>, AppError>, needed: Role) -> bool {
    matches!(answer, Ok(Some(u)) if u.role.allows(needed))
}

/// The current user from the context [`Layout`] provides.
pub fn current_user() -> Option<CurrentUser> {
    use_context::<CurrentUser>()
}

/// Whether the signed-in user's role includes `needed` (false outside [`Layout`]). While the
/// page shows the past (`?at=`), nothing beyond [`Role::Viewer`] is allowed: the past is
/// read-only, so operator and admin controls are hidden.
pub async fn user_allows(needed: Role) -> bool {
    if page_shows_past() && needed != Role::Viewer {
        return false;
    }
    match current_user() {
        Some(user) => user.allows(needed).await,
        None => false,
    }
}

struct NavItem {
    href: &'static str,
    label: &'static str,
    needs: Role,
}

const NAV: &[NavItem] = &[
    NavItem {
        href: "/",
        label: "Overview",
        needs: Role::Viewer,
    },
    NavItem {
        href: "/lhc",
        label: "Resource locations",
        needs: Role::Viewer,
    },
    NavItem {
        href: "/lms",
        label: "Load management",
        needs: Role::Viewer,
    },
    NavItem {
        href: "/gslb",
        label: "GSLB",
        needs: Role::Viewer,
    },
    NavItem {
        href: "/autoscale",
        label: "Autoscale",
        needs: Role::Viewer,
    },
    NavItem {
        href: "/alerts",
        label: "Alerts",
        needs: Role::Viewer,
    },
    NavItem {
        href: "/history",
        label: "History",
        needs: Role::Viewer,
    },
    NavItem {
        href: "/audit",
        label: "Audit",
        needs: Role::Admin,
    },
    NavItem {
        href: "/users",
        label: "Users",
        needs: Role::Admin,
    },
];

/// A nav link, marked as the current page (`aria-current="page"`) when its path is the
/// page's, exactly: the overview's link is not current on every page below `/`.
fn nav_link(item: &'static NavItem, path: &str) -> impl IntoView {
    let current = (item.href == path).then_some("page");
    view! { <a href=item.href aria-current=current>{item.label}</a> }
}

/// Header + navigation + page content.
#[component]
pub fn Layout(children: ErasedChildren) -> impl IntoView {
    let user = CurrentUser(answer(|| (), |_| whoami()));
    provide_context(user);
    provide_context(use_as_of());
    provide_clock_status();
    let clock = use_clock_status();
    // The page's path, read once: a page is rendered on the server for each path it shows
    // (the islands router reads the next page's HTML), so its nav links need not follow it.
    let path = use_location().pathname.get_untracked();
    let link = move |item: &'static NavItem| nav_link(item, &path);

    view! {
        <a class="skip-link" href="#content" rel="external">"Skip to content"</a>
        <header class="topbar">
            <a class="brand" href="/">"Switchyard"</a>
            <MenuButton/>
            <nav id="mainnav" class="mainnav" aria-label="Sections">
                {NAV.iter().filter(|item| item.needs == Role::Viewer).map(link.clone()).collect_view()}
                <Transition fallback=|| ()>
                    {move || {
                        let link = link.clone();
                        Suspend::new(async move {
                            let admin = user.allows(Role::Admin).await;
                            build_view_next().await;
                            NAV.iter()
                                .filter(|item| item.needs == Role::Admin && admin)
                                .map(link)
                                .collect_view()
                        })
                    }}
                </Transition>
            </nav>
            <Transition fallback=|| ()>
                // One boundary for the clock, the alert badge and the user: all three wait for
                // the same two answers, read once per page.
                {move || Suspend::new(async move {
                    let signed_in = user.0.await;
                    let clock = clock.await;
                    build_view_next().await;
                    let can_drive = answer_allows(&signed_in, Role::Operator);
                    view! {
                        {clock.ok().map(|first| {
                            let alerts = first.alerts;
                            view! { <HeaderClock first can_drive/> <HeaderAlerts first=alerts/> }
                        })}
                        <div class="userbox">
                            {match signed_in {
                                Ok(Some(u)) => view! {
                                    <span id=ids::CURRENT_USER class="username">{u.username.clone()}</span>
                                    <span class=format!("role role-{}", u.role)>{u.role.to_string()}</span>
                                    <ActForm path=Logout::PATH class="inline">
                                        <button type="submit" class="link">"Sign out"</button>
                                    </ActForm>
                                }.erase(),
                                _ => view! { <a href="/login">"Sign in"</a> }.erase(),
                            }}
                        </div>
                    }
                })}
            </Transition>
        </header>
        <main id=ids::CONTENT class="page" tabindex="-1">
            <TimeBar/>
            {children.view()}
        </main>
        <Behaviours/>
        <Hydrated/>
    }
}

/// The phone's menu button: it opens and folds the nav bar (`open` on the header, which
/// style/main.css shows); a page read through the islands router comes with it folded.
#[island]
fn MenuButton() -> impl IntoView {
    let toggle = move |ev: leptos::ev::MouseEvent| {
        #[cfg(feature = "hydrate")]
        {
            use wasm_bindgen::JsCast;
            let button = ev
                .current_target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
            let header = button
                .as_ref()
                .and_then(|b| b.closest("header").ok().flatten());
            if let (Some(button), Some(header)) = (button, header) {
                let open = header.class_list().toggle("open").unwrap_or(false);
                let _ = button.set_attribute("aria-expanded", if open { "true" } else { "false" });
            }
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = ev;
    };
    view! {
        <button type="button" class="menu-button" aria-controls="mainnav" aria-expanded="false" on:click=toggle>
            "Menu"
        </button>
    }
}

/// The last island of every page: once it is hydrated, so are the others (they hydrate in
/// the page's order), and `<body>` says so (browser tests wait for it before clicking).
#[island]
pub fn Hydrated() -> impl IntoView {
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        if let Some(body) = document().body() {
            let _ = body.set_attribute(ids::HYDRATED_ATTR, "true");
        }
    });
}
