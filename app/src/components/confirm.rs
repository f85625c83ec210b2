//! [`ConfirmButton`]: a destructive or estate-wide action behind a confirmation that says what
//! will happen. The first click opens the confirmation (focus moves to its confirming button);
//! only that button runs the action. An action that does not apply in the current state is
//! disabled, with the reason beside it. While a confirmation is open, the page's live
//! refreshes wait for it to close.
//!
//! It is server-rendered HTML (the confirmation is there, `hidden`); the page's behaviour
//! island ([`crate::components::behaviours`]) opens and closes it and posts the action.

use leptos::prelude::*;

use crate::components::act::Act;

/// A button whose action runs only after a confirmation.
#[component]
pub fn ConfirmButton(
    /// The button's text (and the confirmation's accessible name).
    #[prop(into)]
    label: String,
    /// What will happen, in words (the confirmation's text).
    #[prop(into)]
    consequence: String,
    /// The confirming button's text, e.g. "Force outage".
    #[prop(into)]
    confirm: String,
    /// The call made on confirmation ([`Act`]); `None` shows the button disabled.
    act: Option<Act>,
    /// The button's id, for tests and links.
    #[prop(optional, into)]
    id: Option<String>,
    /// Why the action does not apply now; `Some` disables the button and shows the reason.
    #[prop(optional_no_strip)]
    not_now: Option<String>,
    /// The accessible name when the label alone does not tell the row's buttons apart
    /// (e.g. "Take down SiteP1").
    #[prop(optional, into)]
    aria_label: Option<String>,
    /// A `data-act` value for the opening button.
    #[prop(optional, into)]
    data_act: Option<String>,
    /// The confirmation's id (by default one derived from the name and the call).
    #[prop(optional, into)]
    panel_id: Option<String>,
    /// The confirming button's id.
    #[prop(optional, into)]
    confirm_id: Option<String>,
    /// More of what will happen, as a list under `consequence`.
    #[prop(optional)]
    details: Vec<String>,
) -> impl IntoView {
    let disabled = not_now.is_some() || act.is_none();
    let accessible = aria_label.unwrap_or_else(|| label.clone());
    let panel = panel_id.unwrap_or_else(|| derived_panel_id(&accessible, act.as_ref()));
    let (path, body) = act.map(|a| (a.path, a.body)).unzip();
    view! {
        <span class="confirm-wrap act">
            <button
                type="button"
                class="danger"
                id=id
                data-act=data_act
                aria-label=accessible.clone()
                aria-haspopup="dialog"
                aria-expanded="false"
                aria-controls=panel.clone()
                data-confirm-open=""
                disabled=disabled
                title=not_now.clone()
            >
                {label}
            </button>
            {not_now.map(|why| view! { <span class="muted small not-now">{why}</span> })}
            <div class="confirm-panel" role="alertdialog" aria-label=accessible id=panel hidden>
                <p>{consequence}</p>
                {(!details.is_empty()).then(|| view! {
                    <ul>{details.into_iter().map(|d| view! { <li>{d}</li> }).collect_view()}</ul>
                })}
                <button type="button" class="danger" id=confirm_id data-confirm="yes" data-act-path=path data-act-body=body>
                    {confirm}
                </button>
                " "
                <button type="button" data-confirm="no">"Cancel"</button>
            </div>
            <span class="error action-error" role="alert" data-act-error="" data-keep=""></span>
        </span>
    }
}

/// The confirmation's element id: the same for the same button render after render (so a page
/// read again keeps it), different for the buttons of one page.
fn derived_panel_id(name: &str, act: Option<&Act>) -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    name.hash(&mut hasher);
    act.map(|a| (&a.path, &a.body)).hash(&mut hasher);
    format!("confirm-{:016x}", hasher.finish())
}
