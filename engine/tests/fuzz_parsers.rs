//! Property-based fuzzing of what reads operator input: scenario files (and, when one
//! parses, a run of it), actions files and the GSLB CLI import. Inputs are valid texts
//! edited at random (characters inserted, deleted, replaced and copied; extreme numbers
//! and odd characters among them) and arbitrary text. Whatever the input: a value or an
//! error, never a panic.
//!
//! `make test` runs [`DEFAULT_CASES`] cases of each; `bench/fuzz.sh` runs 10,000 of each
//! (`FUZZ_CASES`) and prints the counts.

use engine::gslb::export_cli;
use engine::{parse_actions, parse_duration, Scenario, SimTime, Simulation};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::Config;

/// Cases per property in `make test`.
const DEFAULT_CASES: u32 = 200;

const DEMO: &str = include_str!("../../scenarios/demo.toml");
const ACTIONS: &str = include_str!("../../scenarios/actions-example.toml");

fn config() -> Config {
    let cases = std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEFAULT_CASES);
    Config {
        cases,
        ..Config::default()
    }
}

/// Text to put in: printable ASCII and a few odd characters, or a token that breaks
/// numbers, durations and names.
fn payload() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[ -~\n\t]{0,12}",
        1 => "[\u{0}-\u{1f}é区\u{feff}\u{202e}]{1,4}",
        2 => prop::sample::select(vec![
            "99999999999999999999", "-1", "0", "4294967296", "1e309", "nan", "inf", "-0",
            "\"\"", "[]", "{}", "0s", "1d", "999999d", "[[", "]]", "=", "\\", "\"", "'''",
            "\n[scenario]\n", "\n[[actions]]\n", "true", "add gslb site",
        ])
        .prop_map(str::to_owned),
    ]
}

/// `base` with 1 to 8 random edits.
fn edited(base: &'static str) -> impl Strategy<Value = String> {
    let edit = (
        any::<Index>(),
        0u8..4,
        payload(),
        0usize..40,
        any::<Index>(),
    );
    prop::collection::vec(edit, 1..8).prop_map(move |edits| {
        let mut text: Vec<char> = base.chars().collect();
        for (at, kind, put, len, from) in edits {
            let at = at.index(text.len() + 1);
            let end = (at + len).min(text.len());
            match kind {
                0 => {
                    text.splice(at..at, put.chars());
                }
                1 => {
                    text.drain(at..end);
                }
                2 => {
                    text.splice(at..end, put.chars());
                }
                _ => {
                    let from = from.index(text.len() + 1);
                    let copied: Vec<char> = text[from..(from + len).min(text.len())].to_vec();
                    text.splice(at..at, copied);
                }
            }
        }
        text.into_iter().collect()
    })
}

fn scenario_text() -> impl Strategy<Value = String> {
    prop_oneof![8 => edited(DEMO), 1 => "\\PC{0,400}"]
}

fn gslb_cli() -> &'static str {
    static CLI: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    CLI.get_or_init(|| {
        let demo = Scenario::from_toml_str(DEMO, "demo.toml").expect("demo");
        export_cli(&demo.gslb)
    })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_scenario_file_is_read_or_refused_and_a_read_one_runs(text in scenario_text()) {
        if let Ok(scenario) = Scenario::from_toml_str(&text, "fuzz.toml") {
            let mut sim = Simulation::new(&scenario, 7);
            let _ = sim.advance_to(SimTime(10 * 60_000));
            let _ = scenario.to_toml_string();
        }
    }

    #[test]
    fn any_actions_file_is_read_or_refused(text in prop_oneof![8 => edited(ACTIONS), 1 => "\\PC{0,300}"]) {
        let demo = Scenario::from_toml_str(DEMO, "demo.toml").expect("demo");
        if let Ok(actions) = parse_actions(&text, "fuzz-actions.toml", &demo) {
            let mut scenario = demo.clone();
            scenario.actions = actions;
            let mut sim = Simulation::new(&scenario, 7);
            let _ = sim.advance_to(SimTime(2 * 3_600_000));
        }
    }

    #[test]
    fn any_gslb_cli_text_is_imported_or_refused(text in prop_oneof![8 => edited(gslb_cli()), 1 => "\\PC{0,300}"]) {
        let _ = engine::gslb::parse_cli(&text);
    }

    #[test]
    fn any_duration_is_read_or_refused(text in prop_oneof![payload(), "\\PC{0,30}", "[0-9]{1,25}[smhd]"]) {
        let _ = parse_duration(&text);
    }
}
