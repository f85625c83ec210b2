//! [`ConfirmButton`]: a destructive or estate-wide action behind a confirmation that says what
//! will happen. The first click opens the confirmation (focus moves to its confirming button);
//! only that button runs the action. An action that does not apply in the current state is
//! disabled, with the reason beside it. While a confirmation is open, the page's live
//! refreshes wait for it to close.

use leptos::prelude::*;

use crate::components::live::use_live;

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
    /// The action, run on confirmation.
    #[prop(into)]
    on_confirm: Callback<()>,
    /// The button's id, for tests and links.
    #[prop(optional)]
    id: Option<&'static str>,
    /// Why the action does not apply now; `Some` disables the button and shows the reason.
    #[prop(default = None)]
    not_now: Option<String>,
    /// The accessible name when the label alone does not tell the row's buttons apart
    /// (e.g. "Take down SiteP1").
    #[prop(optional, into)]
    aria_label: Option<String>,
    /// A `data-act` value for the opening button.
    #[prop(optional)]
    data_act: Option<&'static str>,
) -> impl IntoView {
    let asking = RwSignal::new(false);
    // While the question is open the page's live refreshes wait (see `Live::holds`).
    let live = use_live();
    // A plain flag, not a signal: it is still there when the button's owner is cleaned up.
    let holding = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let hold = move |on: bool| {
        if holding.swap(on, std::sync::atomic::Ordering::Relaxed) != on {
            live.holds
                .try_update(|n| *n = if on { *n + 1 } else { n.saturating_sub(1) });
        }
    };
    let hold_on_change = hold.clone();
    Effect::new(move |_| hold_on_change(asking.get()));
    on_cleanup(move || hold(false));
    let confirm_ref = NodeRef::<leptos::html::Button>::new();
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        if asking.get() {
            if let Some(button) = confirm_ref.get() {
                let _ = button.focus();
            }
        }
    });
    let disabled = not_now.is_some();
    let accessible = aria_label.unwrap_or_else(|| label.clone());
    let dialog_label = accessible.clone();
    view! {
        <span class="confirm-wrap">
            <button
                type="button"
                class="danger"
                id=id
                data-act=data_act
                aria-label=accessible
                aria-haspopup="dialog"
                aria-expanded=move || if asking.get() { "true" } else { "false" }
                disabled=disabled
                title=not_now.clone()
                on:click=move |_| asking.set(true)
            >
                {label}
            </button>
            {not_now.map(|why| view! { <span class="muted small not-now">{why}</span> })}
            <Show when=move || asking.get()>
                <div class="confirm-panel" role="alertdialog" aria-label=dialog_label.clone()>
                    <p>{consequence.clone()}</p>
                    <button
                        type="button"
                        class="danger"
                        data-confirm="yes"
                        node_ref=confirm_ref
                        on:click=move |_| {
                            asking.set(false);
                            on_confirm.run(());
                        }
                    >
                        {confirm.clone()}
                    </button>
                    " "
                    <button type="button" data-confirm="no" on:click=move |_| asking.set(false)>
                        "Cancel"
                    </button>
                </div>
            </Show>
        </span>
    }
}
