//! A table of events (feed and history).

use leptos::prelude::*;

use crate::components::event_words::describe;
use crate::components::raw_json::{JsonSource, RawJson};
use crate::erase::Erase;
use crate::format::Instant;
use crate::model::EventRow;

/// Events as rows: simulated time, engine, subject, kind, details (in words, the JSON read
/// when its disclosure opens), actor.
#[component]
pub fn EventTable(
    rows: Vec<EventRow>,
    #[prop(optional)] id: &'static str,
    /// The events' run, when the page names one (by default the run of the page's instant:
    /// the live run unless it shows the past of another).
    #[prop(optional)]
    run: Option<i64>,
    /// The header cells, when the table's columns sort (the plain names otherwise).
    #[prop(optional)]
    head: Option<AnyView>,
) -> impl IntoView {
    let empty = rows.is_empty();
    let run = run.or_else(crate::time_travel::page_run);
    let head = head.unwrap_or_else(|| {
        view! {
            <th>"Sim time"</th>
            <th>"Engine"</th>
            <th>"Subject"</th>
            <th>"Kind"</th>
            <th>"Details"</th>
            <th>"Actor"</th>
        }
        .erase()
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
                        let json = match e.id {
                            Some(id) => JsonSource::Event { run, t_ms: e.t_ms, id },
                            None => JsonSource::Inline(e.details),
                        };
                        view! {
                            <tr class=class>
                                <td class="mono"><Instant t_ms=e.t_ms/></td>
                                <td><span class="tag">{e.engine}</span></td>
                                <td>{e.subject}</td>
                                <td>{e.kind}</td>
                                <td class="details">
                                    <span class="why">{why}</span>
                                    <RawJson source=json/>
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
