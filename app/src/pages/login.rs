//! The sign-in page (the only page open to anonymous visitors).

use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::api::session::Login;
use crate::components::act::ActForm;
use crate::components::behaviours::Behaviours;
use crate::components::layout::Hydrated;
use crate::ids;

/// User name and password; on success the server redirects to `next` or the overview.
#[component]
pub fn LoginPage() -> impl IntoView {
    let query = use_query_map();
    let next = query.read_untracked().get("next").unwrap_or_default();
    view! {
        <Title text="Sign in"/>
        <main class="login">
            <h1 class="brand">"Switchyard"</h1>
            <p class="muted">"Application-delivery control planes, simulated."</p>
            <ActForm path=Login::PATH class="card form" id="login-form" error_id=ids::FORM_ERROR>
                <label>"User name" <input type="text" name="username" autocomplete="username" required/></label>
                <label>"Password" <input type="password" name="password" autocomplete="current-password" required/></label>
                <input type="hidden" name="next" value=next/>
                <button type="submit" class="primary">"Sign in"</button>
            </ActForm>
        </main>
        <Behaviours/>
        <Hydrated/>
    }
}
