//! Autoscale decisions at their edges, through the engine (docs/AUTOSCALE.md, "Decisions"):
//! a parameter exactly at a limit is no breach, `autoscale.at_limit` names its direction and
//! its limit, a lowered `max_nodes` scales in several nodes at once (the newest), and the
//! hourly sample counts the decisions.

use engine::autoscale::views::MinuteOutcome;
use engine::{AutoscaleAction, Event, Scenario, ScenarioError, SimTime, Simulation};

/// One group `g` in `mode`, zone `a`, cpu 25/75, nodes `min..=max`, watch 2, cooldown 1,
/// drain 1, TTL 90 s, constant demand `level` (percent of `min` nodes).
fn group(mode: &str, min: u32, max: u32, level: f64) -> Result<Scenario, ScenarioError> {
    let text = format!(
        r#"[scenario]
name = "limits"

[[autoscale.groups]]
name = "g"
mode = "{mode}"
zones = ["a"]
min_nodes = {min}
max_nodes = {max}
watch_time_min = 2
cooldown_min = 1
drain_timeout_min = 1
ttl_s = 90

[[autoscale.groups.thresholds]]
parameter = "cpu"
min = 25
max = 75

[autoscale.groups.workload]
profile = "constant"
level = {level}
"#
    );
    Scenario::from_toml_str(&text, "limits.toml")
}

fn of<'a>(events: &'a [Event], kind: &str) -> Vec<&'a Event> {
    events.iter().filter(|e| e.kind == kind).collect()
}

fn outcomes(sim: &Simulation, minutes: u32) -> Vec<MinuteOutcome> {
    sim.autoscale()
        .timeline("g", "a", minutes)
        .unwrap_or_default()
        .into_iter()
        .map(|m| m.outcome)
        .collect()
}

#[test]
fn exactly_at_the_maximum_or_the_minimum_nothing_happens() -> Result<(), ScenarioError> {
    // 75 % on 1 node: at the maximum. 50 % of 1 node on 2 nodes = 25 %: at the minimum.
    for (min, max, level) in [(1, 4, 75.0), (2, 4, 25.0)] {
        let mut sim = Simulation::new(&group("nlb", min, max, level)?, 1);
        let events = sim.advance_to(SimTime::from_mins(30));
        assert!(
            events.iter().all(|e| !e.kind.starts_with("autoscale.")),
            "{level} on {min} nodes: {:?}",
            events.iter().map(|e| &e.kind).collect::<Vec<_>>()
        );
        let tl = outcomes(&sim, 30);
        assert_eq!(tl.len(), 30);
        assert!(tl.iter().all(|o| *o == MinuteOutcome::Inside), "{tl:?}");
    }
    Ok(())
}

#[test]
fn at_limit_names_its_direction_and_limit() -> Result<(), ScenarioError> {
    // Out: 400 % of 1 node; scale-out to 2 at minute 2 (cooldown 3); 100 % on 2 nodes at
    // 4 and 5: due at max_nodes.
    let mut sim = Simulation::new(&group("nlb", 1, 2, 400.0)?, 1);
    let events = sim.advance_to(SimTime::from_mins(5));
    let out = of(&events, "autoscale.scale_out");
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].details["minute"], 2);
    let at = of(&events, "autoscale.at_limit");
    assert_eq!(at.len(), 1);
    let d = &at[0].details;
    assert_eq!(at[0].t_ms, 5 * 60_000);
    assert_eq!(d["direction"], "scale_out");
    assert_eq!(d["limit"], "max_nodes");
    assert_eq!(d["limit_nodes"], 2);
    assert_eq!(d["nodes"], 2);
    assert_eq!(d["minute"], 5);
    assert_eq!(d["streak"], 2);
    assert_eq!(d["parameter"], "cpu");
    assert_eq!(d["value"], 100.0);
    assert_eq!(d["watch_time_min"], 2);
    assert_eq!(d["zone"], "a");
    let last = sim.autoscale().group("g").and_then(|g| {
        g.zones
            .iter()
            .find(|c| c.zone == "a")
            .and_then(|c| c.last_decision.clone())
    });
    assert_eq!(
        last.map(|l| (l.kind, l.at_ms)),
        Some(("at_limit".to_owned(), 5 * 60_000))
    );

    // In: 10 % on 1 node (min_nodes 1): due at min_nodes at minute 2.
    let mut sim = Simulation::new(&group("dns", 1, 2, 10.0)?, 1);
    let events = sim.advance_to(SimTime::from_mins(2));
    let at = of(&events, "autoscale.at_limit");
    assert_eq!(at.len(), 1);
    let d = &at[0].details;
    assert_eq!(d["direction"], "scale_in");
    assert_eq!(d["limit"], "min_nodes");
    assert_eq!(d["limit_nodes"], 1);
    assert_eq!(d["nodes"], 1);
    assert_eq!(d["value"], 10.0);
    assert_eq!(outcomes(&sim, 2).last(), Some(&MinuteOutcome::AtLimit));
    Ok(())
}

#[test]
fn a_lowered_max_nodes_scales_in_the_newest_nodes_at_once() -> Result<(), ScenarioError> {
    // 3 nodes in DNS mode, demand inside; at minute 3 the maximum becomes 1.
    let s = group("dns", 3, 4, 50.0)?;
    let mut sim = Simulation::new(&s, 1);
    let start = sim.advance_to(SimTime::from_mins(2));
    let started = of(&start, "group.started");
    assert_eq!(started.len(), 1);
    let mut p = s.autoscale.groups[0].params();
    p.min_nodes = 1;
    p.max_nodes = 1;
    sim.apply_now(
        AutoscaleAction::GroupSettings {
            group: "g".into(),
            settings: p,
        },
        None,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let events = sim.advance_to(SimTime::from_mins(10));
    let scale_in = of(&events, "autoscale.scale_in");
    assert_eq!(scale_in.len(), 1);
    let d = &scale_in[0].details;
    assert_eq!(d["trigger"], "max_nodes");
    assert_eq!(d["minute"], 3);
    assert_eq!(d["nodes"], serde_json::json!(["g-a-3", "g-a-2"]));
    assert_eq!(
        (d["nodes_before"].as_u64(), d["nodes_after"].as_u64()),
        (Some(3), Some(1))
    );
    // Drain minute 4, TTL wait minutes 5 and 6 (90 s), deprovisioned at 7.
    assert_eq!(d["drain_until_minute"], 4);
    assert_eq!(d["ttl_wait_min"], 2);
    let removed = of(&events, "records.removed");
    assert_eq!(removed.len(), 1);
    let ips = removed[0].details["ips"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(ips.len(), 2);
    assert_ne!(ips[0], ips[1]);
    assert_eq!(
        removed[0].details["records"].as_array().map(Vec::len),
        Some(1),
        "one node left in DNS"
    );
    let gone = of(&events, "node.deprovisioned");
    assert_eq!(gone.len(), 1);
    assert_eq!(gone[0].t_ms, 7 * 60_000);
    assert_eq!(
        gone[0].details["nodes"],
        serde_json::json!(["g-a-2", "g-a-3"])
    );
    assert_eq!(
        gone[0].details["public_ips_released"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );
    for kind in ["node.detached", "node.deregistered"] {
        let e = of(&events, kind);
        assert_eq!(e.len(), 1, "{kind}");
        assert_eq!(e[0].details["nodes"], serde_json::json!(["g-a-2", "g-a-3"]));
    }
    let nodes = sim
        .autoscale()
        .group("g")
        .and_then(|g| g.zones.into_iter().find(|c| c.zone == "a"))
        .map(|c| c.nodes.into_iter().map(|n| n.id).collect::<Vec<_>>());
    assert_eq!(nodes, Some(vec!["g-a-1".to_owned()]));
    // The hour's sample counts the scale-in as one decision.
    let events = sim.advance_to(SimTime::from_mins(60));
    let sample = of(&events, "autoscale.sample");
    assert_eq!(sample.len(), 1);
    assert_eq!(sample[0].details["decisions"], serde_json::json!([1]));
    assert_eq!(sample[0].details["nodes"]["min"], serde_json::json!([1]));
    assert_eq!(sample[0].details["nodes"]["max"], serde_json::json!([3]));
    Ok(())
}

#[test]
fn the_hourly_sample_counts_decisions_and_averages_the_demand() -> Result<(), ScenarioError> {
    // 400 % of 1 node, max 3: scale-outs at 2 and 5, then at max_nodes (not a decision that
    // changes nodes).
    let mut sim = Simulation::new(&group("nlb", 1, 3, 400.0)?, 1);
    let events = sim.advance_to(SimTime::from_mins(60));
    assert_eq!(of(&events, "autoscale.scale_out").len(), 2);
    let sample = of(&events, "autoscale.sample");
    assert_eq!(sample.len(), 1);
    let d = &sample[0].details;
    assert_eq!(d["decisions"], serde_json::json!([2]));
    assert_eq!(
        (d["from_minute"].as_u64(), d["to_minute"].as_u64()),
        (Some(1), Some(60))
    );
    assert_eq!(d["demand"]["mean"], serde_json::json!([400.0]));
    assert_eq!(d["demand"]["max"], serde_json::json!([400.0]));
    assert_eq!(d["nodes"]["now"], serde_json::json!([3]));
    assert_eq!(d["nodes"]["min"], serde_json::json!([1]));
    assert_eq!(d["nodes"]["max"], serde_json::json!([3]));
    // cpu: 100 % on 1 and 2 nodes (minutes 1..=4), then 400/3 capped at 100.
    assert_eq!(d["metrics"][0]["parameter"], "cpu");
    assert_eq!(d["metrics"][0]["mean"], serde_json::json!([100.0]));
    // The next hour: no decision.
    let events = sim.advance_to(SimTime::from_mins(120));
    let sample = of(&events, "autoscale.sample");
    assert_eq!(sample.len(), 1);
    assert_eq!(sample[0].details["decisions"], serde_json::json!([0]));
    assert_eq!(sample[0].details["from_minute"], 61);
    Ok(())
}
