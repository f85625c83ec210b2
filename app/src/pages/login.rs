//! The sign-in page (the only page open to anonymous visitors).

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::api::session::Login;
use crate::ids;
use crate::pages::action_error;

/// User name and password; on success the server redirects to `next` or the overview.
#[component]
pub fn LoginPage() -> impl IntoView {
    let login = ServerAction::<Login>::new();
    let query = use_query_map();
    let next = move || query.read().get("next").unwrap_or_default();

    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        if let Some(body) = document().body() {
            let _ = body.set_attribute(ids::HYDRATED_ATTR, "true");
        }
    });

    view! {
        <Title text="Sign in"/>
        <main class="login">
            <h1 class="brand">"Switchyard"</h1>
            <p class="muted">"Application-delivery control planes, simulated."</p>
            <ActionForm action=login attr:class="card form" attr:id="login-form">
                <label>"User name" <input type="text" name="username" autocomplete="username" required/></label>
                <label>"Password" <input type="password" name="password" autocomplete="current-password" required/></label>
                <input type="hidden" name="next" prop:value=next/>
                <button type="submit" class="primary" disabled=move || login.pending().get()>"Sign in"</button>
                {move || action_error(login.value().get()).map(|e| view! { <p class="error" id=ids::FORM_ERROR>{e}</p> })}
            </ActionForm>
        </main>
    }
}
