//! Behaviour of the simulation and the core engine: start event, ordering, actions.

mod common;

use common::{kinds, scenario, HEARTBEATS};
use engine::{
    ActionError, CoreAction, EngineId, ScenarioError, SimDuration, SimTime, Simulation, TimedAction,
};

const NO_JITTER: &str = r#"
[scenario]
name = "steady"

[[core.heartbeats]]
id = "a"
interval = "10s"

[[core.heartbeats]]
id = "b"
interval = "5s"
"#;

#[test]
fn first_advance_emits_the_start_event_once() -> Result<(), ScenarioError> {
    let s = scenario(NO_JITTER)?;
    let mut sim = Simulation::new(&s, 1);
    assert_eq!(sim.next_due(), Some(SimTime::ZERO));
    let first = sim.advance_to(SimTime::ZERO);
    assert_eq!(
        kinds(&first),
        [(0, "scenario".into(), "simulation.started".into())]
    );
    assert_eq!(first[0].engine, EngineId::Core);
    assert_eq!(first[0].details["seed"], 1);
    assert_eq!(first[0].details["heartbeats"], 2);
    assert!(sim.advance_to(SimTime::ZERO).is_empty());
    Ok(())
}

#[test]
fn beats_without_jitter_are_exact_and_ordered() -> Result<(), ScenarioError> {
    let s = scenario(NO_JITTER)?;
    let mut sim = Simulation::new(&s, 1);
    let events = sim.advance_to(SimTime::from_secs(20));
    assert_eq!(
        kinds(&events)[1..],
        [
            (5_000, "b".into(), "heartbeat".into()),
            (10_000, "a".into(), "heartbeat".into()),
            (10_000, "b".into(), "heartbeat".into()),
            (15_000, "b".into(), "heartbeat".into()),
            (20_000, "a".into(), "heartbeat".into()),
            (20_000, "b".into(), "heartbeat".into()),
        ]
    );
    assert_eq!(events[2].details["seq"], 1);
    assert_eq!(events[5].details["seq"], 2);
    assert_eq!(events[6].details["seq"], 4);
    assert_eq!(events[6].details["jitter_ms"], 0);
    assert_eq!(sim.now(), SimTime::from_secs(20));
    assert_eq!(sim.next_due(), Some(SimTime::from_secs(25)));
    Ok(())
}

#[test]
fn advancing_backwards_does_nothing() -> Result<(), ScenarioError> {
    let s = scenario(NO_JITTER)?;
    let mut sim = Simulation::new(&s, 1);
    sim.advance_to(SimTime::from_secs(30));
    assert!(sim.advance_to(SimTime::from_secs(10)).is_empty());
    assert_eq!(sim.now(), SimTime::from_secs(30));
    Ok(())
}

#[test]
fn timeline_actions_run_before_engines_and_carry_the_actor() -> Result<(), ScenarioError> {
    let s = scenario(HEARTBEATS)?;
    let mut sim = Simulation::new(&s, 5);
    let events = sim.advance_to(SimTime::from_mins(6));
    let fast_beats: Vec<u64> = events
        .iter()
        .filter(|e| e.subject == "fast" && e.kind == "heartbeat")
        .map(|e| e.t_ms)
        .collect();
    // Paused from 2m to 4m: no beat in between.
    assert!(fast_beats.iter().all(|t| *t <= 120_000 || *t > 240_000));
    let paused = events.iter().find(|e| e.kind == "heartbeat.paused");
    assert!(paused.is_some_and(|e| e.t_ms == 120_000
        && e.actor.as_deref() == Some("alice")
        && e.details["reason"] == "operator action"));
    let note = events.iter().find(|e| e.kind == "operator.note");
    assert!(note.is_some_and(|e| e.details["text"] == "fast is paused" && e.subject == "operator"));
    let resumed = events.iter().find(|e| e.kind == "heartbeat.resumed");
    assert!(resumed.is_some_and(|e| e.actor.as_deref() == Some("bob")));
    let changed = events
        .iter()
        .find(|e| e.kind == "heartbeat.interval_changed");
    assert!(changed.is_some_and(|e| e.actor.is_none()
        && e.details["interval_ms"] == 30_000
        && e.details["previous_interval_ms"] == 60_000));
    // After the change, slow beats every 30s +- 20s.
    let slow_after: Vec<&engine::Event> = events
        .iter()
        .filter(|e| e.subject == "slow" && e.kind == "heartbeat" && e.t_ms > 300_000)
        .collect();
    assert!(slow_after
        .iter()
        .all(|e| e.details["interval_ms"] == 30_000));
    assert_eq!(sim.pending_actions(), 0);
    Ok(())
}

#[test]
fn same_instant_actions_keep_scheduling_order() -> Result<(), ScenarioError> {
    let s = scenario(NO_JITTER)?;
    let mut sim = Simulation::new(&s, 1);
    let note = |text: &str| TimedAction {
        at: SimTime::from_secs(10),
        actor: None,
        action: CoreAction::Note { text: text.into() }.into(),
    };
    sim.schedule(vec![note("first"), note("second")]);
    sim.schedule(vec![note("third")]);
    let events = sim.advance_to(SimTime::from_secs(10));
    let texts: Vec<&str> = events
        .iter()
        .filter_map(|e| e.details.get("text").and_then(|t| t.as_str()))
        .collect();
    assert_eq!(texts, ["first", "second", "third"]);
    // Actions come before the heartbeats of the same instant.
    let at_10: Vec<&str> = events
        .iter()
        .filter(|e| e.t_ms == 10_000)
        .map(|e| e.kind.as_str())
        .collect();
    assert_eq!(
        at_10,
        [
            "operator.note",
            "operator.note",
            "operator.note",
            "heartbeat",
            "heartbeat"
        ]
    );
    Ok(())
}

#[test]
fn a_failing_timeline_action_is_reported_not_fatal() -> Result<(), ScenarioError> {
    let s = scenario(NO_JITTER)?;
    let mut sim = Simulation::new(&s, 1);
    let resume = TimedAction {
        at: SimTime::from_secs(3),
        actor: Some("carol".into()),
        action: CoreAction::HeartbeatResume {
            heartbeat: "a".into(),
        }
        .into(),
    };
    sim.schedule(vec![resume]);
    let events = sim.advance_to(SimTime::from_secs(10));
    let rejected = events.iter().find(|e| e.kind == "action.rejected");
    assert!(rejected.is_some_and(|e| e.t_ms == 3_000
        && e.actor.as_deref() == Some("carol")
        && e.details["action"] == "heartbeat_resume"
        && e.details["error"] == "heartbeat \"a\" is not paused"));
    Ok(())
}

#[test]
fn late_scheduled_actions_run_at_the_current_time() -> Result<(), ScenarioError> {
    let s = scenario(NO_JITTER)?;
    let mut sim = Simulation::new(&s, 1);
    sim.advance_to(SimTime::from_secs(30));
    sim.schedule(vec![TimedAction {
        at: SimTime::from_secs(1),
        actor: None,
        action: CoreAction::Note {
            text: "late".into(),
        }
        .into(),
    }]);
    assert_eq!(sim.next_due(), Some(SimTime::from_secs(30)));
    let events = sim.step_to_next();
    assert_eq!(
        kinds(&events),
        [(30_000, "operator".into(), "operator.note".into())]
    );
    Ok(())
}

#[test]
fn apply_now_errors_change_nothing() -> Result<(), ScenarioError> {
    let s = scenario(NO_JITTER)?;
    let mut sim = Simulation::new(&s, 1);
    let reference = sim.clone();
    let unknown = sim.apply_now(
        CoreAction::HeartbeatPause {
            heartbeat: "zz".into(),
        },
        Some("dave".into()),
    );
    assert_eq!(
        unknown.map_err(|e| e.to_string()),
        Err("unknown heartbeat \"zz\" (known: a, b)".into())
    );
    let too_short = sim.apply_now(
        CoreAction::HeartbeatInterval {
            heartbeat: "a".into(),
            interval: SimDuration(10),
        },
        None,
    );
    assert_eq!(
        too_short,
        Err(ActionError::IntervalTooShort(SimDuration(10)))
    );
    // Nothing changed: not even the start event was consumed.
    let mut reference = reference;
    assert_eq!(
        sim.advance_to(SimTime::from_mins(1)),
        reference.advance_to(SimTime::from_mins(1))
    );
    Ok(())
}

#[test]
fn apply_now_pause_then_resume() -> Result<(), ScenarioError> {
    let s = scenario(NO_JITTER)?;
    let mut sim = Simulation::new(&s, 1);
    let pause = CoreAction::HeartbeatPause {
        heartbeat: "b".into(),
    };
    let first = sim
        .apply_now(pause.clone(), Some("erin".into()))
        .map_err(|e| e.to_string());
    let first = first.unwrap_or_default();
    assert_eq!(
        kinds(&first),
        [
            (0, "scenario".into(), "simulation.started".into()),
            (0, "b".into(), "heartbeat.paused".into()),
        ]
    );
    assert_eq!(first[0].actor, None);
    assert_eq!(first[1].actor.as_deref(), Some("erin"));
    assert_eq!(
        sim.apply_now(pause, None),
        Err(ActionError::AlreadyPaused("b".into()))
    );
    let quiet = sim.advance_to(SimTime::from_secs(30));
    assert!(quiet.iter().all(|e| e.subject != "b"));
    assert!(sim.core().heartbeat("b").is_some_and(|h| h.is_paused()));
    let resumed = sim.apply_now(
        CoreAction::HeartbeatResume {
            heartbeat: "b".into(),
        },
        None,
    );
    assert!(resumed.is_ok_and(|ev| ev[0].details["next_due_ms"] == 35_000));
    let again = sim.advance_to(SimTime::from_secs(35));
    assert_eq!(kinds(&again), [(35_000, "b".into(), "heartbeat".into())]);
    assert_eq!(again[0].details["seq"], 1);
    Ok(())
}

#[test]
fn seed_argument_overrides_the_file_seed() -> Result<(), ScenarioError> {
    let s = scenario(HEARTBEATS)?;
    assert_eq!(s.seed(), 5);
    let sim = Simulation::new(&s, 77);
    assert_eq!(sim.seed(), 77);
    assert_eq!(sim.scenario_name(), "heartbeats");
    Ok(())
}

#[test]
fn an_empty_scenario_has_nothing_due_after_start() -> Result<(), ScenarioError> {
    let s = scenario("[scenario]\nname = \"empty\"\n")?;
    let mut sim = Simulation::new(&s, 1);
    assert_eq!(sim.step_to_next().len(), 1);
    assert_eq!(sim.next_due(), None);
    assert!(sim.step_to_next().is_empty());
    assert!(sim.advance_to(SimTime::from_mins(600)).is_empty());
    Ok(())
}
