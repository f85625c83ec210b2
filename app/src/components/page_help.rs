//! A page's "What am I looking at?": one paragraph in an operator's words, folded until asked.

use leptos::prelude::*;

/// The folded help of a page, placed under its title. `text` is one paragraph saying what the
/// page shows, where its numbers come from and what an operator can do there.
#[component]
pub fn PageHelp(text: &'static str) -> impl IntoView {
    view! {
        <details class="page-help">
            <summary>"What am I looking at?"</summary>
            <p>{text}</p>
        </details>
    }
}
