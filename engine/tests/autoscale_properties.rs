//! Properties of the autoscale engine over random groups, workloads, load injections and
//! releases: node count within [min, max]; no decision inside a cooldown, drain or TTL wait;
//! no scale-in while any parameter is at or above its minimum, no scale-out without a breach
//! of the watch time; same seed ⇒ same events, however time is advanced.

use engine::autoscale::config::{DistributionMode, GroupConfig, Metric, ThresholdConfig, Workload};
use engine::autoscale::views::{MinuteOutcome, MinuteView, NodeState};
use engine::{AutoscaleAction, Scenario, SimTime, Simulation, TimedAction};
use proptest::collection::vec;
use proptest::prelude::{
    any, prop_assert, prop_assert_eq, prop_oneof, proptest, Just, ProptestConfig, Strategy,
};

const MINUTES: u64 = 400;

fn threshold() -> impl Strategy<Value = ThresholdConfig> {
    (
        prop_oneof![
            Just(Metric::Cpu),
            Just(Metric::Memory),
            Just(Metric::Throughput)
        ],
        0.0..60.0f64,
        5.0..60.0f64,
    )
        .prop_map(|(parameter, min, width)| {
            let scale = if parameter == Metric::Throughput {
                5.0
            } else {
                1.0
            };
            ThresholdConfig {
                parameter,
                min: min * scale,
                max: (min + width).min(100.0) * scale,
            }
        })
}

fn group() -> impl Strategy<Value = GroupConfig> {
    (
        (1u32..4, 0u32..4, 1u32..5, 0u32..8, 0u32..8, 0u32..200),
        any::<bool>(),
        vec(threshold(), 1..4),
        vec(0.0..250.0f64, 1..80),
        prop_oneof![Just(0.0), 0.0..10.0f64],
        1usize..3,
    )
        .prop_map(
            |(
                (min, extra, watch, cooldown, drain, ttl),
                dns,
                mut thresholds,
                values,
                noise,
                zones,
            )| {
                thresholds.sort_by_key(|t| t.parameter.as_str());
                thresholds.dedup_by_key(|t| t.parameter);
                GroupConfig {
                    name: "g".into(),
                    mode: if dns {
                        DistributionMode::Dns
                    } else {
                        DistributionMode::Nlb
                    },
                    domain: None,
                    deployed: true,
                    zones: (0..zones).map(|z| format!("z{z}")).collect(),
                    min_nodes: min,
                    max_nodes: min + extra,
                    watch_time_min: watch,
                    cooldown_min: cooldown,
                    drain_timeout_min: drain,
                    ttl_s: ttl,
                    thresholds,
                    workload: Workload::Trace { values },
                    noise,
                    node_mbps: 500.0,
                }
            },
        )
}

fn injections() -> impl Strategy<Value = Vec<TimedAction>> {
    vec(
        (
            1u64..MINUTES * 60,
            0.0..330.0f64,
            proptest::option::of(1u32..60),
        ),
        0..6,
    )
    .prop_map(|v| {
        v.into_iter()
            .map(|(at_s, level, duration_min)| TimedAction {
                at: SimTime::from_secs(at_s),
                actor: Some("prop".into()),
                // About one in eleven hands the demand back to the workload model (rejected
                // as `action.rejected` when nothing is injected).
                action: if level >= 300.0 {
                    AutoscaleAction::LoadRelease {
                        group: "g".into(),
                        zone: None,
                    }
                    .into()
                } else {
                    AutoscaleAction::LoadInject {
                        group: "g".into(),
                        zone: None,
                        level,
                        duration_min,
                    }
                    .into()
                },
            })
            .collect()
    })
}

fn scenario(g: GroupConfig, actions: Vec<TimedAction>) -> Option<Scenario> {
    let mut s = Scenario::from_toml_str("[scenario]\nname = \"p\"\n", "p.toml").ok()?;
    s.autoscale.groups = vec![g];
    s.actions = actions;
    s.validate().ok()?;
    Some(s)
}

fn is_decision(o: &MinuteOutcome) -> bool {
    matches!(
        o,
        MinuteOutcome::ScaleOut { .. } | MinuteOutcome::ScaleIn { .. }
    )
}

/// Checks the rules on one zone's timeline.
fn check(g: &GroupConfig, tl: &[MinuteView]) -> Result<(), String> {
    let ttl_wait = if g.mode == DistributionMode::Dns {
        u64::from(g.ttl_s).div_ceil(60)
    } else {
        0
    };
    let mut last: Option<(u64, &MinuteOutcome)> = None;
    for (i, m) in tl.iter().enumerate() {
        if m.nodes < g.min_nodes || m.nodes > g.max_nodes {
            return Err(format!(
                "minute {}: {} nodes outside [{}, {}]",
                m.minute, m.nodes, g.min_nodes, g.max_nodes
            ));
        }
        let above = |m: &MinuteView| m.metrics.iter().zip(&g.thresholds).any(|(v, t)| *v > t.max);
        let below = |m: &MinuteView| m.metrics.iter().zip(&g.thresholds).all(|(v, t)| *v < t.min);
        let watch = g.watch_time_min as usize;
        match &m.outcome {
            MinuteOutcome::ScaleIn { .. } => {
                if !below(m) {
                    return Err(format!(
                        "minute {}: scale-in with a parameter not below its minimum: {:?}",
                        m.minute, m.metrics
                    ));
                }
                if i + 1 >= watch && !tl[i + 1 - watch..=i].iter().all(below) {
                    return Err(format!(
                        "minute {}: scale-in before the watch time",
                        m.minute
                    ));
                }
            }
            MinuteOutcome::ScaleOut { .. } => {
                if !above(m) {
                    return Err(format!("minute {}: scale-out without a breach", m.minute));
                }
                if i + 1 >= watch && !tl[i + 1 - watch..=i].iter().all(above) {
                    return Err(format!(
                        "minute {}: scale-out before the watch time",
                        m.minute
                    ));
                }
            }
            _ => {}
        }
        if is_decision(&m.outcome) {
            if let Some((at, prev)) = last {
                let quiet = match prev {
                    MinuteOutcome::ScaleOut { .. } => u64::from(g.cooldown_min),
                    _ => u64::from(g.drain_timeout_min) + ttl_wait + 1,
                };
                if m.minute <= at + quiet {
                    return Err(format!(
                        "minute {}: decision {} min after {prev:?} at {at}",
                        m.minute,
                        m.minute - at
                    ));
                }
            }
            last = Some((m.minute, &m.outcome));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn decisions_follow_the_rules(g in group(), actions in injections(), seed in any::<u64>()) {
        let Some(s) = scenario(g.clone(), actions) else {
            return Ok(());
        };
        let mut sim = Simulation::new(&s, seed);
        let events = sim.advance_to(SimTime::from_mins(MINUTES));
        // Only a release with nothing to release may be refused.
        prop_assert!(events
            .iter()
            .filter(|e| e.kind == "action.rejected")
            .all(|e| e.details["action"] == "load_release"
                && e.details["error"].as_str().is_some_and(|m| m.contains("no injected load"))));
        for z in &g.zones {
            let tl = sim.autoscale().timeline("g", z, u32::MAX).unwrap_or_default();
            prop_assert_eq!(tl.len() as u64, MINUTES);
            let checked = check(&g, &tl);
            prop_assert!(checked.is_ok(), "{:?}", checked);
        }
        for view in sim.autoscale().groups() {
            for z in view.zones {
                let n = z.nodes_in_service;
                prop_assert!(n >= g.min_nodes && n <= g.max_nodes);
                let in_service = z.nodes.iter().filter(|n| n.state == NodeState::InService).count();
                prop_assert_eq!(in_service as u32, n);
            }
        }
        // Decisions are events; skipped minutes come as one event per window.
        let decisions = events
            .iter()
            .filter(|e| e.kind == "autoscale.scale_out" || e.kind == "autoscale.scale_in")
            .count();
        let minutes: usize = g
            .zones
            .iter()
            .map(|z| {
                let tl = sim.autoscale().timeline("g", z, u32::MAX).unwrap_or_default();
                tl.iter().filter(|m| is_decision(&m.outcome)).count()
            })
            .sum();
        prop_assert_eq!(decisions, minutes);
    }

    #[test]
    fn same_seed_same_events(
        g in group(),
        actions in injections(),
        seed in any::<u64>(),
        cuts in vec(0u64..MINUTES * 60_000, 0..8),
    ) {
        let Some(s) = scenario(g, actions) else {
            return Ok(());
        };
        let lines = |events: Vec<engine::Event>| {
            events.iter().map(engine::Event::to_json_line).collect::<Vec<_>>()
        };
        let end = SimTime::from_mins(MINUTES);
        let whole = lines(Simulation::new(&s, seed).advance_to(end));
        prop_assert_eq!(&whole, &lines(Simulation::new(&s, seed).advance_to(end)));
        let mut cuts = cuts;
        cuts.sort_unstable();
        let mut sim = Simulation::new(&s, seed);
        let mut pieces = Vec::new();
        for cut in cuts.into_iter().chain([MINUTES * 60_000]) {
            pieces.extend(lines(sim.advance_to(SimTime(cut))));
        }
        prop_assert_eq!(whole, pieces);
    }
}

#[test]
fn noise_depends_on_the_seed_only() {
    let g = GroupConfig {
        name: "g".into(),
        mode: DistributionMode::Nlb,
        domain: None,
        deployed: true,
        zones: vec!["a".into()],
        min_nodes: 1,
        max_nodes: 3,
        watch_time_min: 2,
        cooldown_min: 2,
        drain_timeout_min: 2,
        ttl_s: 60,
        thresholds: vec![ThresholdConfig {
            parameter: Metric::Cpu,
            min: 20.0,
            max: 80.0,
        }],
        workload: Workload::Constant { level: 50.0 },
        noise: 5.0,
        node_mbps: 500.0,
    };
    let Some(s) = scenario(g, Vec::new()) else {
        panic!("valid");
    };
    let demand = |seed: u64| {
        let mut sim = Simulation::new(&s, seed);
        sim.advance_to(SimTime::from_mins(30));
        sim.autoscale()
            .timeline("g", "a", 30)
            .unwrap_or_default()
            .iter()
            .map(|m| m.demand)
            .collect::<Vec<f64>>()
    };
    assert_eq!(demand(1), demand(1));
    assert_ne!(demand(1), demand(2));
    assert!(demand(1).iter().all(|d| (45.0..=55.0).contains(d)));
}
