//! A table of events (feed and history).

use leptos::prelude::*;

use crate::format::{short_details, sim_time};
use crate::model::EventRow;

/// Events as rows: simulated time, engine, subject, kind, details, actor.
#[component]
pub fn EventTable(rows: Vec<EventRow>, #[prop(optional)] id: &'static str) -> impl IntoView {
    let empty = rows.is_empty();
    view! {
        <table class="events" id=id>
            <thead>
                <tr>
                    <th>"Sim time"</th>
                    <th>"Engine"</th>
                    <th>"Subject"</th>
                    <th>"Kind"</th>
                    <th>"Details"</th>
                    <th>"Actor"</th>
                </tr>
            </thead>
            <tbody>
                {empty.then(|| view! { <tr><td colspan="6" class="empty">"No events."</td></tr> })}
                {rows
                    .into_iter()
                    .map(|e| {
                        view! {
                            <tr class=format!("engine-{}", e.engine)>
                                <td class="mono">{sim_time(e.t_ms)}</td>
                                <td><span class="tag">{e.engine.clone()}</span></td>
                                <td>{e.subject.clone()}</td>
                                <td>{e.kind.clone()}</td>
                                <td class="mono details" title=e.details.clone()>{short_details(&e.details, 120)}</td>
                                <td>{e.actor.clone().unwrap_or_default()}</td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
}

/// The `reason` of an event's details, or its details shortened when it has none.
pub fn reason_of(details: &str) -> String {
    serde_json::from_str::<serde_json::Value>(details)
        .ok()
        .and_then(|v| v.get("reason").and_then(|r| r.as_str()).map(str::to_owned))
        .unwrap_or_else(|| short_details(details, 160))
}

/// Decisions as rows with their reason in full (details on hover): simulated time, subject,
/// kind, reason, actor.
#[component]
pub fn ReasonTable(rows: Vec<EventRow>, #[prop(optional)] id: &'static str) -> impl IntoView {
    let empty = rows.is_empty();
    view! {
        <table class="events reasons" id=id>
            <thead>
                <tr><th>"Sim time"</th><th>"Subject"</th><th>"Kind"</th><th>"Why"</th><th>"Actor"</th></tr>
            </thead>
            <tbody>
                {empty.then(|| view! { <tr><td colspan="5" class="empty">"None yet."</td></tr> })}
                {rows
                    .into_iter()
                    .map(|e| {
                        let reason = reason_of(&e.details);
                        view! {
                            <tr data-kind=e.kind.clone()>
                                <td class="mono">{sim_time(e.t_ms)}</td>
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
