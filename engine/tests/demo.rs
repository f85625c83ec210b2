//! The shipped example files parse, validate, run, and round-trip.

use engine::{parse_actions, Scenario, ScenarioError, SimTime, Simulation};

const DEMO: &str = include_str!("../../scenarios/demo.toml");
const ACTIONS: &str = include_str!("../../scenarios/actions-example.toml");

fn demo() -> Result<Scenario, ScenarioError> {
    Scenario::from_toml_str(DEMO, "scenarios/demo.toml")
}

#[test]
fn demo_parses_with_every_section() -> Result<(), ScenarioError> {
    let s = demo()?;
    assert_eq!(s.name(), "Demo estate");
    assert_eq!(s.core.heartbeats.len(), 2);
    assert_eq!(s.lhc.resource_locations.len(), 2);
    assert_eq!(s.lms.zones.len(), 2);
    assert_eq!(s.lms.servers.len(), 6);
    assert_eq!(s.gslb.sites.len(), 7);
    assert_eq!(s.autoscale.groups.len(), 2);
    assert!(s.actions.len() >= 4);
    assert!(s
        .lms
        .evaluator_rules("Heavy apps")
        .is_some_and(|r| r.len() == 6));
    assert!(s.lms.evaluator_rules("Advanced").is_some());
    Ok(())
}

#[test]
fn demo_warns_about_the_rl_that_is_not_ha_ready() -> Result<(), ScenarioError> {
    let warnings: Vec<String> = demo()?.warnings().iter().map(ToString::to_string).collect();
    assert!(
        warnings
            .iter()
            .any(|w| w.starts_with("lhc.resource_locations[1].connectors:")
                && w.contains("not HA-ready")),
        "{warnings:?}"
    );
    assert!(
        warnings
            .iter()
            .all(|w| !w.starts_with("lhc.resource_locations[0]")),
        "{warnings:?}"
    );
    Ok(())
}

#[test]
fn actions_example_fits_the_demo() -> Result<(), ScenarioError> {
    let s = demo()?;
    let actions = parse_actions(ACTIONS, "scenarios/actions-example.toml", &s)?;
    assert_eq!(actions.len(), 5);
    let mut sim = Simulation::new(&s, s.seed());
    sim.schedule(actions);
    let events = sim.advance_to(SimTime::from_mins(180));
    assert!(
        events.iter().all(|e| e.kind != "action.rejected"),
        "an action was rejected"
    );
    assert_eq!(sim.pending_actions(), 0);
    assert!(events.windows(2).all(|w| w[0].t_ms <= w[1].t_ms));
    Ok(())
}

#[test]
fn demo_round_trips_through_toml() -> Result<(), Box<dyn std::error::Error>> {
    let s = demo()?;
    let text = s.to_toml_string()?;
    let back = Scenario::from_toml_str(&text, "exported.toml")?;
    assert_eq!(back, s);
    let seed = include_str!("../../scenarios/autoscale-seed.toml");
    let seed = Scenario::from_toml_str(seed, "scenarios/autoscale-seed.toml")?;
    let back = Scenario::from_toml_str(&seed.to_toml_string()?, "exported.toml")?;
    assert_eq!(back, seed);
    let json = serde_json::to_string(&s)?;
    assert_eq!(serde_json::from_str::<Scenario>(&json)?, s);
    Ok(())
}

#[test]
fn event_examples_in_the_docs_are_real_output() -> Result<(), ScenarioError> {
    const DOC: &str = include_str!("../../docs/SCENARIOS.md");
    let s = demo()?;
    let produced: Vec<String> = Simulation::new(&s, s.seed())
        .advance_to(SimTime::from_mins(15))
        .iter()
        .map(engine::Event::to_json_line)
        .collect();
    let examples: Vec<&str> = DOC.lines().filter(|l| l.starts_with("{\"t_ms\"")).collect();
    assert!(examples.len() >= 3);
    for line in examples {
        assert!(
            produced.iter().any(|p| p == line),
            "not produced by demo.toml: {line}"
        );
    }
    Ok(())
}
