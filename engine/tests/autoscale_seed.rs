//! The worked example of seed 001 (SPEC §4), through the engine, in both distribution modes:
//! the demo's `asg_arn` (memory 40/85, watch 3, cooldown 10, drain 10, TTL 60 s), one tick =
//! one minute. Expected: the outcome of every minute T1..T33 and the ordered lifecycle events
//! with their minutes.

use engine::autoscale::config::DistributionMode;
use engine::autoscale::views::{ClusterState, MinuteOutcome, MinuteView, NodeState};
use engine::{Event, Scenario, ScenarioError, SimTime, Simulation};

const DEMO: &str = include_str!("../../scenarios/demo.toml");
const ZONE: &str = "eu-west-1a";

/// The demo with only `asg_arn`, in `mode`.
fn seed_scenario(mode: DistributionMode) -> Result<Scenario, ScenarioError> {
    let s = Scenario::from_toml_str(DEMO, "scenarios/demo.toml")?;
    let mut group = s
        .autoscale
        .groups
        .iter()
        .find(|g| g.name == "asg_arn")
        .cloned()
        .ok_or_else(|| ScenarioError {
            origin: "demo".into(),
            line: 0,
            column: 0,
            field: "autoscale".into(),
            message: "asg_arn missing".into(),
        })?;
    // The seed's example, as the demo spells it.
    let p = group.params();
    assert_eq!(group.zones, vec![ZONE.to_owned()]);
    assert_eq!(
        (
            p.watch_time_min,
            p.cooldown_min,
            p.drain_timeout_min,
            p.ttl_s
        ),
        (3, 10, 10, 60)
    );
    assert_eq!(p.thresholds.len(), 1);
    assert_eq!(p.thresholds[0].parameter.as_str(), "memory");
    assert_eq!((p.thresholds[0].min, p.thresholds[0].max), (40.0, 85.0));
    assert_eq!(group.noise, 0.0);
    group.mode = mode;
    let mut only = Scenario::from_toml_str("[scenario]\nname = \"seed 001\"\n", "seed.toml")?;
    only.autoscale.groups = vec![group];
    Ok(only)
}

fn skipped(reason: &str) -> MinuteOutcome {
    MinuteOutcome::Skipped {
        reason: reason.to_owned(),
    }
}

/// The expected outcome of minute `t` (1..=33).
fn expected(t: u64, mode: DistributionMode) -> MinuteOutcome {
    let dns = mode == DistributionMode::Dns;
    match t {
        1 | 4 => MinuteOutcome::AboveMax { streak: 1 },
        2 | 5 => MinuteOutcome::AboveMax { streak: 2 },
        3 => MinuteOutcome::Inside, // below 85: the streak resets
        6 => MinuteOutcome::ScaleOut { nodes: 1 },
        7..=16 => skipped("cooldown"),
        17 => MinuteOutcome::Inside,
        18 => MinuteOutcome::BelowMin { streak: 1 },
        19 => MinuteOutcome::BelowMin { streak: 2 },
        20 => MinuteOutcome::ScaleIn { nodes: 1 },
        21..=30 => skipped("drain"),
        31 if dns => skipped("ttl"),
        31 => skipped("in_progress"),
        32 if dns => skipped("in_progress"),
        _ => MinuteOutcome::Inside, // 32 (NLB), 33: evaluation starts again
    }
}

/// The expected (minute, kind) of every lifecycle and evaluation event.
fn expected_events(mode: DistributionMode) -> Vec<(u64, &'static str)> {
    let mut v = vec![
        (0, "group.started"),
        (6, "autoscale.scale_out"),
        (6, "node.provisioned"),
        (6, "node.attached"),
        (6, "node.registered"),
        (6, "records.added"),
        (7, "evaluation.skipped"),
        (17, "evaluation.resumed"),
        (20, "autoscale.scale_in"),
        (20, "records.removed"),
        (21, "evaluation.skipped"),
    ];
    let deprovision = |m| {
        [
            (m, "node.detached"),
            (m, "node.deprovisioned"),
            (m, "node.deregistered"),
            (m, "evaluation.skipped"),
            (m + 1, "evaluation.resumed"),
        ]
    };
    match mode {
        DistributionMode::Dns => {
            v.push((31, "evaluation.skipped"));
            v.extend(deprovision(32));
        }
        DistributionMode::Nlb => v.extend(deprovision(31)),
    }
    v
}

fn run(mode: DistributionMode) -> Result<(Vec<Event>, Vec<MinuteView>), ScenarioError> {
    let s = seed_scenario(mode)?;
    let mut sim = Simulation::new(&s, 1);
    let events: Vec<Event> = sim
        .advance_to(SimTime::from_mins(33))
        .into_iter()
        .filter(|e| e.engine == engine::EngineId::Autoscale)
        .collect();
    let timeline = sim
        .autoscale()
        .timeline("asg_arn", ZONE, 1000)
        .unwrap_or_default();
    Ok((events, timeline))
}

#[test]
fn every_minute_t1_to_t33_in_both_modes() -> Result<(), ScenarioError> {
    for mode in [DistributionMode::Dns, DistributionMode::Nlb] {
        let (_, timeline) = run(mode)?;
        assert_eq!(timeline.len(), 33, "{mode:?}");
        for (t, m) in (1u64..).zip(&timeline) {
            assert_eq!(m.minute, t);
            assert_eq!(m.outcome, expected(t, mode), "{mode:?} T{t}");
        }
        // Memory as the seed tells it: above 85 at T1, T2, T4-T6; below 85 at T3; below 40
        // from T18 on two nodes.
        let memory: Vec<f64> = timeline.iter().map(|m| m.metrics[0]).collect();
        assert_eq!(&memory[..6], &[90.0, 90.0, 70.0, 90.0, 90.0, 90.0]);
        assert_eq!(memory[16], 45.0, "T17 on two nodes");
        assert_eq!(&memory[17..20], &[30.0, 30.0, 30.0]);
        // Nodes in service after each minute: 1, then 2 from the scale-out at T6, then 1 from
        // the scale-in at T20 (its IPs leave DNS / the NLB at once).
        let nodes: Vec<u32> = timeline.iter().map(|m| m.nodes).collect();
        assert!(nodes[..5].iter().all(|n| *n == 1));
        assert!(nodes[5..19].iter().all(|n| *n == 2));
        assert!(nodes[19..].iter().all(|n| *n == 1));
        // States after each minute.
        let state = |t: usize| timeline[t - 1].state;
        assert_eq!(state(6), ClusterState::Cooldown);
        assert_eq!(state(16), ClusterState::Cooldown);
        assert_eq!(state(17), ClusterState::Evaluating);
        assert_eq!(state(20), ClusterState::Draining);
        assert_eq!(state(30), ClusterState::Draining);
        match mode {
            DistributionMode::Dns => {
                assert_eq!(state(31), ClusterState::TtlWait);
                assert_eq!(state(32), ClusterState::Scaling);
                assert_eq!(state(33), ClusterState::Evaluating);
            }
            DistributionMode::Nlb => {
                assert_eq!(state(31), ClusterState::Scaling);
                assert_eq!(state(32), ClusterState::Evaluating);
            }
        }
    }
    Ok(())
}

#[test]
fn lifecycle_events_in_order_in_both_modes() -> Result<(), ScenarioError> {
    for mode in [DistributionMode::Dns, DistributionMode::Nlb] {
        let (events, _) = run(mode)?;
        let got: Vec<(u64, &str)> = events
            .iter()
            .map(|e| (e.t_ms / 60_000, e.kind.as_str()))
            .collect();
        assert_eq!(got, expected_events(mode), "{mode:?}");
        assert!(events
            .iter()
            .all(|e| e.subject == "asg_arn" && e.t_ms % 60_000 == 0));
    }
    Ok(())
}

#[test]
fn decision_events_carry_their_reasons() -> Result<(), ScenarioError> {
    let (events, _) = run(DistributionMode::Dns)?;
    let find = |kind: &str, minute: u64| {
        events
            .iter()
            .find(|e| e.kind == kind && e.t_ms == minute * 60_000)
            .map(|e| e.details.value().clone())
            .unwrap_or_default()
    };
    let out = find("autoscale.scale_out", 6);
    assert_eq!(out["zone"], ZONE);
    assert_eq!(out["parameter"], "memory");
    assert_eq!(out["value"], 90.0);
    assert_eq!(out["streak"], 3);
    assert_eq!(out["watch_time_min"], 3);
    assert_eq!(out["nodes_before"], 1);
    assert_eq!(out["nodes_after"], 2);
    assert_eq!(out["max_nodes"], 4);
    assert_eq!(out["cooldown_until_minute"], 16);
    assert_eq!(out["trigger"], "threshold");
    assert_eq!(out["parameters"][0]["max"], 85.0);
    assert_eq!(
        out["reason"],
        "a parameter above its maximum (memory 90 > 85) for 3 consecutive minutes (watch \
         time 3 min): scale-out from 1 to 2 nodes (max 4); cooldown until minute 16"
    );
    let cooldown = find("evaluation.skipped", 7);
    assert_eq!(
        (
            cooldown["reason"].as_str(),
            cooldown["from_minute"].as_u64(),
            cooldown["until_minute"].as_u64()
        ),
        (Some("cooldown"), Some(7), Some(16))
    );
    let scale_in = find("autoscale.scale_in", 20);
    assert_eq!(scale_in["drain_until_minute"], 30);
    assert_eq!(scale_in["ttl_wait_min"], 1);
    assert_eq!(
        scale_in["nodes"][0], "asg_arn-eu-west-1a-2",
        "the newest node leaves"
    );
    assert_eq!(scale_in["min_nodes"], 1);
    assert_eq!(
        scale_in["reason"],
        "every parameter below its minimum (memory 30 < 40) for 3 consecutive minutes (watch \
         time 3 min): scale-in from 2 to 1 nodes (min 1); IPs removed, connections drain until \
         minute 30, then a DNS TTL wait of 1 min"
    );
    let removed = find("records.removed", 20);
    assert_eq!(removed["mode"], "dns");
    assert_eq!(removed["ips"].as_array().map(Vec::len), Some(1));
    assert_eq!(removed["records"].as_array().map(Vec::len), Some(1));
    let drain = find("evaluation.skipped", 21);
    assert_eq!(
        (drain["reason"].as_str(), drain["until_minute"].as_u64()),
        (Some("drain"), Some(30))
    );
    let ttl = find("evaluation.skipped", 31);
    assert_eq!(
        (ttl["reason"].as_str(), ttl["until_minute"].as_u64()),
        (Some("ttl"), Some(31))
    );
    let released = find("node.deprovisioned", 32);
    assert_eq!(released["nodes"][0], "asg_arn-eu-west-1a-2");
    assert_eq!(
        released["public_ips_released"].as_array().map(Vec::len),
        Some(1)
    );
    let resumed = find("evaluation.resumed", 33);
    assert_eq!(resumed["after"], "in_progress");
    Ok(())
}

#[test]
fn node_states_during_the_scale_in() -> Result<(), ScenarioError> {
    let s = seed_scenario(DistributionMode::Dns)?;
    let mut sim = Simulation::new(&s, 1);
    let states = |sim: &Simulation| -> Vec<NodeState> {
        sim.autoscale()
            .group("asg_arn")
            .map(|g| g.zones[0].nodes.iter().map(|n| n.state).collect())
            .unwrap_or_default()
    };
    sim.advance_to(SimTime::from_mins(20));
    assert_eq!(
        states(&sim),
        vec![NodeState::InService, NodeState::Draining]
    );
    let g = sim.autoscale().group("asg_arn");
    let z = g.as_ref().map(|g| g.zones[0].clone());
    assert_eq!(z.as_ref().map(|z| z.state), Some(ClusterState::Draining));
    assert_eq!(z.as_ref().and_then(|z| z.state_until_minute), Some(30));
    assert_eq!(z.as_ref().map(|z| z.nodes_in_service), Some(1));
    assert_eq!(
        z.as_ref()
            .and_then(|z| z.records.dns.as_ref().map(|d| d.1.len())),
        Some(1),
        "the draining node's IP left DNS"
    );
    sim.advance_to(SimTime::from_mins(31));
    assert_eq!(states(&sim), vec![NodeState::InService, NodeState::TtlWait]);
    sim.advance_to(SimTime::from_mins(32));
    assert_eq!(states(&sim), vec![NodeState::InService]);
    Ok(())
}
