//! Load-management scenarios: the black hole with the fix off and not with it on (through
//! `black_hole_ab` and through a scenario's actions), determinism, action validation.

mod common;

use common::lms::*;
use engine::lms::black_hole_ab;
use engine::lms::config::rules::{Rule, Thresholds};
use engine::lms::views::FarmView;
use engine::{LmsAction, SimDuration, SimTime, Simulation, SpikeCounter};

#[test]
fn black_hole_ab_reproduces_only_without_the_fix() {
    let s = scenario(&farm("", ""));
    let report = black_hole_ab(&s, 9, "s3", 60, SimDuration::from_mins(2), Some("Word"));
    let report = report.unwrap_or_else(|e| panic!("{e}"));
    let (on, off) = (&report.fix_on, &report.fix_off);
    assert_eq!(on.placed + on.rejected, 60);
    assert_eq!(off.placed + off.rejected, 60);
    assert_eq!(
        on.on_rebooted, 0,
        "with the fix, the starting server reports 10000"
    );
    assert!(
        off.on_rebooted * 2 > off.placed,
        "without the fix the rebooted server swallows most of the storm: {} of {}",
        off.on_rebooted,
        off.placed
    );
    assert!(
        off.max_share_pct > 50 && on.max_share_pct < 50,
        "{} {}",
        off.max_share_pct,
        on.max_share_pct
    );
    assert!(on.series.len() > 10);
    assert_eq!(on.series[0].sessions.len(), 6);
    let err = black_hole_ab(&s, 9, "nope", 60, SimDuration::from_mins(2), None);
    assert!(err.is_err_and(|e| e.field() == Some("server")));
}

fn storm_after_reboot(fix: bool) -> String {
    farm(
        &format!("black_hole_fix = {fix}"),
        r#"
[[actions]]
at = "10m"
actor = "ops"
kind = "server_reboot"
server = "s2"

[[actions]]
at = "11m"
kind = "logon_storm"
users = 20
over = "5m"
app = "Word"
"#,
    )
}

fn placed_on(events: &[engine::Event], host: &str) -> usize {
    events
        .iter()
        .filter(|e| e.kind == "session.placed" && e.subject == host)
        .count()
}

#[test]
fn black_hole_in_a_scenario() {
    for (fix, expect_hole) in [(false, true), (true, false)] {
        let s = scenario(&storm_after_reboot(fix));
        let events = Simulation::new(&s, 4).advance_to(SimTime::from_mins(17));
        let on_s2 = placed_on(&events, "s2");
        let total = of_kind(&events, "session.placed").len();
        assert_eq!(total, 20, "fix {fix}");
        assert_eq!(
            on_s2 > 10,
            expect_hole,
            "fix {fix}: {on_s2} of {total} on s2"
        );
        let starting = of_kind(&events, "server.starting");
        assert_eq!(
            starting[0].details["reported_load"],
            if fix { 10_000 } else { 0 }
        );
    }
}

#[test]
fn same_seed_same_events() {
    let src = farm(
        "",
        r#"
[lms.workload.recurring_storm]
every = "20m"
users = 50
over = "5m"

[[actions]]
at = "30m"
kind = "kill_collector"
zone = "z2"
"#,
    );
    // The recurring storm lives in [lms.workload]: move it there by rebuilding the text.
    let src = src.replace(
        "[lms.workload.counters]\nnoise = 0.0\n",
        "[lms.workload.counters]\nnoise = 0.1\n",
    );
    let s = scenario(&src);
    let run = |seed| common::lines(&Simulation::new(&s, seed).advance_to(SimTime::from_mins(180)));
    let a = run(5);
    assert_eq!(a, run(5));
    assert_ne!(a, run(6));
    for kind in [
        "storm.started",
        "storm.finished",
        "session.placed",
        "sessions.ended",
        "load.sample",
        "collector.killed",
    ] {
        assert!(
            a.iter()
                .any(|l| l.contains(&format!("\"kind\":\"{kind}\""))),
            "{kind}"
        );
    }
    assert!(a.iter().any(|l| l.contains("\"mode\":\"reconnect\"")));
}

#[test]
fn bad_actions_are_refused_and_change_nothing() {
    let mut sim = sim("", "");
    sim.advance_to(SimTime::from_secs(5));
    act(&mut sim, launch("alice", "Word", None));
    let farm_before: FarmView = sim.lms().farm();
    let cases: Vec<(LmsAction, &str)> = vec![
        (
            LmsAction::LogonStorm { users: 0, over: SimDuration::from_mins(1), app: None },
            "users: must be between 1 and 100000; got 0",
        ),
        (
            LmsAction::LogonStorm { users: 5, over: SimDuration::from_mins(1), app: Some("Paint".into()) },
            "unknown application \"Paint\" (known: Word, Excel, Secure)",
        ),
        (
            LmsAction::ServerReboot { server: "s9".into() },
            "unknown server \"s9\" (known: s1, s2, s3, s4, s5, s6)",
        ),
        (
            LmsAction::KillCollector { zone: "z9".into() },
            "unknown zone \"z9\" (known: z1, z2)",
        ),
        (
            LmsAction::CounterSpike { server: "s1".into(), counter: SpikeCounter::Cpu, percent: 101, duration: SimDuration::from_mins(1) },
            "percent: must be between 0 and 100; got 101",
        ),
        (
            LmsAction::CounterSpike { server: "s1".into(), counter: SpikeCounter::Memory, percent: 50, duration: SimDuration::from_millis(500) },
            "duration: must be at least 1s; got 500ms",
        ),
        (
            LmsAction::DisconnectSessions { user: Some("alice".into()), server: Some("s1".into()), count: 1 },
            "user: give exactly one of user and server",
        ),
        (
            LmsAction::LogoffSessions { user: None, server: Some("s1".into()), count: 0 },
            "count: must be between 1 and 100000; got 0",
        ),
        (
            LmsAction::LogoffSessions { user: Some("bob".into()), server: None, count: 1 },
            "user \"bob\" has no session",
        ),
        (
            LmsAction::EvaluatorSave { name: "".into(), rules: vec![Rule::ServerUserLoad { users: 10 }], replaces: None },
            "name must not be empty",
        ),
        (
            LmsAction::EvaluatorSave { name: "X".into(), rules: vec![], replaces: None },
            "rules: an evaluator needs at least one rule",
        ),
        (
            LmsAction::EvaluatorSave {
                name: "X".into(),
                rules: vec![
                    Rule::ServerUserLoad { users: 10 },
                    Rule::LoadThrottling { level: Default::default() },
                    Rule::CpuUtilization(Thresholds { low: 50, high: 20 }),
                ],
                replaces: None,
            },
            "rules: rules[2].high: must be greater than low (50); got 20",
        ),
        (
            LmsAction::EvaluatorSave {
                name: "X".into(),
                rules: vec![Rule::ServerUserLoad { users: 10 }, Rule::ServerUserLoad { users: 5 }],
                replaces: None,
            },
            "rules: rules[1].rule: duplicate rule \"server_user_load\" (first defined at rules[0])",
        ),
        (
            LmsAction::EvaluatorSave { name: "Lab".into(), rules: vec![Rule::ServerUserLoad { users: 10 }], replaces: None },
            "name: an evaluator \"Lab\" already exists; edit it with replaces = \"Lab\"",
        ),
        (
            LmsAction::EvaluatorSave { name: "Mine".into(), rules: vec![Rule::ServerUserLoad { users: 10 }], replaces: Some("Default".into()) },
            "name: the built-in evaluator \"Default\" cannot be renamed",
        ),
        (
            LmsAction::EvaluatorDelete { name: "Advanced".into() },
            "name: the built-in evaluator \"Advanced\" cannot be deleted",
        ),
        (
            LmsAction::EvaluatorDelete { name: "Lab".into() },
            "name: evaluator \"Lab\" is still assigned to applications Secure; assign another first",
        ),
        (
            LmsAction::EvaluatorAssign { evaluator: "Nope".into(), servers: vec!["s1".into()], applications: vec![] },
            "unknown evaluator \"Nope\" (known: Default, Advanced, Lab)",
        ),
        (
            LmsAction::EvaluatorAssign { evaluator: "Lab".into(), servers: vec![], applications: vec![] },
            "servers: name at least one server or application",
        ),
        (
            LmsAction::EvaluatorUnassign { application: "Word".into() },
            "application \"Word\" has no evaluator of its own",
        ),
        (
            LmsAction::FarmSettings { black_hole_fix: None, formula: None },
            "black_hole_fix: change at least one setting (black_hole_fix or formula)",
        ),
    ];
    for (action, want) in cases {
        let kind = action.kind();
        let got = sim.apply_now(action, Some("x".into()));
        assert_eq!(
            got.map_err(|e| e.to_string()),
            Err(want.to_owned()),
            "{kind}"
        );
    }
    assert_eq!(sim.lms().farm(), farm_before);
}

#[test]
fn an_engine_without_servers_is_idle() {
    let s = scenario("[scenario]\nname = \"empty\"\n");
    let mut sim = Simulation::new(&s, 1);
    sim.advance_to(SimTime::from_mins(10));
    assert_eq!(sim.next_due(), None);
    assert_eq!(sim.lms().farm().servers_total, 0);
}
