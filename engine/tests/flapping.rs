//! Flap detection, one scenario per engine: a subject made to flap emits
//! `flapping.started` (with the counts, window and thresholds) and, once left alone,
//! `flapping.stopped`; subjects left alone and a steady estate emit nothing.

mod common;

use common::attention::{actions, flapping_cloud_link, one_cluster};
use engine::{EngineId, Event, Scenario, SimTime, Simulation};

fn run(src: &str, until: SimTime) -> (Simulation, Vec<Event>) {
    let scenario = match Scenario::from_toml_str(src, "flap.toml") {
        Ok(s) => s,
        Err(e) => panic!("{e}"),
    };
    let mut sim = Simulation::new(&scenario, scenario.seed());
    let events = sim.advance_to(until);
    (sim, events)
}

/// The flapping events: (kind, engine, subject, minute).
fn flaps(events: &[Event]) -> Vec<(&str, EngineId, &str, u64)> {
    events
        .iter()
        .filter(|e| e.kind.starts_with("flapping."))
        .map(|e| {
            (
                e.kind.as_str(),
                e.engine,
                e.subject.as_str(),
                e.t_ms / 60_000,
            )
        })
        .collect()
}

fn first<'a>(events: &'a [Event], kind: &str, subject: &str) -> &'a Event {
    match events
        .iter()
        .find(|e| e.kind == kind && e.subject == subject)
    {
        Some(e) => e,
        None => panic!("no {kind} of {subject}: {:?}", flaps(events)),
    }
}

#[test]
fn a_cloud_link_cut_and_restored_repeatedly_makes_its_resource_location_flap() {
    // Cut every 10 minutes for an hour, restored 5 minutes later: each cycle walks the
    // resource location through Pending HA, HA Initial, Pending Recovery and back.
    let extra = flapping_cloud_link("paris", 6);
    let src = common::lhc::estate(false, true, &extra);
    let (sim, events) = run(&src, SimTime::from_mins(180));
    let got = flaps(&events);
    assert!(
        got.iter()
            .all(|(_, e, s, _)| *e == EngineId::Lhc && *s == "paris"),
        "only paris flaps: {got:?}"
    );
    let started = first(&events, "flapping.started", "paris");
    let stopped = first(&events, "flapping.stopped", "paris");
    assert!(started.t_ms < 60 * 60_000, "started during the cuts");
    assert!(stopped.t_ms > 61 * 60_000, "stopped after the last cut");
    let d = &started.details;
    assert_eq!(d["subject_kind"], "resource_location");
    assert_eq!(d["window"], "20m", "21 checks a minute apart");
    assert_eq!(d["high_pct"], 30.0);
    assert_eq!(d["interval"], "1m");
    assert!(d["percent"].as_f64().is_some_and(|p| p > 30.0), "{d}");
    assert!(d["reason"]
        .as_str()
        .is_some_and(|r| r.contains("state changes in the last")));
    assert!(sim.flapping().is_empty(), "nothing flaps at the end");
    assert_eq!(got.len(), 2, "one start and one stop: {got:?}");
}

#[test]
fn one_outage_and_its_recovery_never_flaps() {
    let extra = r#"
[[actions]]
at = "1m"
kind = "cloud_link"
resource_location = "paris"
up = false

[[actions]]
at = "30m"
kind = "cloud_link"
resource_location = "paris"
up = true
"#;
    let (sim, events) = run(
        &common::lhc::estate(false, true, extra),
        SimTime::from_mins(120),
    );
    assert_eq!(flaps(&events), vec![]);
    assert!(sim.flapping().is_empty());
}

#[test]
fn a_connector_failing_and_recovering_repeatedly_flaps() {
    let c = "connector = \"cc02.paris.example.com\"";
    let mut extra = actions(
        (0..8).map(|i| 1 + 4 * i),
        "connector_fail",
        &format!("{c}\ncomponent = \"css\""),
    );
    extra += &actions(
        (0..8).map(|i| 3 + 4 * i),
        "connector_recover",
        &format!("{c}\ncomponent = \"css\""),
    );
    let (_, events) = run(
        &common::lhc::estate(false, true, &extra),
        SimTime::from_mins(90),
    );
    let started = first(&events, "flapping.started", "cc02.paris.example.com");
    assert_eq!(started.details["subject_kind"], "connector");
    first(&events, "flapping.stopped", "cc02.paris.example.com");
}

#[test]
fn a_zone_data_collector_killed_repeatedly_flaps() {
    let tail = actions(
        (0..10).map(|i| 1 + 3 * i),
        "kill_collector",
        "zone = \"z1\"",
    );
    let src = common::lms::farm("", &tail);
    let (_, events) = run(&src, SimTime::from_mins(120));
    let started = first(&events, "flapping.started", "z1");
    assert_eq!(started.engine, EngineId::Lms);
    assert_eq!(started.details["subject_kind"], "zone");
    first(&events, "flapping.stopped", "z1");
    assert!(
        events
            .iter()
            .all(|e| !(e.kind.starts_with("flapping.") && e.subject == "z2")),
        "z2 left alone"
    );
}

const GSLB: &str = r#"
[scenario]
name = "gslb"

[[gslb.sites]]
name = "P1"
ip = "10.0.0.1"
role = "parent"
backup_parents = ["P2"]

[[gslb.sites]]
name = "P2"
ip = "10.0.0.2"
role = "parent"

[[gslb.sites]]
name = "P3"
ip = "10.0.0.3"
role = "parent"

[[gslb.sites]]
name = "C1"
ip = "10.0.1.1"
role = "child"
parent = "P1"
"#;

#[test]
fn a_mep_link_cut_and_restored_repeatedly_flaps() {
    let link = "from = \"P1\"\nto = \"P2\"";
    let mut src = GSLB.to_owned();
    src += &actions((0..8).map(|i| 1 + 2 * i), "mep_cut", link);
    src += &actions((0..8).map(|i| 2 + 2 * i), "mep_restore", link);
    let (_, events) = run(&src, SimTime::from_mins(60));
    let started = first(&events, "flapping.started", "P1-P2");
    assert_eq!(started.engine, EngineId::Gslb);
    assert_eq!(started.details["subject_kind"], "mep_link");
    assert_eq!(started.details["interval"], "30s");
    first(&events, "flapping.stopped", "P1-P2");
    assert!(
        events
            .iter()
            .all(|e| !(e.kind.starts_with("flapping.") && e.subject.contains("P3"))),
        "P3's links left alone: {:?}",
        flaps(&events)
    );
}

#[test]
fn a_site_going_down_and_up_repeatedly_flaps_and_its_child_is_adopted_and_returned() {
    let mut src = GSLB.to_owned();
    src += &actions((0..8).map(|i| 1 + 2 * i), "site_down", "site = \"P1\"");
    src += &actions((0..8).map(|i| 2 + 2 * i), "site_up", "site = \"P1\"");
    let (_, events) = run(&src, SimTime::from_mins(90));
    let site = first(&events, "flapping.started", "P1");
    assert_eq!(site.details["subject_kind"], "site");
    let child = first(&events, "flapping.started", "C1");
    assert_eq!(child.details["subject_kind"], "child");
    first(&events, "flapping.stopped", "C1");
}

#[test]
fn an_autoscale_cluster_scaling_out_and_in_alternately_oscillates() {
    let group = one_cluster(6, 25, "");
    // Demand swings between far above and far below the thresholds every 10 minutes.
    let mut src = group;
    src += &actions(
        (0..12).map(|i| 1 + 20 * i),
        "load_inject",
        "group = \"g\"\nlevel = 200\nduration_min = 10",
    );
    src += &actions(
        (0..12).map(|i| 11 + 20 * i),
        "load_inject",
        "group = \"g\"\nlevel = 5\nduration_min = 10",
    );
    let (_, events) = run(&src, SimTime::from_mins(600));
    let started = first(&events, "flapping.started", "g/a");
    assert_eq!(started.engine, EngineId::Autoscale);
    assert_eq!(started.details["subject_kind"], "cluster");
    assert_eq!(started.details["interval"], "5m");
    first(&events, "flapping.stopped", "g/a");
}

#[test]
fn an_autoscale_cluster_scaling_out_step_by_step_does_not_flap() {
    let src = one_cluster(
        30,
        10,
        "\n[[actions]]\nat = \"1m\"\nkind = \"load_inject\"\ngroup = \"g\"\nlevel = 900\n",
    );
    let (_, events) = run(&src, SimTime::from_mins(360));
    assert!(
        events
            .iter()
            .filter(|e| e.kind == "autoscale.scale_out")
            .count()
            > 3
    );
    assert_eq!(flaps(&events), vec![]);
}

#[test]
fn the_demo_estate_at_rest_emits_no_flapping() {
    let src = include_str!("../../scenarios/demo.toml");
    let (_, events) = run(src, SimTime::from_mins(720));
    assert_eq!(flaps(&events), vec![]);
}

#[test]
fn a_disabled_engine_is_not_watched() {
    let mut extra = flapping_cloud_link("paris", 6);
    extra += "\n[attention.lhc]\nenabled = false\n";
    let (_, events) = run(
        &common::lhc::estate(false, true, &extra),
        SimTime::from_mins(180),
    );
    assert_eq!(flaps(&events), vec![]);
}
