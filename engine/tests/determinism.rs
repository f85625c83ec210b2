//! Same scenario + seed + actions => byte-identical events, however time is advanced.

mod common;

use common::{lines, run_lines, scenario, HEARTBEATS};
use engine::{parse_actions, CoreAction, Event, Scenario, SimTime, Simulation, TimedAction};
use proptest::prelude::{
    any, prop_assert, prop_assert_eq, prop_assert_ne, proptest, ProptestConfig,
};

const HOUR: SimTime = SimTime::from_mins(60);
const DEMO: &str = include_str!("../../scenarios/demo.toml");
/// One action of every kind, valid against the demo estate.
const EVERY_ACTION: &str = include_str!("data/every-action.toml");

/// A run of the demo estate (every engine) with one action of every kind scheduled.
fn demo_with_every_action() -> (Simulation, Vec<TimedAction>) {
    let demo = Scenario::from_toml_str(DEMO, "demo.toml").unwrap_or_else(|e| panic!("{e}"));
    let actions =
        parse_actions(EVERY_ACTION, "every-action.toml", &demo).unwrap_or_else(|e| panic!("{e}"));
    let mut sim = Simulation::new(&demo, 42);
    sim.schedule(actions.clone());
    (sim, actions)
}

/// `advance_to(a)` then `advance_to(b)` on the demo, as JSON lines.
fn demo_in_two_advances(a: SimTime, b: SimTime) -> Vec<String> {
    let (mut sim, _) = demo_with_every_action();
    let mut out = lines(&sim.advance_to(a));
    out.extend(lines(&sim.advance_to(b)));
    out
}

fn jitters(events: &[Event]) -> Vec<i64> {
    events
        .iter()
        .filter(|e| e.kind == "heartbeat")
        .filter_map(|e| e.details["jitter_ms"].as_i64())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn same_inputs_same_lines(seed in any::<u64>()) {
        let s = scenario(HEARTBEATS).map_err(|e| e.to_string());
        prop_assert!(s.is_ok(), "{:?}", s);
        if let Ok(s) = s {
            prop_assert_eq!(run_lines(&s, seed, HOUR), run_lines(&s, seed, HOUR));
        }
    }

    #[test]
    fn chunked_advance_equals_one_advance(seed in any::<u64>(), cuts in proptest::collection::vec(0u64..3_600_000, 0..12)) {
        let Ok(s) = scenario(HEARTBEATS) else {
            prop_assert!(false, "scenario must parse");
            return Ok(());
        };
        let whole = run_lines(&s, seed, HOUR);
        let mut cuts = cuts;
        cuts.sort_unstable();
        let mut sim = Simulation::new(&s, seed);
        let mut pieces = Vec::new();
        for cut in cuts.into_iter().chain([HOUR.as_millis()]) {
            pieces.extend(lines(&sim.advance_to(SimTime(cut))));
        }
        prop_assert_eq!(whole, pieces);
    }

    #[test]
    fn two_advances_equal_one_on_every_engine(a in 0u64..21_600_000, b in 0u64..21_600_000) {
        // The runtime's replay relies on it.
        let (a, b) = (SimTime(a.min(b)), SimTime(a.max(b)));
        let (mut whole, _) = demo_with_every_action();
        prop_assert_eq!(demo_in_two_advances(a, b), lines(&whole.advance_to(b)));
    }

    #[test]
    fn event_times_never_decrease(seed in any::<u64>()) {
        let Ok(s) = scenario(HEARTBEATS) else {
            prop_assert!(false, "scenario must parse");
            return Ok(());
        };
        let events = Simulation::new(&s, seed).advance_to(HOUR);
        prop_assert!(events.windows(2).all(|w| w[0].t_ms <= w[1].t_ms));
        prop_assert!(events.iter().all(|e| e.t_ms <= HOUR.as_millis()));
    }

    #[test]
    fn different_seeds_different_jitter(a in any::<u64>(), b in any::<u64>()) {
        proptest::prop_assume!(a != b);
        let Ok(s) = scenario(HEARTBEATS) else {
            prop_assert!(false, "scenario must parse");
            return Ok(());
        };
        let ja = jitters(&Simulation::new(&s, a).advance_to(HOUR));
        let jb = jitters(&Simulation::new(&s, b).advance_to(HOUR));
        prop_assert_ne!(ja, jb);
    }

    #[test]
    fn jitter_stays_within_bounds(seed in any::<u64>()) {
        let Ok(s) = scenario(HEARTBEATS) else {
            prop_assert!(false, "scenario must parse");
            return Ok(());
        };
        for e in Simulation::new(&s, seed).advance_to(HOUR) {
            if e.kind == "heartbeat" {
                let bound = if e.subject == "fast" { 3_000 } else { 20_000 };
                let j = e.details["jitter_ms"].as_i64().unwrap_or(i64::MAX);
                prop_assert!((-bound..=bound).contains(&j));
            }
        }
    }
}

#[test]
fn two_advances_equal_one_at_and_right_after_every_action() {
    let (mut whole, actions) = demo_with_every_action();
    let until = SimTime::from_mins(6 * 60);
    let whole = lines(&whole.advance_to(until));
    let instants = actions
        .iter()
        .flat_map(|a| [a.at.as_millis(), a.at.as_millis() + 1])
        .chain([0, 1, 999]);
    for a in instants {
        assert_eq!(
            demo_in_two_advances(SimTime(a), until),
            whole,
            "split at {a} ms"
        );
    }
}

#[test]
fn single_stepping_equals_advancing() -> Result<(), engine::ScenarioError> {
    let s = scenario(HEARTBEATS)?;
    let whole = run_lines(&s, 9, HOUR);
    let mut sim = Simulation::new(&s, 9);
    let mut stepped = Vec::new();
    while sim.next_due().is_some_and(|t| t <= HOUR) {
        stepped.extend(lines(&sim.step_to_next()));
    }
    assert_eq!(whole, stepped);
    Ok(())
}

#[test]
fn scheduled_actions_equal_file_actions() -> Result<(), engine::ScenarioError> {
    let with_file = scenario(HEARTBEATS)?;
    let mut without = with_file.clone();
    let timeline: Vec<TimedAction> = std::mem::take(&mut without.actions);
    let mut sim = Simulation::new(&without, 3);
    sim.schedule(timeline);
    assert_eq!(lines(&sim.advance_to(HOUR)), run_lines(&with_file, 3, HOUR));
    Ok(())
}

#[test]
fn adding_a_heartbeat_does_not_perturb_others() -> Result<(), engine::ScenarioError> {
    let one = scenario("[scenario]\nname = \"a\"\n[[core.heartbeats]]\nid = \"x\"\ninterval = \"10s\"\njitter = \"4s\"\n")?;
    let two = scenario("[scenario]\nname = \"a\"\n[[core.heartbeats]]\nid = \"new\"\ninterval = \"7s\"\njitter = \"1s\"\n[[core.heartbeats]]\nid = \"x\"\ninterval = \"10s\"\njitter = \"4s\"\n")?;
    let only_x = |events: Vec<Event>| -> Vec<u64> {
        events
            .into_iter()
            .filter(|e| e.subject == "x")
            .map(|e| e.t_ms)
            .collect()
    };
    assert_eq!(
        only_x(Simulation::new(&one, 11).advance_to(HOUR)),
        only_x(Simulation::new(&two, 11).advance_to(HOUR))
    );
    Ok(())
}

#[test]
fn golden_prefix_is_stable() -> Result<(), engine::ScenarioError> {
    // Pins the exact output so that a change in the RNG or in event shapes is noticed.
    let s = scenario(HEARTBEATS)?;
    let mut sim = Simulation::new(&s, 5);
    let first: Vec<String> = lines(&sim.advance_to(SimTime::from_secs(25)));
    assert_eq!(first, GOLDEN);
    let note = sim.apply_now(CoreAction::Note { text: "x".into() }, None);
    assert!(note.is_ok());
    Ok(())
}

const GOLDEN: [&str; 3] = [
    r#"{"t_ms":0,"engine":"core","subject":"scenario","kind":"simulation.started","details":{"heartbeats":2,"scenario":"heartbeats","seed":5}}"#,
    r#"{"t_ms":8329,"engine":"core","subject":"fast","kind":"heartbeat","details":{"interval_ms":10000,"jitter_ms":-1671,"seq":1}}"#,
    r#"{"t_ms":20609,"engine":"core","subject":"fast","kind":"heartbeat","details":{"interval_ms":10000,"jitter_ms":2280,"seq":2}}"#,
];
