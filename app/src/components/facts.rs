//! A settings card: label / value rows, where each value says whether its default is
//! documented or assumed.

use leptos::prelude::*;

/// Settings as label / value rows (values say whether a default is documented or assumed).
#[component]
pub fn Facts(facts: Vec<(String, String)>) -> impl IntoView {
    view! {
        <section class="card">
            <h2>"Settings"</h2>
            <table tabindex="0" class="facts">
                <tbody>
                    {facts.into_iter().map(|(k, v)| view! { <tr><th>{k}</th><td>{v}</td></tr> }).collect_view()}
                </tbody>
            </table>
        </section>
    }
}
