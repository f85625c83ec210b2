//! The autoscale engine through the simulation: operator actions (validation tables with exact
//! messages, nothing changed on error), application deploy/remove, distribution switch,
//! settings, load injection, the what-if, the timeline bound, CSV traces, file errors.

use engine::autoscale::config::{
    parse_metrics_csv, DistributionMode, GroupParams, Metric, ThresholdConfig, Workload,
};
use engine::autoscale::views::{ClusterState, MinuteOutcome, NodeState};
use engine::{
    parse_actions, ActionError, AutoscaleAction, Event, Scenario, ScenarioError, SimTime,
    Simulation,
};

const DEMO: &str = include_str!("../../scenarios/demo.toml");

/// A scenario with `groups` (TOML of `[[autoscale.groups]]` tables).
fn scenario(groups: &str) -> Result<Scenario, ScenarioError> {
    Scenario::from_toml_str(&format!("[scenario]\nname = \"t\"\n{groups}"), "t.toml")
}

/// One group `g`, two zones, cpu 25/75, constant demand `level` (percent of 2 nodes).
fn flat(mode: &str, level: f64) -> String {
    format!(
        r#"
[[autoscale.groups]]
name = "g"
mode = "{mode}"
zones = ["a", "b"]
min_nodes = 2
max_nodes = 4
watch_time_min = 2
cooldown_min = 3
drain_timeout_min = 2
ttl_s = 30

[[autoscale.groups.thresholds]]
parameter = "cpu"
min = 25
max = 75

[autoscale.groups.workload]
profile = "constant"
level = {level}
"#
    )
}

fn demo() -> Result<Simulation, ScenarioError> {
    let s = Scenario::from_toml_str(DEMO, "demo.toml")?;
    Ok(Simulation::new(&s, s.seed()))
}

fn kinds(events: &[Event]) -> Vec<&str> {
    events.iter().map(|e| e.kind.as_str()).collect()
}

#[test]
fn group_settings_validation_table() -> Result<(), ScenarioError> {
    let mut sim = demo()?;
    sim.advance_to(SimTime::from_mins(30));
    let with = |f: &dyn Fn(&mut GroupParams)| {
        let mut p = GroupParams::seed_example();
        f(&mut p);
        p
    };
    let thr = |parameter, min, max| ThresholdConfig {
        parameter,
        min,
        max,
    };
    let cases: Vec<(&str, GroupParams, &str)> = vec![
        (
            "asg_arn",
            with(&|p| p.thresholds[0] = thr(Metric::Memory, 85.0, 40.0)),
            "settings: settings.thresholds[0].max: must be greater than min (85); got 40",
        ),
        (
            "asg_arn",
            with(&|p| p.thresholds[0] = thr(Metric::Memory, 50.0, 50.0)),
            "settings: settings.thresholds[0].max: must be greater than min (50); got 50",
        ),
        (
            "asg_arn",
            with(&|p| p.watch_time_min = 0),
            "settings: settings.watch_time_min: must be between 1 and 1440 (minutes); got 0",
        ),
        (
            "asg_arn",
            with(&|p| {
                p.min_nodes = 5;
                p.max_nodes = 3;
            }),
            "settings: settings.max_nodes: must be at least min_nodes (5); got 3",
        ),
        (
            "asg_arn",
            with(&|p| p.min_nodes = 0),
            "settings: settings.min_nodes: must be between 1 and 32; got 0",
        ),
        (
            "asg_arn",
            with(&|p| p.max_nodes = 40),
            "settings: settings.max_nodes: must be at most 32 (nodes of one ADC cluster); got 40",
        ),
        (
            "asg_arn",
            with(&|p| p.thresholds[0] = thr(Metric::Cpu, 10.0, 120.0)),
            "settings: settings.thresholds[0].max: must be between 0 and 100 (percent); got 120",
        ),
        (
            "asg_arn",
            with(&|p| p.thresholds.push(thr(Metric::Throughput, -5.0, 800.0))),
            "settings: settings.thresholds[1].min: must not be negative; got -5",
        ),
        (
            "asg_arn",
            with(&|p| p.thresholds.push(thr(Metric::Memory, 10.0, 20.0))),
            "settings: settings.thresholds[1].parameter: duplicate threshold parameter \"memory\" \
             (first defined at settings.thresholds[0].parameter)",
        ),
        (
            "asg_arn",
            with(&|p| p.thresholds.clear()),
            "settings: settings.thresholds: needs at least one threshold",
        ),
        (
            "asg_arn",
            with(&|p| p.thresholds[0] = thr(Metric::Memory, 10.0, f64::NAN)),
            "settings: settings.thresholds[0].max: must be a finite number; got NaN",
        ),
        (
            "asg_arn",
            with(&|p| p.cooldown_min = 20_000),
            "settings: settings.cooldown_min: must be between 0 and 10080 (minutes); got 20000",
        ),
        (
            "asg_arn",
            with(&|p| p.ttl_s = 100_000),
            "settings: settings.ttl_s: must be between 0 and 86400 (seconds); got 100000",
        ),
        (
            "nope",
            GroupParams::seed_example(),
            "unknown autoscale group \"nope\" (known: asg_arn, asg_web)",
        ),
        (
            "asg_arn",
            GroupParams::seed_example(),
            "the settings of group \"asg_arn\" are unchanged",
        ),
    ];
    for (group, settings, message) in cases {
        let before = sim.autoscale().groups();
        let action = AutoscaleAction::GroupSettings {
            group: group.to_owned(),
            settings: settings.clone(),
        };
        let err = sim
            .apply_now(action, Some("alice".into()))
            .map_err(|e| e.to_string());
        assert_eq!(err.err().as_deref(), Some(message));
        assert_eq!(
            sim.autoscale().groups(),
            before,
            "{message}: nothing changed"
        );
        if message.starts_with("settings:") {
            let what_if = sim.autoscale().what_if(group, &settings, 1);
            assert_eq!(
                what_if.map_err(|e| e.to_string()).err().as_deref(),
                Some(message),
                "the what-if refuses with the same message"
            );
        }
    }
    // The next minutes go on as if nothing had been tried.
    let mut control = demo()?;
    assert_eq!(sim.advance_to(SimTime::from_mins(120)), {
        control.advance_to(SimTime::from_mins(30));
        control.advance_to(SimTime::from_mins(120))
    });
    Ok(())
}

#[test]
fn other_action_validation_table() -> Result<(), ScenarioError> {
    let mut sim = demo()?;
    sim.advance_to(SimTime::from_mins(5));
    let inject = |group: &str, zone: Option<&str>, level: f64, duration_min: Option<u32>| {
        AutoscaleAction::LoadInject {
            group: group.into(),
            zone: zone.map(str::to_owned),
            level,
            duration_min,
        }
    };
    let level_msg = |got: &str| {
        format!(
            "level: must be a finite number between 0 and 1000 (percent of the capacity of \
             min_nodes nodes); got {got}"
        )
    };
    let cases: Vec<(AutoscaleAction, String)> = vec![
        (inject("asg_arn", None, f64::NAN, Some(5)), level_msg("NaN")),
        (
            inject("asg_arn", None, f64::INFINITY, None),
            level_msg("inf"),
        ),
        (inject("asg_arn", None, 1e9, None), level_msg("1000000000")),
        (inject("asg_arn", None, -1.0, None), level_msg("-1")),
        (
            inject("asg_arn", None, 90.0, Some(0)),
            "duration_min: must be between 1 and 10080 (minutes; leave it out for a lasting \
             step); got 0"
                .into(),
        ),
        (
            inject("asg_arn", None, 90.0, Some(20_000)),
            "duration_min: must be between 1 and 10080 (minutes; leave it out for a lasting \
             step); got 20000"
                .into(),
        ),
        (
            inject("asg_arn", Some("mars-1a"), 90.0, None),
            "unknown availability zone \"mars-1a\" (known: eu-west-1a)".into(),
        ),
        (
            inject("nope", None, 90.0, None),
            "unknown autoscale group \"nope\" (known: asg_arn, asg_web)".into(),
        ),
        (
            AutoscaleAction::AppDeploy {
                group: "asg_arn".into(),
            },
            "the application of group \"asg_arn\" is already deployed".into(),
        ),
        (
            AutoscaleAction::DistributionSwitch {
                group: "asg_web".into(),
                mode: DistributionMode::Nlb,
            },
            "group \"asg_web\" already distributes its traffic with NLB".into(),
        ),
        (
            AutoscaleAction::AppRemove {
                group: "missing".into(),
            },
            "unknown autoscale group \"missing\" (known: asg_arn, asg_web)".into(),
        ),
    ];
    for (action, message) in cases {
        let before = sim.autoscale().groups();
        let err = sim.apply_now(action, None).map_err(|e| e.to_string());
        assert_eq!(err.err(), Some(message.clone()));
        assert_eq!(
            sim.autoscale().groups(),
            before,
            "{message}: nothing changed"
        );
    }
    let remove = AutoscaleAction::AppRemove {
        group: "asg_arn".into(),
    };
    assert!(sim.apply_now(remove.clone(), None).is_ok());
    assert_eq!(
        sim.apply_now(remove, None)
            .map_err(|e| e.to_string())
            .err()
            .as_deref(),
        Some("the application of group \"asg_arn\" is not deployed")
    );
    let err = sim
        .autoscale()
        .what_if("asg_arn", &GroupParams::seed_example(), 0);
    assert_eq!(
        err.map_err(|e| e.to_string()).err().as_deref(),
        Some("hours: must be between 1 and 168 (the history kept); got 0")
    );
    assert!(matches!(
        sim.autoscale()
            .what_if("x", &GroupParams::seed_example(), 1),
        Err(ActionError::Unknown { field: "group", .. })
    ));
    Ok(())
}

#[test]
fn deploy_and_remove_move_the_records() -> Result<(), ScenarioError> {
    let s = scenario(&flat("dns", 50.0))?;
    let mut sim = Simulation::new(&s, 3);
    sim.advance_to(SimTime::from_mins(3));
    let removed = sim
        .apply_now(
            AutoscaleAction::AppRemove { group: "g".into() },
            Some("bob".into()),
        )
        .map_err(|e| ScenarioError {
            origin: String::new(),
            line: 0,
            column: 0,
            field: String::new(),
            message: e.to_string(),
        })?;
    assert_eq!(
        kinds(&removed),
        vec![
            "app.removed",
            "records.unregistered",
            "ipset.deleted",
            "records.unregistered",
            "ipset.deleted"
        ]
    );
    assert!(removed.iter().all(|e| e.actor.as_deref() == Some("bob")));
    assert_eq!(removed[1].details["ips"].as_array().map(Vec::len), Some(2));
    let g = sim.autoscale().group("g");
    let z = g.as_ref().map(|g| g.zones[0].clone());
    assert_eq!(g.as_ref().map(|g| g.deployed), Some(false));
    assert_eq!(z.as_ref().map(|z| z.state), Some(ClusterState::Idle));
    assert_eq!(
        z.as_ref()
            .map(|z| z.records.ipset.is_none() && z.records.dns.is_none()),
        Some(true)
    );
    // Idle minutes: no traffic, no evaluation, no event.
    let idle = sim.advance_to(SimTime::from_mins(10));
    assert!(idle.is_empty(), "{:?}", kinds(&idle));
    let tl = sim.autoscale().timeline("g", "a", 7).unwrap_or_default();
    assert!(tl
        .iter()
        .all(|m| m.outcome == MinuteOutcome::Idle && m.metrics == vec![0.0]));
    let deployed = sim
        .apply_now(AutoscaleAction::AppDeploy { group: "g".into() }, None)
        .unwrap_or_default();
    assert_eq!(
        kinds(&deployed),
        vec![
            "app.deployed",
            "ipset.created",
            "records.registered",
            "ipset.created",
            "records.registered"
        ]
    );
    assert_eq!(deployed[2].details["domain"], "g.example.com");
    let z = sim.autoscale().group("g").map(|g| g.zones[1].clone());
    let dns = z.as_ref().and_then(|z| z.records.dns.clone());
    assert_eq!(
        dns.as_ref().map(|d| (d.0.as_str(), d.1.len(), d.2)),
        Some(("g.example.com", 2, 30))
    );
    assert_eq!(
        z.as_ref().and_then(|z| z.records.ipset.clone()).as_deref(),
        Some("g-ipset")
    );
    sim.advance_to(SimTime::from_mins(11));
    let tl = sim.autoscale().timeline("g", "a", 1).unwrap_or_default();
    assert_eq!(
        tl.first().map(|m| m.outcome.clone()),
        Some(MinuteOutcome::Inside)
    );
    assert_eq!(tl.first().map(|m| m.metrics.clone()), Some(vec![50.0]));
    Ok(())
}

#[test]
fn distribution_switch_allocates_and_releases_public_ips() -> Result<(), ScenarioError> {
    let s = scenario(&flat("dns", 50.0))?;
    let mut sim = Simulation::new(&s, 3);
    sim.advance_to(SimTime::from_mins(2));
    let public = |sim: &Simulation| -> Vec<Option<String>> {
        sim.autoscale()
            .group("g")
            .map(|g| {
                g.zones
                    .iter()
                    .flat_map(|z| z.nodes.iter().map(|n| n.public_ip.clone()))
                    .collect()
            })
            .unwrap_or_default()
    };
    assert!(public(&sim).iter().all(Option::is_some));
    let to_nlb = AutoscaleAction::DistributionSwitch {
        group: "g".into(),
        mode: DistributionMode::Nlb,
    };
    let events = sim.apply_now(to_nlb, None).unwrap_or_default();
    assert_eq!(kinds(&events), vec!["distribution.switched"]);
    let d = &events[0].details;
    assert_eq!(
        (d["from"].as_str(), d["to"].as_str()),
        (Some("dns"), Some("nlb"))
    );
    assert_eq!(
        d["public_ips_allocated"].as_array().map(Vec::len),
        Some(2),
        "one NLB IP per zone"
    );
    assert_eq!(
        d["public_ips_released"].as_array().map(Vec::len),
        Some(4),
        "one per node"
    );
    assert!(d["consequences"].as_array().is_some_and(|c| c.len() >= 3));
    assert!(public(&sim).iter().all(Option::is_none));
    let g = sim.autoscale().group("g");
    let z = g.as_ref().map(|g| g.zones[0].records.clone());
    assert_eq!(z.as_ref().map(|r| r.mode), Some(DistributionMode::Nlb));
    assert_eq!(z.as_ref().map(|r| r.dns.is_none()), Some(true));
    assert_eq!(
        z.as_ref().and_then(|r| r.nlb.as_ref().map(|n| n.1.len())),
        Some(2)
    );
    let back = AutoscaleAction::DistributionSwitch {
        group: "g".into(),
        mode: DistributionMode::Dns,
    };
    let events = sim.apply_now(back, None).unwrap_or_default();
    let d = &events[0].details;
    assert_eq!(d["public_ips_allocated"].as_array().map(Vec::len), Some(4));
    assert_eq!(d["public_ips_released"].as_array().map(Vec::len), Some(2));
    assert!(public(&sim).iter().all(Option::is_some));
    Ok(())
}

#[test]
fn load_injection_spike_and_step() -> Result<(), ScenarioError> {
    let s = scenario(&flat("nlb", 50.0))?;
    let mut sim = Simulation::new(&s, 3);
    sim.advance_to(SimTime::from_mins(10));
    // A spike on zone a only: 90 % of 2 nodes for 4 minutes, from minute 11.
    let spike = AutoscaleAction::LoadInject {
        group: "g".into(),
        zone: Some("a".into()),
        level: 90.0,
        duration_min: Some(4),
    };
    let ev = sim
        .apply_now(spike, Some("carol".into()))
        .unwrap_or_default();
    assert_eq!(ev[0].kind, "load.injected");
    assert_eq!(ev[0].details["from_minute"], 11);
    assert_eq!(ev[0].details["until_minute"], 14);
    let events = sim.advance_to(SimTime::from_mins(20));
    let out: Vec<&Event> = events
        .iter()
        .filter(|e| e.kind == "autoscale.scale_out")
        .collect();
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].t_ms, 12 * 60_000, "watch time 2: minutes 11 and 12");
    assert_eq!(out[0].details["zone"], "a");
    let tl = sim.autoscale().timeline("g", "a", 10).unwrap_or_default();
    let demand: Vec<f64> = tl.iter().map(|m| m.demand).collect();
    assert_eq!(
        demand,
        vec![90.0, 90.0, 90.0, 90.0, 50.0, 50.0, 50.0, 50.0, 50.0, 50.0]
    );
    assert_eq!(tl[2].metrics, vec![60.0], "90 % of two nodes over three");
    // A past range: the minutes that end with minute 14, the injected ones among them.
    let past = sim
        .autoscale()
        .timeline_until("g", "a", 4, 14)
        .unwrap_or_default();
    let minutes: Vec<u64> = past.iter().map(|m| m.minute).collect();
    assert_eq!(minutes, vec![11, 12, 13, 14]);
    assert!(past.iter().all(|m| m.demand == 90.0));
    assert_eq!(
        sim.autoscale().timeline_until("g", "a", 10, u64::MAX),
        Some(tl.clone()),
        "the open end is the last recorded minute"
    );
    assert_eq!(
        sim.autoscale()
            .timeline_until("g", "a", 10, 0)
            .map(|t| t.iter().all(|m| m.minute == 0)),
        Some(true),
        "nothing past the asked end"
    );
    let b = sim.autoscale().timeline("g", "b", 10).unwrap_or_default();
    assert!(b.iter().all(|m| m.demand == 50.0));
    // A lasting step on every zone.
    let step = AutoscaleAction::LoadInject {
        group: "g".into(),
        zone: None,
        level: 10.0,
        duration_min: None,
    };
    let ev = sim.apply_now(step, None).unwrap_or_default();
    assert!(ev[0].details["until_minute"].is_null());
    sim.advance_to(SimTime::from_mins(200));
    let views = sim
        .autoscale()
        .group("g")
        .map(|g| g.zones)
        .unwrap_or_default();
    assert!(
        views.iter().all(|z| z.nodes_in_service == 2),
        "back to min_nodes"
    );
    let tl = sim.autoscale().timeline("g", "b", 1).unwrap_or_default();
    assert_eq!(tl.first().map(|m| m.demand), Some(10.0));
    Ok(())
}

#[test]
fn releasing_injected_load_hands_the_demand_back_to_the_workload() -> Result<(), ScenarioError> {
    let s = scenario(&flat("nlb", 50.0))?;
    let mut sim = Simulation::new(&s, 3);
    sim.advance_to(SimTime::from_mins(10));
    let release = |zone: Option<&str>| AutoscaleAction::LoadRelease {
        group: "g".into(),
        zone: zone.map(str::to_owned),
    };
    assert!(
        matches!(
            sim.apply_now(release(None), None),
            Err(ActionError::NoChange(_))
        ),
        "nothing injected yet"
    );
    let step = AutoscaleAction::LoadInject {
        group: "g".into(),
        zone: None,
        level: 10.0,
        duration_min: None,
    };
    sim.apply_now(step, None).unwrap_or_default();
    let injected = |sim: &Simulation| -> Vec<Option<String>> {
        sim.autoscale()
            .group("g")
            .map(|g| g.zones)
            .unwrap_or_default()
            .into_iter()
            .map(|z| {
                z.injected
                    .map(|i| format!("{} {} {}", i.kind, i.level, i.from_minute))
            })
            .collect()
    };
    let step_both = vec![Some("step 10 11".to_owned()), Some("step 10 11".to_owned())];
    assert_eq!(injected(&sim), step_both);
    sim.advance_to(SimTime::from_mins(20));

    let ev = sim
        .apply_now(release(Some("a")), Some("erin".into()))
        .unwrap_or_default();
    assert_eq!(kinds(&ev), vec!["load.released"]);
    assert_eq!(ev[0].actor.as_deref(), Some("erin"));
    assert_eq!(ev[0].details["from_minute"], 21);
    assert_eq!(
        ev[0].details["released"],
        serde_json::json!([{"kind": "step", "level": 10.0, "zone": "a"}])
    );
    assert_eq!(injected(&sim), vec![None, Some("step 10 11".to_owned())]);
    assert!(
        matches!(
            sim.apply_now(release(Some("a")), None),
            Err(ActionError::NoChange(_))
        ),
        "zone a already follows its workload"
    );
    assert!(matches!(
        sim.apply_now(release(Some("mars")), None),
        Err(ActionError::Unknown { field: "zone", .. })
    ));
    sim.advance_to(SimTime::from_mins(30));
    let last = |sim: &Simulation, zone: &str| {
        sim.autoscale()
            .timeline("g", zone, 1)
            .and_then(|t| t.first().map(|m| m.demand))
    };
    assert_eq!(
        last(&sim, "a"),
        Some(50.0),
        "zone a follows the workload again"
    );
    assert_eq!(last(&sim, "b"), Some(10.0), "zone b keeps its step");

    // A spike over the step shows while it lasts; the step shows again after it.
    let spike = AutoscaleAction::LoadInject {
        group: "g".into(),
        zone: Some("b".into()),
        level: 70.0,
        duration_min: Some(2),
    };
    sim.apply_now(spike, None).unwrap_or_default();
    assert_eq!(injected(&sim)[1].as_deref(), Some("spike 70 31"));
    sim.advance_to(SimTime::from_mins(33));
    assert_eq!(injected(&sim)[1].as_deref(), Some("step 10 11"));
    let ev = sim.apply_now(release(None), None).unwrap_or_default();
    assert_eq!(
        ev[0].details["released"],
        serde_json::json!([{"kind": "step", "level": 10.0, "zone": "b"}]),
        "only zones with an injection are named"
    );
    sim.advance_to(SimTime::from_mins(40));
    assert_eq!(last(&sim, "b"), Some(50.0));
    assert_eq!(injected(&sim), vec![None, None]);
    Ok(())
}

#[test]
fn settings_apply_from_the_next_minute_and_restore_the_bounds() -> Result<(), ScenarioError> {
    let s = scenario(&flat("nlb", 50.0))?;
    let mut sim = Simulation::new(&s, 3);
    sim.advance_to(SimTime::from_mins(5));
    let mut p = s.autoscale.groups[0].params();
    p.min_nodes = 3;
    p.cooldown_min = 1;
    let ev = sim
        .apply_now(
            AutoscaleAction::GroupSettings {
                group: "g".into(),
                settings: p.clone(),
            },
            Some("dave".into()),
        )
        .unwrap_or_default();
    assert_eq!(kinds(&ev), vec!["group.settings"]);
    assert_eq!(ev[0].details["from_minute"], 6);
    assert_eq!(
        ev[0].details["changed"],
        serde_json::json!(["min_nodes", "cooldown_min"])
    );
    assert_eq!(sim.autoscale().group("g").map(|g| g.params), Some(p));
    let events = sim.advance_to(SimTime::from_mins(6));
    let out: Vec<&Event> = events
        .iter()
        .filter(|e| e.kind == "autoscale.scale_out")
        .collect();
    assert_eq!(out.len(), 2, "one per zone");
    assert_eq!(out[0].details["trigger"], "min_nodes");
    assert_eq!(out[0].details["nodes_after"], 3);
    let tl = sim.autoscale().timeline("g", "a", 1).unwrap_or_default();
    assert_eq!(
        tl.first().map(|m| m.outcome.clone()),
        Some(MinuteOutcome::ScaleOut { nodes: 1 })
    );
    Ok(())
}

#[test]
fn at_limit_is_reported_once_per_breach() -> Result<(), ScenarioError> {
    let s = scenario(&flat("nlb", 400.0))?;
    let mut sim = Simulation::new(&s, 3);
    let events = sim.advance_to(SimTime::from_mins(120));
    let a: Vec<&Event> = events
        .iter()
        .filter(|e| e.details["zone"] == "a" && e.kind.starts_with("autoscale."))
        .collect();
    let k: Vec<&str> = a.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(
        k,
        vec![
            "autoscale.scale_out",
            "autoscale.scale_out",
            "autoscale.at_limit"
        ]
    );
    assert_eq!(a[2].details["limit"], "max_nodes");
    assert!(a[2].details["reason"]
        .as_str()
        .is_some_and(|r| r.contains("already has max_nodes (4) nodes")));
    let tl = sim.autoscale().timeline("g", "a", 60).unwrap_or_default();
    assert!(tl.iter().any(|m| m.outcome == MinuteOutcome::AtLimit));
    assert!(tl.iter().all(|m| m.nodes == 4));
    // 120 minutes: two hourly samples per group.
    assert_eq!(
        events
            .iter()
            .filter(|e| e.kind == "autoscale.sample")
            .count(),
        2
    );
    Ok(())
}

#[test]
fn what_if_replays_recorded_demand() -> Result<(), ScenarioError> {
    let mut sim = demo()?;
    sim.advance_to(SimTime::from_mins(24 * 60 + 17));
    let real = sim.autoscale().group("asg_web").map(|g| g.params);
    let Some(real) = real else {
        panic!("asg_web exists");
    };
    // Same parameters: the replay is what happened.
    let same = sim.autoscale().what_if("asg_web", &real, 24);
    let Ok(same) = same else {
        panic!("what-if with the group's own parameters");
    };
    assert_eq!(same.zones.len(), 2);
    assert_eq!((same.from_minute, same.to_minute), (18, 24 * 60 + 17));
    for z in &same.zones {
        assert_eq!(z.real.len(), 24 * 60);
        assert_eq!(z.real, z.edited, "zone {}", z.zone);
        assert_eq!(z.real_summary, z.edited_summary);
    }
    assert!(
        same.zones[0].real_summary.scale_outs >= 1,
        "{:?}",
        same.zones[0].real_summary
    );
    // A lower maximum scales out sooner and more.
    let mut eager = real.clone();
    eager.thresholds[0].max = 50.0;
    let edited = sim.autoscale().what_if("asg_web", &eager, 24);
    let Ok(edited) = edited else {
        panic!("valid edit");
    };
    let z = &edited.zones[0];
    assert!(z.edited_summary.node_minutes > z.real_summary.node_minutes);
    assert!(z.edited_summary.peak_nodes >= z.real_summary.peak_nodes);
    assert_eq!(edited.edited_params, eager);
    assert_eq!(edited.real_params, real);
    // Nothing changed in the live engine.
    assert_eq!(
        sim.autoscale().group("asg_web").map(|g| g.params),
        Some(real)
    );
    // The seed group: the what-if of the first 33 minutes from the start state.
    let mut seed = demo()?;
    seed.advance_to(SimTime::from_mins(33));
    let w = seed
        .autoscale()
        .what_if("asg_arn", &GroupParams::seed_example(), 1);
    let Ok(w) = w else {
        panic!("what-if");
    };
    assert_eq!((w.from_minute, w.to_minute), (1, 33));
    assert_eq!(w.zones[0].edited, w.zones[0].real);
    let mut lazy = GroupParams::seed_example();
    lazy.watch_time_min = 5;
    let w = seed.autoscale().what_if("asg_arn", &lazy, 1);
    let outcomes: Vec<MinuteOutcome> = w
        .map(|w| {
            w.zones[0]
                .edited
                .iter()
                .map(|m| m.outcome.clone())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(outcomes[6], MinuteOutcome::AboveMax { streak: 4 });
    assert_eq!(
        outcomes[7],
        MinuteOutcome::ScaleOut { nodes: 1 },
        "T4..T8 above 85"
    );
    Ok(())
}

#[test]
fn what_if_of_a_day_is_fast() -> Result<(), ScenarioError> {
    let s = scenario(
        &flat("dns", 50.0).replace("zones = [\"a\", \"b\"]", "zones = [\"a\", \"b\", \"c\"]"),
    )?;
    let mut sim = Simulation::new(&s, 9);
    sim.advance_to(SimTime::from_mins(2 * 1440));
    let mut p = s.autoscale.groups[0].params();
    p.watch_time_min = 1;
    let start = std::time::Instant::now();
    let w = sim.autoscale().what_if("g", &p, 24);
    let took = start.elapsed();
    assert!(w.is_ok_and(|w| w.zones.iter().all(|z| z.edited.len() == 1440)));
    // 50 ms is the target in release; leave room for debug builds and busy machines.
    assert!(took.as_millis() < 500, "{took:?}");
    Ok(())
}

#[test]
fn the_timeline_keeps_seven_days() -> Result<(), ScenarioError> {
    let s = scenario(&flat("nlb", 50.0))?;
    let mut sim = Simulation::new(&s, 3);
    sim.advance_to(SimTime::from_mins(8 * 1440 + 5));
    let tl = sim
        .autoscale()
        .timeline("g", "b", u32::MAX)
        .unwrap_or_default();
    assert_eq!(tl.len(), engine::autoscale::HISTORY_MINUTES);
    assert_eq!(tl.last().map(|m| m.minute), Some(8 * 1440 + 5));
    assert_eq!(tl.first().map(|m| m.minute), Some(1440 + 6));
    assert!(sim.autoscale().timeline("g", "zz", 5).is_none());
    assert!(sim.autoscale().timeline("zz", "a", 5).is_none());
    let w = sim
        .autoscale()
        .what_if("g", &s.autoscale.groups[0].params(), 168);
    assert!(w.is_ok_and(
        |w| w.zones[0].real.len() == engine::autoscale::HISTORY_MINUTES
            && w.zones[0].real == w.zones[0].edited
    ));
    Ok(())
}

#[test]
fn views_of_the_demo() -> Result<(), ScenarioError> {
    let mut sim = demo()?;
    let before = sim.autoscale().groups();
    assert_eq!(before.len(), 2);
    assert_eq!(before[0].name, "asg_arn");
    assert_eq!(before[0].zones[0].nodes.len(), 1);
    assert_eq!(before[0].zones[0].nodes[0].id, "asg_arn-eu-west-1a-1");
    assert_eq!(before[0].zones[0].nodes[0].ip, "10.1.1.11");
    assert!(before[0].zones[0].nodes[0].public_ip.is_some());
    assert_eq!(before[1].zones.len(), 2);
    assert!(before[1]
        .zones
        .iter()
        .all(|z| z.nodes.len() == 2 && z.records.nlb.is_some()));
    let settings = &before[0].settings;
    assert!(settings
        .iter()
        .any(|s| s.key == "stats_interval" && s.source == "documented"));
    assert!(settings
        .iter()
        .any(|s| s.key == "nodes_per_decision" && s.source == "assumed"));
    sim.advance_to(SimTime::from_mins(5));
    let g = sim.autoscale().group("asg_arn");
    let z = g.as_ref().map(|g| g.zones[0].clone());
    assert_eq!(
        z.as_ref().map(|z| z.metrics.clone()),
        Some(vec![(Metric::Memory, 90.0)])
    );
    let streak = z.as_ref().and_then(|z| z.streak.clone());
    assert_eq!(
        streak.map(|s| (s.direction, s.minutes, s.needed, s.parameter)),
        Some(("above_max".to_owned(), 2, 3, "memory".to_owned()))
    );
    sim.advance_to(SimTime::from_mins(8));
    let g = sim.autoscale().group("asg_arn");
    let last = g.as_ref().and_then(|g| g.last_decision.clone());
    assert_eq!(last.as_ref().map(|d| d.kind.as_str()), Some("skipped"));
    assert_eq!(last.as_ref().map(|d| d.at_ms), Some(7 * 60_000));
    let nodes = g
        .as_ref()
        .map(|g| g.zones[0].nodes.clone())
        .unwrap_or_default();
    assert_eq!(
        nodes.iter().map(|n| n.state).collect::<Vec<_>>(),
        vec![NodeState::InService; 2]
    );
    assert_eq!(nodes[1].since_ms, 6 * 60_000);
    Ok(())
}

#[test]
fn csv_traces() {
    let ok: Vec<(&str, Vec<f64>)> = vec![
        ("90\n70\n", vec![90.0, 70.0]),
        (
            "\u{feff}demand\r\n90\r\n\r\n# comment\n70.5\n",
            vec![90.0, 70.5],
        ),
        ("minute,value\n1,90\n3,60\n", vec![90.0, 90.0, 60.0]),
        (
            "minute , memory\n 3 , 10 \n4,20\n",
            vec![10.0, 10.0, 10.0, 20.0],
        ),
    ];
    for (text, values) in ok {
        assert_eq!(parse_metrics_csv(text), Ok(values), "{text:?}");
    }
    let bad: Vec<(&str, usize, &str)> = vec![
        ("", 1, "no value found"),
        ("demand\n", 1, "no value found"),
        (
            "90\nabc\n",
            2,
            "value must be a finite number >= 0 (percent)",
        ),
        (
            "90\nnan\n",
            2,
            "value must be a finite number >= 0 (percent)",
        ),
        (
            "90\n-1\n",
            2,
            "value must be a finite number >= 0 (percent)",
        ),
        (
            "1,90\n2\n",
            2,
            "mixes `value` and `minute,value` lines; use one form",
        ),
        (
            "1,2,3\n",
            1,
            "expected `value` or `minute,value`; got 3 fields",
        ),
        ("1,90\n1,80\n", 2, "minutes must increase; got 1 after 1"),
        ("0,90\n", 1, "minute must be a whole number >= 1"),
        ("1.5,90\n", 1, "minute must be a whole number >= 1"),
        (
            "999999999,90\n",
            1,
            "minute must be at most 527040 (366 days); got 999999999",
        ),
    ];
    for (text, line, message) in bad {
        assert_eq!(
            parse_metrics_csv(text),
            Err((line, message.to_owned())),
            "{text:?}"
        );
    }
}

#[test]
fn csv_workloads_are_resolved_by_the_loader() -> Result<(), ScenarioError> {
    let src = flat("dns", 50.0).replace(
        "profile = \"constant\"\nlevel = 50",
        "profile = \"csv\"\nfile = \"load.csv\"",
    );
    let mut s = scenario(&src)?;
    assert_eq!(
        s.autoscale.groups[0].workload,
        Workload::Csv {
            file: "load.csv".into()
        }
    );
    let mut bad = s.autoscale.clone();
    let err = bad.resolve_csv(|_| Ok::<_, String>("90\nx\n".to_owned()));
    assert_eq!(
        err.map_err(|e| e.to_string()).err().as_deref(),
        Some("autoscale.groups[0].workload.file: load.csv:2: value must be a finite number >= 0 (percent)")
    );
    let err = bad.resolve_csv(|f| Err(format!("{f} not found")));
    assert_eq!(
        err.map_err(|e| e.to_string()).err().as_deref(),
        Some("autoscale.groups[0].workload.file: cannot read load.csv: load.csv not found")
    );
    s.autoscale
        .resolve_csv(|_| Ok::<_, String>("minute,value\n1,90\n2,90\n3,90\n".to_owned()))
        .map_err(|e| ScenarioError {
            origin: String::new(),
            line: 0,
            column: 0,
            field: e.path.to_string(),
            message: e.message,
        })?;
    assert_eq!(
        s.autoscale.groups[0].workload,
        Workload::Trace {
            values: vec![90.0; 3]
        }
    );
    let mut sim = Simulation::new(&s, 1);
    let events = sim.advance_to(SimTime::from_mins(2));
    assert_eq!(
        events
            .iter()
            .filter(|e| e.kind == "autoscale.scale_out")
            .count(),
        2
    );
    Ok(())
}

#[test]
fn file_errors_name_the_exact_field() -> Result<(), ScenarioError> {
    let s = Scenario::from_toml_str(DEMO, "demo.toml")?;
    let cases: Vec<(&str, usize, &str, &str)> = vec![
        (
            "[[actions]]\nat = \"1m\"\nkind = \"group_settings\"\ngroup = \"asg_arn\"\n[actions.settings]\nmin_nodes = 1\nmax_nodes = 4\nwatch_time_min = 3\ncooldown_min = 10\ndrain_timeout_min = 10\nttl_s = 60\n[[actions.settings.thresholds]]\nparameter = \"memory\"\nmin = 85\nmax = 40\n",
            15,
            "actions[0].settings.thresholds[0].max",
            "must be greater than min (85); got 40",
        ),
        (
            "[[actions]]\nat = \"1m\"\nkind = \"load_inject\"\ngroup = \"asg_arn\"\nlevel = nan\n",
            5,
            "actions[0].level",
            "level: must be a finite number between 0 and 1000 (percent of the capacity of min_nodes nodes); got NaN",
        ),
        (
            "[[actions]]\nat = \"1m\"\nkind = \"app_deploy\"\ngroup = \"asg\"\n",
            4,
            "actions[0].group",
            "unknown autoscale group \"asg\" (known: asg_arn, asg_web)",
        ),
    ];
    for (src, line, field, message) in cases {
        let err = parse_actions(src, "a.toml", &s).err();
        let got = err.map(|e| (e.line, e.field, e.message));
        assert_eq!(
            got,
            Some((line, field.to_owned(), message.to_owned())),
            "{src}"
        );
    }
    let bad_group = flat("dns", 50.0).replace("max_nodes = 4", "max_nodes = 40");
    let err = scenario(&bad_group).err().map(|e| (e.field, e.message));
    assert_eq!(
        err,
        Some((
            "autoscale.groups[0].max_nodes".to_owned(),
            "must be at most 32 (nodes of one ADC cluster); got 40".to_owned()
        ))
    );
    let noisy = flat("dns", 50.0).replace("ttl_s = 30", "ttl_s = 30\nnoise = 150");
    let err = scenario(&noisy).err().map(|e| (e.field, e.message));
    assert_eq!(
        err,
        Some((
            "autoscale.groups[0].noise".to_owned(),
            "must be between 0 and 100; got 150".to_owned()
        ))
    );
    Ok(())
}
