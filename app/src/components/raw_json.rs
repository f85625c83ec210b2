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

impl JsonSource {
    /// The key a `<pre>` filled from this source names in `data-for`: `None` for a text the
    /// page carries (written at once, never read).
    pub fn key(&self) -> Option<String> {
        match self {
            JsonSource::Inline(_) => None,
            JsonSource::Event { run, t_ms, id } => Some(format!("event:{run:?}:{t_ms}.{id}")),
            JsonSource::Audit(id) => Some(format!("audit:{id}")),
        }
    }

    /// The source a disclosure's attributes name (the ones [`RawJson`] writes, below); `None`
    /// when they name none or cannot be read.
    #[cfg(feature = "hydrate")]
    pub fn of(details: &web_sys::Element) -> Option<JsonSource> {
        if let Some(text) = details.get_attribute("data-json") {
            return Some(JsonSource::Inline(text));
        }
        if let Some(key) = details.get_attribute("data-event") {
            let (t_ms, id) = key.split_once('.')?;
            return Some(JsonSource::Event {
                run: details
                    .get_attribute("data-run")
                    .and_then(|r| r.parse().ok()),
                t_ms: t_ms.parse().ok()?,
                id: id.parse().ok()?,
            });
        }
        let id = details.get_attribute("data-audit")?.parse().ok()?;
        Some(JsonSource::Audit(id))
    }

    /// The JSON itself: the text, or read from the server by the key.
    #[cfg(feature = "hydrate")]
    pub async fn read(self) -> Result<String, crate::error::AppError> {
        match self {
            JsonSource::Inline(text) => Ok(text),
            JsonSource::Event { run, t_ms, id } => {
                // An instant beyond i64 names no stored event: the server answers so.
                let t_ms = i64::try_from(t_ms).unwrap_or(i64::MAX);
                crate::api::history::event_json(run, t_ms, id).await
            }
            JsonSource::Audit(id) => crate::api::admin::audit_json(id).await,
        }
    }
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

#[cfg(test)]
mod tests {
    use super::JsonSource;

    #[test]
    fn each_stored_row_has_its_own_key_and_a_carried_text_none() {
        let event = |run, t_ms, id| JsonSource::Event { run, t_ms, id }.key();
        assert_eq!(JsonSource::Inline("{}".into()).key(), None);
        assert_eq!(event(None, 5, 7).as_deref(), Some("event:None:5.7"));
        let keys = [
            event(None, 5, 7),
            event(Some(2), 5, 7),
            event(None, 6, 7),
            event(None, 5, 8),
            JsonSource::Audit(7).key(),
        ];
        for (i, a) in keys.iter().enumerate() {
            for b in &keys[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }
}
