//! A row's raw JSON behind a disclosure, beside its words (the event tables' details, the
//! audit log's arguments).

use leptos::prelude::*;

/// A closed `JSON` disclosure whose `<pre>` is filled in the browser the first time it opens:
/// the page is not sent the JSON twice (once in the words' source, once as text).
#[component]
pub fn RawJson(
    /// The JSON text shown when the disclosure opens.
    json: String,
) -> impl IntoView {
    view! {
        <details class="raw" on:toggle=move |ev| show_raw(&ev, &json)>
            <summary>"JSON"</summary>
            <pre class="mono"></pre>
        </details>
    }
}

/// Writes `json` into the opened disclosure's `<pre>`, once.
fn show_raw(ev: &leptos::ev::Event, json: &str) {
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::JsCast;
        let pre = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.query_selector("pre").ok().flatten());
        if let Some(pre) = pre.filter(|pre| pre.text_content().is_none_or(|t| t.is_empty())) {
            pre.set_text_content(Some(json));
        }
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (ev, json);
}
