//! A table of events (feed and history).

use leptos::prelude::*;

use crate::format::{short_details, Instant};
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
                        let why = describe(&e.details);
                        let class = format!("engine-{}", e.engine);
                        view! {
                            <tr class=class>
                                <td class="mono"><Instant t_ms=e.t_ms/></td>
                                <td><span class="tag">{e.engine}</span></td>
                                <td>{e.subject}</td>
                                <td>{e.kind}</td>
                                <td class="details">
                                    <span class="why">{why}</span>
                                    <details class="raw">
                                        <summary>"JSON"</summary>
                                        <pre class="mono">{e.details}</pre>
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

/// An event's details in words: its `reason` when it has one, else its fields as
/// `name value` pairs (`interval 1000 ms · seq 1`), shortened for a table cell.
///
/// On the server each distinct details text is described once while it is remembered
/// ([`described`]): a page's tables show the same newest events render after render.
pub fn describe(details: &str) -> String {
    #[cfg(feature = "ssr")]
    {
        described::get_or_describe(details, describe_now)
    }
    #[cfg(not(feature = "ssr"))]
    {
        describe_now(details)
    }
}

/// The server's memory of [`describe`]'s answers, bounded: past [`described::CAPACITY`]
/// texts it starts again from nothing.
#[cfg(feature = "ssr")]
pub mod described {
    use std::collections::HashMap;
    use std::sync::{LazyLock, Mutex};

    /// How many details texts are remembered at most.
    pub const CAPACITY: usize = 4096;

    static ANSWERS: LazyLock<Mutex<HashMap<String, String>>> = LazyLock::new(Default::default);

    /// `describe(details)`, from memory when this text was described before.
    pub fn get_or_describe(details: &str, describe: fn(&str) -> String) -> String {
        if let Some(text) = ANSWERS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(details)
        {
            return text.clone();
        }
        let text = describe(details);
        let mut answers = ANSWERS.lock().unwrap_or_else(|e| e.into_inner());
        if answers.len() >= CAPACITY {
            answers.clear();
        }
        answers.insert(details.to_owned(), text.clone());
        text
    }

    /// How many texts are remembered.
    pub fn len() -> usize {
        ANSWERS.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

/// [`describe`], computed.
fn describe_now(details: &str) -> String {
    let Ok(serde_json::Value::Object(fields)) = serde_json::from_str::<serde_json::Value>(details)
    else {
        return short_details(details, 160);
    };
    if let Some(reason) = fields.get("reason").and_then(|r| r.as_str()) {
        return reason.to_owned();
    }
    let text = fields
        .iter()
        .map(|(name, value)| {
            let (name, unit) = match name.strip_suffix("_ms") {
                Some(stem) => (stem, " ms"),
                None => (name.as_str(), ""),
            };
            let value = match value {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Array(items) => items
                    .iter()
                    .map(|i| {
                        i.as_str()
                            .map(str::to_owned)
                            .unwrap_or_else(|| i.to_string())
                    })
                    .collect::<Vec<_>>()
                    .join(", "),
                other => other.to_string(),
            };
            format!("{} {value}{unit}", name.replace('_', " "))
        })
        .collect::<Vec<_>>()
        .join(" · ");
    short_details(&text, 160)
}

/// The `reason` of an event's details, or its details shortened when it has none.
pub fn reason_of(details: &str) -> String {
    serde_json::from_str::<serde_json::Value>(details)
        .ok()
        .and_then(|v| v.get("reason").and_then(|r| r.as_str()).map(str::to_owned))
        .unwrap_or_else(|| short_details(details, 160))
}

#[cfg(test)]
mod tests {
    use super::{describe, describe_now};

    #[test]
    fn details_read_as_words() {
        let cases = [
            (
                r#"{"reason":"cc01 is first in the candidate order"}"#,
                "cc01 is first in the candidate order",
            ),
            (
                r#"{"interval_ms":1000,"jitter_ms":-3,"seq":1}"#,
                "interval 1000 ms · jitter -3 ms · seq 1",
            ),
            (
                r#"{"to":"extended_ha","from":"pending_ha"}"#,
                "from pending_ha · to extended_ha",
            ),
            (
                r#"{"backups":["SiteP2","SiteP3"]}"#,
                "backups SiteP2, SiteP3",
            ),
            ("not json", "not json"),
        ];
        for (details, want) in cases {
            assert_eq!(describe_now(details), want, "{details}");
            // Described from memory the second time (on the server), with the same words.
            assert_eq!(describe(details), want, "{details}");
            assert_eq!(describe(details), want, "{details}, again");
        }
    }

    #[cfg(feature = "ssr")]
    #[test]
    fn the_servers_memory_of_descriptions_stays_bounded() {
        use super::described::{len, CAPACITY};
        for i in 0..CAPACITY + 10 {
            let details = format!(r#"{{"seq":{i}}}"#);
            assert_eq!(describe(&details), format!("seq {i}"));
        }
        assert!(len() <= CAPACITY, "{} remembered", len());
    }
}

/// Decisions as rows with their reason in full (details on hover): simulated time, subject,
/// kind, reason, actor.
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
                        let reason = reason_of(&e.details);
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
