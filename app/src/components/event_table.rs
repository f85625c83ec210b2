//! A table of events (feed and history).

use leptos::prelude::*;

use crate::components::event_words::describe;
use crate::format::Instant;
use crate::model::EventRow;

/// Events as rows: simulated time, engine, subject, kind, details, actor.
#[component]
pub fn EventTable(
    rows: Vec<EventRow>,
    #[prop(optional)] id: &'static str,
    /// The header cells, when the table's columns sort (the plain names otherwise).
    #[prop(optional)]
    head: Option<AnyView>,
) -> impl IntoView {
    let empty = rows.is_empty();
    let head = head.unwrap_or_else(|| {
        view! {
            <th>"Sim time"</th>
            <th>"Engine"</th>
            <th>"Subject"</th>
            <th>"Kind"</th>
            <th>"Details"</th>
            <th>"Actor"</th>
        }
        .into_any()
    });
    view! {
        <table tabindex="0" class="events" id=id>
            <thead>
                <tr>{head}</tr>
            </thead>
            <tbody>
                {empty.then(|| view! { <tr><td colspan="6" class="empty">"No events."</td></tr> })}
                {rows
                    .into_iter()
                    .map(|e| {
                        let why = describe(&e.kind, &e.details);
                        let class = format!("engine-{}", e.engine);
                        let details = e.details;
                        view! {
                            <tr class=class>
                                <td class="mono"><Instant t_ms=e.t_ms/></td>
                                <td><span class="tag">{e.engine}</span></td>
                                <td>{e.subject}</td>
                                <td>{e.kind}</td>
                                <td class="details">
                                    <span class="why">{why}</span>
                                    <details class="raw" on:toggle=move |ev| show_raw(&ev, &details)>
                                        <summary>"JSON"</summary>
                                        <pre class="mono"></pre>
                                    </details>
                                </td>
                                <td>{e.actor.unwrap_or_default()}</td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
}

/// Writes an event's raw details into its disclosure's `<pre>` the first time it opens.
///
/// The pages are not sent the JSON twice (once in the row's words' source, once as text):
/// a disclosure is filled in the browser when it is opened.
fn show_raw(ev: &leptos::ev::Event, details: &str) {
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::JsCast;
        let pre = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.query_selector("pre").ok().flatten());
        if let Some(pre) = pre.filter(|pre| pre.text_content().is_none_or(|t| t.is_empty())) {
            pre.set_text_content(Some(details));
        }
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (ev, details);
}

/// Decisions as rows with their reason in full (details on hover; an event without a reason
/// in words, [`describe`]): simulated time, subject, kind, reason, actor.
#[component]
pub fn ReasonTable(rows: Vec<EventRow>, #[prop(optional)] id: &'static str) -> impl IntoView {
    let empty = rows.is_empty();
    view! {
        <table tabindex="0" class="events reasons" id=id>
            <thead>
                <tr><th>"Sim time"</th><th>"Subject"</th><th>"Kind"</th><th>"Why"</th><th>"Actor"</th></tr>
            </thead>
            <tbody>
                {empty.then(|| view! { <tr><td colspan="5" class="empty">"None yet."</td></tr> })}
                {rows
                    .into_iter()
                    .map(|e| {
                        let reason = describe(&e.kind, &e.details);
                        view! {
                            <tr data-kind=e.kind.clone()>
                                <td class="mono"><Instant t_ms=e.t_ms/></td>
                                <td>{e.subject.clone()}</td>
                                <td>{e.kind.clone()}</td>
                                <td class="small" title=e.details.clone()>{reason}</td>
                                <td>{e.actor.clone().unwrap_or_default()}</td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
}
