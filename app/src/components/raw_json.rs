//! A row's raw JSON behind a disclosure, beside its words (the event tables' details, the
//! audit log's arguments).

use leptos::prelude::*;

/// A closed `JSON` disclosure whose `<pre>` is filled in the browser the first time it opens
/// (from `data-json`, by the page's behaviours): the page does not carry the JSON twice.
#[component]
pub fn RawJson(
    /// The JSON text shown when the disclosure opens.
    json: String,
) -> impl IntoView {
    view! {
        <details class="raw" data-json=json>
            <summary>"JSON"</summary>
            <pre class="mono" data-keep=""></pre>
        </details>
    }
}
