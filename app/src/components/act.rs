//! Operator actions, server-rendered. An [`Act`] is a server function's call made on the
//! server while it renders the page: its path and its arguments, encoded as every server
//! function here takes them (a URL-encoded form, `api/codec.rs`). [`ActButton`] and
//! [`ConfirmButton`](crate::components::confirm::ConfirmButton) write it into the button's
//! `data-act-path` and `data-act-body`; the page's one behaviour island
//! ([`crate::components::behaviours`]) posts it on a click and, once the server accepts, reads
//! the page again in place, so it shows what the action changed. A refusal is shown beside the
//! button, naming the field, and changes nothing.
//!
//! The buttons are plain HTML, so a page read again (a live refresh, an action's result) is
//! diffed into them like any other element: whether they are enabled follows the estate.

use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use serde::{Deserialize, Serialize};

/// A server function's call, ready to post: its path (`/api/lhc_act`) and its arguments as a
/// URL-encoded form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Act {
    /// The server function's path.
    pub path: String,
    /// Its arguments, URL-encoded.
    pub body: String,
}

impl Act {
    /// The call of server function `F` with `args`; `None` when they do not encode (they
    /// always do for the argument types of this crate: strings, numbers, options).
    pub fn of<F: ServerFn + Serialize>(args: &F) -> Option<Self> {
        Some(Self {
            path: F::PATH.to_owned(),
            body: serde_qs::to_string(args).ok()?,
        })
    }
}

/// What the server answered to an accepted call.
#[cfg(feature = "hydrate")]
pub struct Accepted {
    /// Its answer (JSON).
    pub answer: String,
    /// Where the server asks the browser to go next (signing in or out), if anywhere.
    pub redirect: Option<String>,
}

/// Posts `act` and tells what came of it: the server's answer once it accepted it, or the
/// server's message (the field and the allowed range for a refused argument).
#[cfg(feature = "hydrate")]
pub async fn post(act: &Act) -> Result<Accepted, String> {
    use leptos::__reexports::wasm_bindgen_futures::JsFuture;
    use wasm_bindgen::JsCast;

    let failed = |what: &str| format!("The action could not be sent: {what}.");
    let headers = web_sys::Headers::new().map_err(|_| failed("headers"))?;
    let _ = headers.set("content-type", "application/x-www-form-urlencoded");
    let _ = headers.set("accept", "application/json");
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    init.set_headers(&headers);
    init.set_body(&wasm_bindgen::JsValue::from_str(&act.body));
    let response = JsFuture::from(window().fetch_with_str_and_init(&act.path, &init))
        .await
        .map_err(|_| failed("no answer from the server"))?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| failed("no answer"))?;
    let text = match response.text() {
        Ok(promise) => JsFuture::from(promise)
            .await
            .ok()
            .and_then(|t| t.as_string())
            .unwrap_or_default(),
        Err(_) => String::new(),
    };
    if response.ok() {
        // A server function that redirects says so in a header when called from here
        // (`leptos_axum::redirect`), the target in `Location`.
        let headers = response.headers();
        let redirect = headers
            .has(leptos::server_fn::redirect::REDIRECT_HEADER)
            .unwrap_or(false)
            .then(|| headers.get("location").ok().flatten())
            .flatten();
        return Ok(Accepted {
            answer: text,
            redirect,
        });
    }
    let error = <crate::error::AppError as leptos::server_fn::error::FromServerFnError>::de(
        text.into_bytes().into(),
    );
    Err(error.to_string())
}

/// A button that runs `act` at once (no confirmation: for actions that are easily undone),
/// with the place where a refusal is shown.
#[component]
pub fn ActButton(
    /// The button's text.
    #[prop(into)]
    label: String,
    /// The call it makes; `None` shows the button disabled.
    act: Option<Act>,
    /// The button's id, for tests and links.
    #[prop(optional, into)]
    id: Option<String>,
    /// The accessible name when the label alone does not tell the row's buttons apart.
    #[prop(optional, into)]
    aria_label: Option<String>,
    /// A `data-act` value, for tests.
    #[prop(optional, into)]
    data_act: Option<String>,
    /// The button's classes (`danger`), if any.
    #[prop(optional)]
    class: &'static str,
    /// The id of the element a refusal is shown in.
    #[prop(optional, into)]
    error_id: Option<String>,
) -> impl IntoView {
    let disabled = act.is_none();
    let (path, body) = act.map(|a| (a.path, a.body)).unzip();
    view! {
        <span class="act">
            <button
                type="button"
                id=id
                class=(!class.is_empty()).then_some(class)
                aria-label=aria_label
                data-act=data_act
                disabled=disabled
                data-act-path=path
                data-act-body=body
            >
                {label}
            </button>
            <span class="error action-error" id=error_id role="alert" data-act-error="" data-keep=""></span>
        </span>
    }
}

/// A form posted to a server function: its fields, named as the function's arguments, and the
/// name and value of the button that submitted it (`<button name="op" value="restart">`) are
/// the call. A refusal is shown in the form; once accepted, `done` is shown, the form is reset
/// if `reset`, and the page is read again in place.
#[component]
pub fn ActForm(
    /// The server function's path (`LhcAct::PATH`).
    path: &'static str,
    /// The form's id, for tests and links.
    #[prop(optional, into)]
    id: Option<String>,
    /// Classes beside `act`.
    #[prop(optional, into)]
    class: String,
    /// What the form shows once the server accepted it ("User added."); `{n}` in it becomes
    /// the number of items the server answered (the events an action produced).
    #[prop(optional, into)]
    done: Option<String>,
    /// Whether the fields go back to their first values once accepted.
    #[prop(optional)]
    reset: bool,
    /// The accessible name of the form.
    #[prop(optional, into)]
    aria_label: Option<String>,
    /// The id of the element a refusal is shown in.
    #[prop(optional, into)]
    error_id: Option<String>,
    /// The id of the element `done` is shown in.
    #[prop(optional, into)]
    status_id: Option<String>,
    /// Fields sent once, their values joined by commas (a group of checkboxes of one name).
    #[prop(optional, into)]
    join: Option<String>,
    children: Children,
) -> impl IntoView {
    view! {
        <form
            method="post"
            action=path
            id=id
            class=format!("act {class}")
            aria-label=aria_label
            data-act-path=path
            data-act-done=done
            data-act-reset=reset.then_some("")
            data-act-join=join
        >
            {children()}
            <span class="error action-error" id=error_id role="alert" data-act-error="" data-keep=""></span>
            <span class="ok" id=status_id role="status" data-act-status="" data-keep=""></span>
        </form>
    }
}
