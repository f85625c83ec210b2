//! A row's raw JSON behind a disclosure, beside its words (the event tables' details, the
//! audit log's arguments).

use leptos::prelude::*;

/// Where a disclosure's JSON comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JsonSource {
    /// The text itself, carried by the page (`data-json`): an event not read back from the
    /// store has no key to ask for it by.
    Inline(String),
    /// A stored event of run `run` (the current run when `None`), at `t_ms`, place `id`
    /// (`data-event="<t_ms>.<id>"`, `data-run`): read by
    /// [`crate::api::history::event_json`] when the disclosure opens.
    Event {
        /// The event's run, when the page names one.
        run: Option<i64>,
        /// The event's simulated instant.
        t_ms: u64,
        /// The event's place in its run.
        id: i64,
    },
    /// The arguments of an audit row (`data-audit`): read by
    /// [`crate::api::admin::audit_json`] when the disclosure opens.
    Audit(i64),
}

/// A closed `JSON` disclosure whose `<pre>` is filled in the browser when it opens (by the
/// page's behaviours): from `data-json` when the page carries the text, else read from the
/// server by the row's key. A page of events thus carries each event's words and key, not its
/// JSON. The `<pre>` keeps its text while the page is read again, and names in `data-for`
/// the key it was filled for (in `data-reading`, the key being read): a row that now shows
/// another event is filled again.
#[component]
pub fn RawJson(
    /// The JSON shown when the disclosure opens.
    source: JsonSource,
) -> impl IntoView {
    let (json, event, run, audit) = match source {
        JsonSource::Inline(json) => (Some(json), None, None, None),
        JsonSource::Event { run, t_ms, id } => (None, Some(format!("{t_ms}.{id}")), run, None),
        JsonSource::Audit(id) => (None, None, None, Some(id)),
    };
    view! {
        <details class="raw" data-json=json data-event=event data-run=run data-audit=audit>
            <summary>"JSON"</summary>
            <pre class="mono" data-keep="" data-client-attrs="data-for data-reading"></pre>
        </details>
    }
}
