//! An event's details in words: the one line the event tables show beside each event, its
//! raw JSON being one click away.
//!
//! An event whose details carry a `reason` (the engines write the "why" of every decision
//! there) or a `message` is told by it. Every other kind the engines write has a template of
//! its own, one module per engine, as do the clock's changes (whose reason only says that an
//! operator made them: the template says what changed). An unknown kind, or details not of
//! the shape its template expects, reads as its fields (`name value`, nested fields in
//! parentheses, empty ones left out).

mod autoscale;
mod fields;
mod gslb;
mod lhc;
mod lms;
#[cfg(feature = "ssr")]
pub mod memory;
mod simulation;

use serde_json::{Map, Value};

use self::fields::Fields;
use crate::format::short_details;

/// Longest line shown for an event read as its fields.
pub const MAX_WORDS: usize = 160;

/// Longest line shown for an event read through its template: longer than the fields' (a
/// placement names the loads it compared, a switch of distribution mode its consequences),
/// still bounded (a zone's table names each of its servers).
pub const MAX_TEMPLATED_WORDS: usize = 3 * MAX_WORDS;

/// A kind's template: its details in words, `None` when they are not of the expected shape.
type Template = fn(Fields<'_>) -> Option<String>;

/// An event's details in words: its kind's template (at most [`MAX_TEMPLATED_WORDS`]
/// characters), else its reason or message in full, else its fields (at most [`MAX_WORDS`]).
///
/// On the server each distinct (kind, details) pair is described once while it is
/// remembered ([`memory`]): a page's tables show the same newest events render after
/// render.
pub fn describe(kind: &str, details: &str) -> String {
    #[cfg(feature = "ssr")]
    {
        memory::get_or_describe(kind, details, describe_now)
    }
    #[cfg(not(feature = "ssr"))]
    {
        describe_now(kind, details)
    }
}

/// The template of `kind`, from the module of the engine that writes it.
fn template(kind: &str) -> Option<Template> {
    simulation::template(kind)
        .or_else(|| lhc::template(kind))
        .or_else(|| lms::template(kind))
        .or_else(|| gslb::template(kind))
        .or_else(|| autoscale::template(kind))
}

/// [`describe`], computed.
fn describe_now(kind: &str, details: &str) -> String {
    let Ok(Value::Object(fields)) = serde_json::from_str::<Value>(details) else {
        return short_details(details, MAX_WORDS);
    };
    told(kind, &fields).unwrap_or_else(|| short_details(&fields::in_words(&fields), MAX_WORDS))
}

/// An event told by its kind's template (cut at [`MAX_TEMPLATED_WORDS`]), else by its reason
/// or message in full; `None` when it has neither and can only read as its fields.
fn told(kind: &str, fields: &Map<String, Value>) -> Option<String> {
    if let Some(text) = template(kind).and_then(|words| words(Fields(fields))) {
        return Some(short_details(&text, MAX_TEMPLATED_WORDS));
    }
    ["reason", "message"]
        .iter()
        .find_map(|key| fields.get(*key).and_then(Value::as_str))
        .map(str::to_owned)
}

/// An audited action's arguments in words, as the audit log shows them.
///
/// Their fields read `connector cc01 · resource location rl-paris`, empty ones left out,
/// up to [`MAX_TEMPLATED_WORDS`] characters so that an evaluator's rules or a group's
/// settings are read whole. No arguments read `no arguments`. Arguments too long to be
/// kept whole (`{"truncated": true, "length": N, "start": "…"}`) read as their length
/// and first words.
pub fn arguments_in_words(arguments: &str) -> String {
    let Ok(Value::Object(mut fields)) = serde_json::from_str::<Value>(arguments) else {
        return short_details(arguments, MAX_WORDS);
    };
    if fields.get("truncated") == Some(&Value::Bool(true)) {
        let length = fields.get("length").and_then(Value::as_u64).unwrap_or(0);
        let start = fields.get("start").and_then(Value::as_str).unwrap_or("");
        return short_details(
            &format!("{length} bytes, too long to keep whole; they start {start}"),
            MAX_TEMPLATED_WORDS,
        );
    }
    fields.retain(|_, value| value.as_str().is_none_or(|text| !text.trim().is_empty()));
    let words = fields::in_words(&fields);
    if words.is_empty() {
        "no arguments".to_owned()
    } else {
        short_details(&words, MAX_TEMPLATED_WORDS)
    }
}

#[cfg(test)]
mod tests {
    use super::{describe, describe_now};

    /// Checks each (kind, details, words) case of a template, computed, then through
    /// [`describe`] (from the server's memory the second time).
    pub(super) fn check(cases: &[(&str, &str, &str)]) {
        for (kind, _, _) in cases {
            assert!(super::template(kind).is_some(), "{kind} has no template");
        }
        check_words(cases);
    }

    /// Checks each (kind, details, words) case, computed, then through [`describe`] twice.
    fn check_words(cases: &[(&str, &str, &str)]) {
        for (kind, details, want) in cases {
            assert_eq!(describe_now(kind, details), *want, "{kind} {details}");
            assert_eq!(describe(kind, details), *want, "{kind} {details}");
            assert_eq!(describe(kind, details), *want, "{kind} {details}, again");
        }
    }

    /// Kinds without a template, and templates meeting details of another shape.
    #[test]
    fn details_without_a_template_read_as_their_fields() {
        let cases = [
            // (kind, details, words)
            (
                "election",
                r#"{"reason":"cc01 is first in the candidate order","order":["cc01"]}"#,
                "cc01 is first in the candidate order",
            ),
            (
                "rl.warning",
                r#"{"code":"not_ha_ready","message":"rl-tokyo is not HA-ready"}"#,
                "rl-tokyo is not HA-ready",
            ),
            (
                "some.kind",
                r#"{"to":"extended_ha","from":"pending_ha"}"#,
                "from pending_ha · to extended_ha",
            ),
            (
                "some.kind",
                r#"{"backups":["SiteP2","SiteP3"],"none":null,"empty":[]}"#,
                "backups SiteP2, SiteP3",
            ),
            (
                "some.kind",
                r#"{"ips":["198.19.0.4"],"ttl_s":60,"wait_min":2,"zone":"eu-west-1a"}"#,
                "ips 198.19.0.4 · ttl 60 s · wait 2 min · zone eu-west-1a",
            ),
            (
                "some.kind",
                r#"{"nodes":[{"ip":"10.1.1.12","node":"n-2","public_ip":null}],"zone":"z1"}"#,
                "nodes (ip 10.1.1.12, node n-2) · zone z1",
            ),
            // A template's kind with details of another shape: its fields, as any kind.
            ("load.sample", r#"{"servers":"none"}"#, "servers none"),
            ("registrations", r#"{"cloud":"x"}"#, "cloud x"),
            ("heartbeat", r#"{"seq":1}"#, "seq 1"),
            (
                "node.attached",
                r#"{"nodes":[1],"zone":"z"}"#,
                "nodes 1 · zone z",
            ),
            ("anything", "not json", "not json"),
            ("anything", "[1,2]", "[1,2]"),
        ];
        check_words(&cases);
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
    fn a_templates_words_are_cut_further_out() {
        let servers: Vec<String> = (0..60)
            .map(|i| format!(r#""XA-{i:02}":{{"count":1,"disconnected":0,"load_after":100}}"#))
            .collect();
        let details = format!(r#"{{"servers":{{{}}}}}"#, servers.join(","));
        let words = describe_now("sessions.ended", &details);
        assert_eq!(words.chars().count(), super::MAX_TEMPLATED_WORDS);
        assert!(words.starts_with("XA-00: 1 logged off"), "{words}");
        assert!(words.ends_with('…'));
    }

    /// Every event the engines write in a run of the demo estate with one operator action of
    /// each kind (and of the autoscale example) reads through its reason, its message or a
    /// template: none falls back to its fields. A kind added without words fails here.
    #[test]
    fn every_kind_a_run_writes_reads_in_words() {
        use engine::{parse_actions, Scenario, SimTime, Simulation};
        use std::collections::BTreeSet;

        let scenario = |text: &str, origin: &str| {
            Scenario::from_toml_str(text, origin).unwrap_or_else(|e| panic!("{origin}: {e}"))
        };
        let demo = scenario(include_str!("../../../../scenarios/demo.toml"), "demo.toml");
        let every_action = include_str!("../../../../engine/tests/data/every-action.toml");
        let actions = parse_actions(every_action, "every-action.toml", &demo)
            .unwrap_or_else(|e| panic!("{e}"));
        let mut run = Simulation::new(&demo, 42);
        run.schedule(actions);
        let mut events = run.advance_to(SimTime::from_mins(125));
        let seed = include_str!("../../../../scenarios/autoscale-seed.toml");
        let seed = scenario(seed, "autoscale-seed.toml");
        events.extend(Simulation::new(&seed, 1).advance_to(SimTime::from_mins(180)));

        let mut kinds = BTreeSet::new();
        for event in &events {
            kinds.insert(event.kind.as_str());
            let Some(fields) = event.details.value().as_object() else {
                panic!("{} details are not an object", event.kind);
            };
            assert!(
                super::told(&event.kind, fields).is_some(),
                "{} reads as its fields: {}",
                event.kind,
                event.details.json_text()
            );
        }
        // The run reaches every engine and the actions' kinds (a shorter run would prove
        // little).
        assert!(kinds.len() >= 80, "{} kinds: {kinds:?}", kinds.len());
    }

    #[test]
    fn audited_arguments_read_as_their_fields() {
        let long = format!(
            "{{\"truncated\":true,\"length\":5000,\"start\":\"{{\\\"note\\\":\\\"{}\"}}",
            "x".repeat(600)
        );
        let cases = [
            // (arguments as stored, words)
            (r#"{"username":"viewer"}"#, "username viewer".to_owned()),
            (
                r#"{"component":null,"connector":"cc01","resource":null,"resource_location":"rl-paris"}"#,
                "connector cc01 · resource location rl-paris".to_owned(),
            ),
            (
                r#"{"name":"Peak","replaces":"","rules":"cpu 20 90"}"#,
                "name Peak · rules cpu 20 90".to_owned(),
            ),
            (
                r#"{"site":"SiteC1","backups":["SiteP2","SiteP3"]}"#,
                "backups SiteP2, SiteP3 · site SiteC1".to_owned(),
            ),
            (r#"{"speed":600}"#, "speed 600".to_owned()),
            (
                r#"{"max_nodes":"6","watch_time_min":"3"}"#,
                "max nodes 6 · watch time 3 min".to_owned(),
            ),
            ("{}", "no arguments".to_owned()),
            (r#"{"replaces":" "}"#, "no arguments".to_owned()),
            ("not json", "not json".to_owned()),
        ];
        for (arguments, want) in &cases {
            assert_eq!(super::arguments_in_words(arguments), *want, "{arguments}");
        }
        let cut = super::arguments_in_words(&long);
        assert!(
            cut.starts_with("5000 bytes, too long to keep whole; they start {\"note\":\"xxx"),
            "{cut}"
        );
        assert_eq!(cut.chars().count(), super::MAX_TEMPLATED_WORDS, "{cut}");
        assert!(cut.ends_with('…'), "{cut}");
    }

    #[cfg(feature = "ssr")]
    #[test]
    fn the_servers_memory_of_descriptions_stays_bounded() {
        use super::memory::{len, CAPACITY};
        for i in 0..CAPACITY + 10 {
            let details = format!(r#"{{"seq":{i}}}"#);
            assert_eq!(describe("any", &details), format!("seq {i}"));
        }
        assert!(len() <= CAPACITY, "{} remembered", len());
    }
}
