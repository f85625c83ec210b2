//! An event's details in words: the one line the event tables show beside each event, its
//! raw JSON being one click away.
//!
//! An event whose details carry a `reason` is told by it (the engines write the "why" of
//! every decision there). The kinds whose details are tables of servers read through a
//! template of their own ([`templated`]); every other kind reads as its fields, `name value`,
//! nested fields in parentheses and empty ones left out.

use serde_json::{Map, Value};

use crate::format::short_details;

/// Longest line shown for an event.
pub const MAX_WORDS: usize = 160;

/// An event's details in words: its reason in full, or at most [`MAX_WORDS`] characters.
///
/// On the server each distinct (kind, details) pair is described once while it is
/// remembered ([`described`]): a page's tables show the same newest events render after
/// render.
pub fn describe(kind: &str, details: &str) -> String {
    #[cfg(feature = "ssr")]
    {
        described::get_or_describe(kind, details, describe_now)
    }
    #[cfg(not(feature = "ssr"))]
    {
        describe_now(kind, details)
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

    /// Answers by kind, then by details text: both looked up by borrow, so a remembered
    /// answer costs no allocation but its copy.
    type Answers = HashMap<String, HashMap<String, String>>;
    static ANSWERS: LazyLock<Mutex<Answers>> = LazyLock::new(Default::default);

    /// `describe(kind, details)`, from memory when this pair was described before.
    pub fn get_or_describe(
        kind: &str,
        details: &str,
        describe: fn(&str, &str) -> String,
    ) -> String {
        let remembered = ANSWERS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(kind)
            .and_then(|of_kind| of_kind.get(details))
            .cloned();
        if let Some(text) = remembered {
            return text;
        }
        let text = describe(kind, details);
        let mut answers = ANSWERS.lock().unwrap_or_else(|e| e.into_inner());
        if count(&answers) >= CAPACITY {
            answers.clear();
        }
        answers
            .entry(kind.to_owned())
            .or_default()
            .insert(details.to_owned(), text.clone());
        text
    }

    fn count(answers: &Answers) -> usize {
        answers.values().map(HashMap::len).sum()
    }

    /// How many texts are remembered.
    pub fn len() -> usize {
        count(&ANSWERS.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// [`describe`], computed.
fn describe_now(kind: &str, details: &str) -> String {
    let Ok(Value::Object(fields)) = serde_json::from_str::<Value>(details) else {
        return short_details(details, MAX_WORDS);
    };
    if let Some(reason) = fields.get("reason").and_then(Value::as_str) {
        return reason.to_owned();
    }
    let text = templated(kind, &fields).unwrap_or_else(|| fields_in_words(&fields));
    short_details(&text, MAX_WORDS)
}

/// The `reason` of an event's details, or its details shortened when it has none.
pub fn reason_of(details: &str) -> String {
    serde_json::from_str::<Value>(details)
        .ok()
        .and_then(|v| v.get("reason").and_then(|r| r.as_str()).map(str::to_owned))
        .unwrap_or_else(|| short_details(details, MAX_WORDS))
}

/// The kinds with a template of their own: their details are one entry per server, which
/// read badly as nested fields. `None` for any other kind, or details not of the expected
/// shape.
fn templated(kind: &str, fields: &Map<String, Value>) -> Option<String> {
    let per_server = |key: &str, line: fn(&str, &Map<String, Value>) -> Option<String>| {
        let servers = fields.get(key)?.as_object()?;
        let lines: Option<Vec<String>> = servers
            .iter()
            .map(|(host, entry)| line(host, entry.as_object()?))
            .collect();
        lines.map(|l| l.join(" · ")).filter(|l| !l.is_empty())
    };
    match kind {
        "load.sample" => per_server("servers", load_sampled),
        "load.pushed" => per_server("pushes", load_pushed),
        "sessions.ended" => per_server("servers", sessions_ended),
        "registrations" => registrations(fields),
        _ => None,
    }
}

fn count(entry: &Map<String, Value>, key: &str) -> Option<u64> {
    entry.get(key)?.as_u64()
}

/// `load.sample`, one server: `XA-01 load 1732, 3 sessions (1 disconnected)`, and the load
/// its zone data collector holds when that is not the same.
fn load_sampled(host: &str, entry: &Map<String, Value>) -> Option<String> {
    let load = count(entry, "load")?;
    let connected = count(entry, "connected").unwrap_or(0);
    let disconnected = count(entry, "disconnected").unwrap_or(0);
    let mut line = format!("{host} load {load}");
    if connected + disconnected > 0 {
        line.push_str(&format!(", {} sessions", connected + disconnected));
        if disconnected > 0 {
            line.push_str(&format!(" ({disconnected} disconnected)"));
        }
    }
    match entry.get("dc_load") {
        Some(Value::Null) => line.push_str(", unknown to its collector"),
        Some(dc) if dc.as_u64() != Some(load) => line.push_str(&format!(", collector holds {dc}")),
        _ => {}
    }
    Some(line)
}

/// `load.pushed`, one server: `XA-01 pushed 2181 → 1732 (2 past the load delta, 1 asked)`.
fn load_pushed(host: &str, entry: &Map<String, Value>) -> Option<String> {
    let load = match entry.get("load")? {
        Value::Null => "nothing".to_owned(),
        v => v.to_string(),
    };
    let from = match entry.get("from") {
        Some(Value::Number(n)) => format!("{n} → "),
        _ => String::new(),
    };
    let mut why = Vec::new();
    if let Some(n) = count(entry, "delta").filter(|n| *n > 0) {
        why.push(format!("{n} past the load delta"));
    }
    if let Some(n) = count(entry, "requested").filter(|n| *n > 0) {
        why.push(format!("{n} asked by the collector"));
    }
    let why = if why.is_empty() {
        String::new()
    } else {
        format!(" ({})", why.join(", "))
    };
    Some(format!("{host} pushed {from}{load}{why}"))
}

/// `sessions.ended`, one server: `XA-01 3 logged off, 1 disconnected, load now 1500`.
fn sessions_ended(host: &str, entry: &Map<String, Value>) -> Option<String> {
    let ended = count(entry, "count")?;
    let disconnected = count(entry, "disconnected").unwrap_or(0);
    let load = count(entry, "load_after")?;
    Some(format!(
        "{host} {ended} logged off, {disconnected} disconnected, load now {load}"
    ))
}

/// `registrations`: `160 VDAs on the cloud · 12 on cc01 · 0 unregistered`.
fn registrations(fields: &Map<String, Value>) -> Option<String> {
    let cloud = fields.get("cloud")?.as_u64()?;
    let unregistered = fields.get("unregistered")?.as_u64()?;
    let mut parts = vec![format!("{cloud} VDAs on the cloud")];
    if let Some(secondary) = fields.get("secondary").and_then(Value::as_object) {
        parts.extend(secondary.iter().map(|(fqdn, n)| format!("{n} on {fqdn}")));
    }
    parts.push(format!("{unregistered} unregistered"));
    Some(parts.join(" · "))
}

/// Fields as `name value` pairs joined by ` · `: `interval 1000 ms · seq 1`. Empty fields
/// (null, `{}`, `[]`) are left out.
fn fields_in_words(fields: &Map<String, Value>) -> String {
    fields
        .iter()
        .filter(|(_, value)| !is_empty(value))
        .map(|(name, value)| named(name, value))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// One field: its name with underscores as spaces and a unit suffix (`_ms`, `_s`, `_min`)
/// after the value.
fn named(name: &str, value: &Value) -> String {
    let (stem, unit) = [("_ms", " ms"), ("_s", " s"), ("_min", " min")]
        .iter()
        .find_map(|(suffix, unit)| name.strip_suffix(suffix).map(|stem| (stem, *unit)))
        .unwrap_or((name, ""));
    format!("{} {}{unit}", stem.replace('_', " "), value_in_words(value))
}

/// A value in words: text as is, a list joined by commas, an object as its fields in
/// parentheses.
fn value_in_words(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Array(items) => items
            .iter()
            .filter(|item| !is_empty(item))
            .map(value_in_words)
            .collect::<Vec<_>>()
            .join(", "),
        Value::Object(fields) => {
            let inner: Vec<String> = fields
                .iter()
                .filter(|(_, v)| !is_empty(v))
                .map(|(name, v)| named(name, v))
                .collect();
            format!("({})", inner.join(", "))
        }
        other => other.to_string(),
    }
}

fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Array(items) => items.is_empty(),
        Value::Object(fields) => fields.is_empty(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::{describe, describe_now, reason_of};

    #[test]
    fn details_read_as_words() {
        let cases = [
            // (kind, details, words)
            (
                "election",
                r#"{"reason":"cc01 is first in the candidate order","order":["cc01"]}"#,
                "cc01 is first in the candidate order",
            ),
            (
                "heartbeat",
                r#"{"interval_ms":1000,"jitter_ms":-3,"seq":1}"#,
                "interval 1000 ms · jitter -3 ms · seq 1",
            ),
            (
                "connector.ha_state",
                r#"{"to":"extended_ha","from":"pending_ha"}"#,
                "from pending_ha · to extended_ha",
            ),
            (
                "mep.link",
                r#"{"backups":["SiteP2","SiteP3"]}"#,
                "backups SiteP2, SiteP3",
            ),
            (
                "records.removed",
                r#"{"ips":["198.19.0.4"],"nlb_ip":null,"ttl_s":60,"zone":"eu-west-1a"}"#,
                "ips 198.19.0.4 · ttl 60 s · zone eu-west-1a",
            ),
            (
                "node.provisioned",
                r#"{"nodes":[{"ip":"10.1.1.12","node":"n-2","public_ip":null}],"zone":"z1"}"#,
                "nodes (ip 10.1.1.12, node n-2) · zone z1",
            ),
            (
                "load.sample",
                r#"{"servers":{"XA-01":{"connected":0,"dc_load":1732,"disconnected":0,"load":1732,"rules":{"3":1732.3}},"XA-02":{"connected":2,"dc_load":500,"disconnected":1,"load":700,"rules":{}},"XA-03":{"connected":0,"dc_load":null,"disconnected":0,"load":0,"rules":{}}}}"#,
                "XA-01 load 1732 · XA-02 load 700, 3 sessions (1 disconnected), collector holds 500 · XA-03 load 0, unknown to its collector",
            ),
            (
                "load.pushed",
                r#"{"pushes":{"XA-01":{"delta":2,"from":2181,"load":1732,"requested":0,"true_load":1732},"XA-02":{"delta":0,"from":null,"load":10,"requested":1,"true_load":10}}}"#,
                "XA-01 pushed 2181 → 1732 (2 past the load delta) · XA-02 pushed 10 (1 asked by the collector)",
            ),
            (
                "sessions.ended",
                r#"{"servers":{"XA-01":{"count":3,"disconnected":1,"load_after":1500}}}"#,
                "XA-01 3 logged off, 1 disconnected, load now 1500",
            ),
            (
                "registrations",
                r#"{"cloud":160,"secondary":{"cc01.example":12},"unregistered":0}"#,
                "160 VDAs on the cloud · 12 on cc01.example · 0 unregistered",
            ),
            (
                "registrations",
                r#"{"cloud":20,"secondary":{},"unregistered":0}"#,
                "20 VDAs on the cloud · 0 unregistered",
            ),
            // A template's kind with details of another shape: its fields, as any kind.
            ("load.sample", r#"{"servers":"none"}"#, "servers none"),
            ("registrations", r#"{"cloud":"x"}"#, "cloud x"),
            ("anything", "not json", "not json"),
            ("anything", "[1,2]", "[1,2]"),
        ];
        for (kind, details, want) in cases {
            assert_eq!(describe_now(kind, details), want, "{kind} {details}");
            // Described from memory the second time (on the server), with the same words.
            assert_eq!(describe(kind, details), want, "{kind} {details}");
            assert_eq!(describe(kind, details), want, "{kind} {details}, again");
        }
    }

    #[test]
    fn long_details_are_cut_to_one_line_and_reasons_kept_whole() {
        let long = format!(r#"{{"note":"{}"}}"#, "x".repeat(400));
        let words = describe_now("any", &long);
        assert_eq!(words.chars().count(), super::MAX_WORDS);
        assert!(words.ends_with('…'));
        let reason = format!(r#"{{"reason":"{}"}}"#, "y".repeat(400));
        assert_eq!(describe_now("any", &reason), "y".repeat(400));
    }

    #[test]
    fn the_reason_is_read_when_there_is_one() {
        assert_eq!(reason_of(r#"{"reason":"drain","zone":"z"}"#), "drain");
        assert_eq!(reason_of(r#"{"zone":"z"}"#), r#"{"zone":"z"}"#);
    }

    #[cfg(feature = "ssr")]
    #[test]
    fn the_servers_memory_of_descriptions_stays_bounded() {
        use super::described::{len, CAPACITY};
        for i in 0..CAPACITY + 10 {
            let details = format!(r#"{{"seq":{i}}}"#);
            assert_eq!(describe("any", &details), format!("seq {i}"));
        }
        assert!(len() <= CAPACITY, "{} remembered", len());
    }
}
