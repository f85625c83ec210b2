//! Every action kind of every engine keeps its documented flat form: one table with `kind`
//! and the kind's fields, in files (TOML) and on the wire (JSON), whichever engine owns it.

use std::collections::BTreeSet;

use engine::{parse_actions, Action, EngineId, Scenario, TimedAction};
use serde::Serialize;

const DEMO: &str = include_str!("../../scenarios/demo.toml");
/// One action of every kind, valid against the demo estate.
const EVERY_ACTION: &str = include_str!("data/every-action.toml");
const SCENARIOS_DOC: &str = include_str!("../../docs/SCENARIOS.md");

fn every_action() -> (Scenario, Vec<TimedAction>) {
    let scenario = Scenario::from_toml_str(DEMO, "demo.toml").unwrap_or_else(|e| panic!("{e}"));
    let actions = parse_actions(EVERY_ACTION, "every-action.toml", &scenario)
        .unwrap_or_else(|e| panic!("{e}"));
    (scenario, actions)
}

/// The kinds listed in the `[[actions]]` table of docs/SCENARIOS.md.
fn documented_kinds() -> BTreeSet<String> {
    let start = SCENARIOS_DOC
        .find("| `kind` | fields | effect |")
        .unwrap_or_else(|| panic!("the actions table is missing from docs/SCENARIOS.md"));
    SCENARIOS_DOC[start..]
        .lines()
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .filter_map(|line| line.split('|').nth(1))
        .flat_map(|cell| {
            cell.split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn the_fixture_holds_every_kind_and_the_docs_list_every_kind() {
    let (_, actions) = every_action();
    let all: BTreeSet<String> = Action::KINDS.iter().map(|k| (*k).to_owned()).collect();
    let in_fixture: BTreeSet<String> = actions.iter().map(|a| a.action.kind().to_owned()).collect();
    assert_eq!(in_fixture, all, "tests/data/every-action.toml");
    assert_eq!(documented_kinds(), all, "docs/SCENARIOS.md");
    assert_eq!(Action::KINDS.len(), 38);
}

#[test]
fn every_kind_round_trips_through_json_flat() {
    let (_, actions) = every_action();
    for timed in &actions {
        let json = serde_json::to_value(timed).unwrap_or_else(|e| panic!("{e}"));
        let object = json.as_object().unwrap_or_else(|| panic!("{json}"));
        assert_eq!(
            object.get("kind").and_then(|k| k.as_str()),
            Some(timed.action.kind()),
            "flat, with its kind: {json}"
        );
        for nested in ["Core", "Lhc", "Lms", "Gslb", "Autoscale", "action"] {
            assert!(!object.contains_key(nested), "no wrapper key: {json}");
        }
        let back: TimedAction =
            serde_json::from_value(json.clone()).unwrap_or_else(|e| panic!("{e}: {json}"));
        assert_eq!(&back, timed, "{json}");
        let line = serde_json::to_string(timed).unwrap_or_else(|e| panic!("{e}"));
        assert!(line.contains(&format!(r#""kind":"{}""#, timed.action.kind())));
    }
}

#[test]
fn every_kind_round_trips_through_an_actions_file() {
    #[derive(Serialize)]
    struct File<'a> {
        actions: &'a [TimedAction],
    }
    let (scenario, actions) = every_action();
    let text = toml::to_string(&File { actions: &actions }).unwrap_or_else(|e| panic!("{e}"));
    let again = parse_actions(&text, "again.toml", &scenario).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again, actions);
}

#[test]
fn each_kind_routes_to_the_engine_that_documents_it() {
    let (_, actions) = every_action();
    let engine_of = |kind: &str| -> EngineId {
        match kind {
            "note" | "heartbeat_pause" | "heartbeat_resume" | "heartbeat_interval" => {
                EngineId::Core
            }
            "force_outage" | "clear_outage" | "cloud_link" | "connector_restart"
            | "connector_fail" | "connector_recover" | "test_launch" | "config_change"
            | "vda_logoff" | "vda_maintenance" => EngineId::Lhc,
            "site_down" | "site_up" | "mep_cut" | "mep_restore" | "backup_parents"
            | "topology_import" => EngineId::Gslb,
            "load_inject"
            | "load_release"
            | "app_deploy"
            | "app_remove"
            | "distribution_switch"
            | "group_settings" => EngineId::Autoscale,
            _ => EngineId::Lms,
        }
    };
    for timed in &actions {
        let kind = timed.action.kind();
        assert_eq!(timed.action.engine(), engine_of(kind), "{kind}");
        assert_eq!(Action::engine_of(kind), Some(engine_of(kind)), "{kind}");
    }
    assert_eq!(Action::engine_of("reboot_everything"), None);
}

/// Errors in an action table read exactly as they did when every kind was one enum (the
/// messages, lines and columns below were printed by `switchyard simulate --actions` before
/// the actions were split per engine).
#[test]
fn a_bad_action_table_is_reported_at_its_key_by_the_engine_that_owns_the_kind() {
    let (scenario, _) = every_action();
    let cases = [
        (
            "kind = \"force_outage\"\nresource_locaton = \"rl-paris\"",
            "bad.toml:4:1: actions[0].resource_locaton: unknown field `resource_locaton`, expected `resource_location` or `connector`",
        ),
        (
            "kind = \"counter_spike\"\nserver = \"XA-PAR-01\"\ncounter = \"disk\"\npercent = 50\nduration = \"1m\"",
            "bad.toml:5:11: actions[0].counter: unknown variant `disk`, expected `cpu` or `memory`",
        ),
        (
            "kind = \"counter_spike\"\nserver = \"XA-PAR-01\"\ncounter = \"cpu\"\npercent = 500\nduration = \"1m\"",
            "bad.toml:6:11: actions[0].percent: invalid value: integer `500`, expected u8",
        ),
        (
            "kind = \"load_inject\"\ngroup = \"asg_arn\"\nlevel = \"high\"",
            "bad.toml:5:9: actions[0].level: invalid type: string \"high\", expected f64",
        ),
        (
            "kind = 5",
            "bad.toml:3:8: actions[0].kind: invalid type: integer `5`, expected variant identifier",
        ),
        ("at2 = 3", "bad.toml:1:1: actions[0].kind: missing field `kind`"),
        (
            "kind = \"site_down\"\nsite = 3\nbogus = 1",
            "bad.toml:5:1: actions[0].bogus: unknown field `bogus`, expected `site`",
        ),
    ];
    for (body, want) in cases {
        let src = format!("[[actions]]\nat = \"1m\"\n{body}\n");
        let got = parse_actions(&src, "bad.toml", &scenario).map_err(|e| e.to_string());
        assert_eq!(got.err().as_deref(), Some(want), "{src}");
    }
    let unknown = "[[actions]]\nat = \"1m\"\nkind = \"reboot_everything\"\n";
    let got = parse_actions(unknown, "bad.toml", &scenario).map_err(|e| e.to_string());
    let want = format!(
        "bad.toml:3:8: actions[0].kind: unknown variant `reboot_everything`, expected one of {}",
        Action::KINDS.map(|k| format!("`{k}`")).join(", ")
    );
    assert_eq!(got.err(), Some(want));
}
