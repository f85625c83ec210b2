//! The update cadence of SPEC §2 [seed 004]: what a member pushes to its data collector and
//! when (±push_threshold, per application too), the collector's own refresh, its pings and
//! requests, a down member failing the ping, and the power cycle around them.

mod common;

use common::lms::{act, at_secs, entries_of, launch, of_kind, scenario, server, sim};
use engine::lms::views::ServerPower;
use engine::{LmsAction, SimDuration, Simulation, SpikeCounter};
use serde_json::json;

/// One zone `z` with servers `A` (host id 1, so the collector), `B` and `C`, all with the
/// `Cpu` evaluator (CPU with low 0 and high 100: a CPU of `p` % gives a load of `p` x 100).
/// Counters without noise and with an idle CPU of 0 %. `extra` goes into `[lms]`, `apps`
/// into the servers' `apps`, `tail` at the end.
fn cpu_farm(extra: &str, tail: &str) -> Simulation {
    let src = format!(
        r#"[scenario]
name = "cadence"

[lms]
{extra}

[lms.workload.counters]
noise = 0.0
cpu_base_min = 0.0
cpu_base_max = 0.0
cpu_per_session = 0.0
cpu_per_disconnected = 0.0
cpu_per_logon = 0.0

[[lms.zones]]
id = "z"
name = "Z"

[[lms.applications]]
name = "Word"

[[lms.evaluators]]
name = "Cpu"

[[lms.evaluators.rules]]
rule = "cpu_utilization"
low = 0
high = 100

[[lms.servers]]
host = "A"
zone = "z"
evaluator = "Cpu"
apps = ["Word"]

[[lms.servers]]
host = "B"
zone = "z"
evaluator = "Cpu"
apps = ["Word"]

[[lms.servers]]
host = "C"
zone = "z"
evaluator = "Cpu"
apps = ["Word"]
{tail}
"#
    );
    Simulation::new(&scenario(&src), 1)
}

fn spike(sim: &mut Simulation, host: &str, counter: SpikeCounter, percent: u8, secs: u64) {
    act(
        sim,
        LmsAction::CounterSpike {
            server: host.into(),
            counter,
            percent,
            duration: SimDuration::from_secs(secs),
        },
    );
}

/// (true load, collector's view) of `host`.
fn loads(sim: &Simulation, host: &str) -> (u32, Option<u32>) {
    let s = server(sim, host);
    (s.load, s.dc_load)
}

#[test]
fn a_member_pushes_a_change_of_at_least_push_threshold_at_the_next_counter_tick() {
    let mut sim = cpu_farm("", "");
    sim.advance_to(at_secs(40));
    // 400 below the threshold (500): the collector keeps 0 until it requests the values.
    spike(&mut sim, "B", SpikeCounter::Cpu, 4, 3600);
    assert_eq!(loads(&sim, "B"), (400, Some(0)));
    sim.advance_to(at_secs(299));
    assert_eq!(loads(&sim, "B"), (400, Some(0)));
    let events = sim.advance_to(at_secs(300));
    assert_eq!(loads(&sim, "B"), (400, Some(400)), "requested at 300 s");
    assert_eq!(
        entries_of(&events, "load.pushed", "B")
            .iter()
            .map(|(_, _, e)| (*e).clone())
            .collect::<Vec<_>>(),
        [json!({"delta": 0, "from": 0, "load": 400, "requested": 1, "true_load": 400})]
    );
    // Exactly the threshold (400 -> 900): pushed at the next counter tick (330 s).
    sim.advance_to(at_secs(310));
    spike(&mut sim, "B", SpikeCounter::Cpu, 9, 3600);
    sim.advance_to(at_secs(329));
    assert_eq!(loads(&sim, "B"), (900, Some(400)));
    sim.advance_to(at_secs(330));
    assert_eq!(loads(&sim, "B"), (900, Some(900)));
    assert_eq!(server(&sim, "B").dc_updated_ms, Some(330_000));
    // Down by 400 (900 -> 500): not pushed.
    sim.advance_to(at_secs(340));
    spike(&mut sim, "B", SpikeCounter::Cpu, 5, 3600);
    sim.advance_to(at_secs(390));
    assert_eq!(loads(&sim, "B"), (500, Some(900)));
}

#[test]
fn a_steady_load_is_not_pushed_again() {
    let mut sim = cpu_farm("", "");
    sim.advance_to(at_secs(40));
    spike(&mut sim, "B", SpikeCounter::Cpu, 30, 3600);
    spike(&mut sim, "C", SpikeCounter::Cpu, 30, 3600);
    let events = sim.advance_to(at_secs(900));
    // One push each at the 60 s tick, then nothing: 3000 stays 3000.
    for host in ["B", "C"] {
        let pushed = entries_of(&events, "load.pushed", host);
        assert_eq!(pushed.len(), 1, "{host}: {pushed:?}");
        assert_eq!(
            pushed[0].2,
            &json!({"delta": 1, "from": 0, "load": 3000, "requested": 0, "true_load": 3000})
        );
        assert_eq!(loads(&sim, host), (3000, Some(3000)));
    }
}

#[test]
fn pushes_between_two_samples_report_the_view_before_the_first() {
    let mut sim = cpu_farm("", "");
    sim.advance_to(at_secs(40));
    spike(&mut sim, "B", SpikeCounter::Cpu, 10, 3600);
    sim.advance_to(at_secs(70));
    assert_eq!(loads(&sim, "B"), (1000, Some(1000)), "pushed at 60 s");
    spike(&mut sim, "B", SpikeCounter::Cpu, 25, 3600);
    sim.advance_to(at_secs(100));
    spike(&mut sim, "B", SpikeCounter::Cpu, 5, 3600);
    let events = sim.advance_to(at_secs(300));
    let pushed = entries_of(&events, "load.pushed", "B");
    assert_eq!(pushed.len(), 1);
    assert_eq!((pushed[0].0, pushed[0].1), (300_000, "z"));
    assert_eq!(
        pushed[0].2,
        &json!({"delta": 3, "from": 0, "load": 500, "requested": 0, "true_load": 500})
    );
    // The next sample starts afresh: a request that changes the view (500 -> 900 is below
    // the threshold), `from` the view before it.
    spike(&mut sim, "B", SpikeCounter::Cpu, 9, 3600);
    let events = sim.advance_to(at_secs(600));
    let pushed = entries_of(&events, "load.pushed", "B");
    assert_eq!(
        pushed.iter().map(|p| p.2.clone()).collect::<Vec<_>>(),
        [json!({"delta": 0, "from": 500, "load": 900, "requested": 1, "true_load": 900})]
    );
}

#[test]
fn the_collector_refreshes_its_own_values_every_dc_refresh() {
    let mut sim = cpu_farm("", "");
    sim.advance_to(at_secs(40));
    // The same small change on the collector (A) and a member (B).
    spike(&mut sim, "A", SpikeCounter::Cpu, 2, 3600);
    spike(&mut sim, "B", SpikeCounter::Cpu, 2, 3600);
    sim.advance_to(at_secs(60));
    assert!(server(&sim, "A").collector);
    assert_eq!(loads(&sim, "A"), (200, Some(200)));
    assert_eq!(server(&sim, "A").dc_updated_ms, Some(60_000));
    assert_eq!(loads(&sim, "B"), (200, Some(0)));
    let events = sim.advance_to(at_secs(300));
    // The collector's own refresh is not a push.
    assert!(entries_of(&events, "load.pushed", "A").is_empty());
    assert_eq!(server(&sim, "A").dc_updated_ms, Some(300_000));
}

#[test]
fn the_collector_pings_a_silent_member_and_requests_its_values_after_request_after() {
    let mut sim = cpu_farm("", "");
    // (time, last contact, last update) of a member that never changes.
    let rows = [
        (0, 0, 0),
        (30, 0, 0),
        (59, 0, 0),
        (60, 60, 0),
        (90, 60, 0),
        (120, 120, 0),
        (270, 240, 0),
        (299, 240, 0),
        (300, 300, 300),
        (330, 300, 300),
        (360, 360, 300),
        (600, 600, 600),
    ];
    let mut events = Vec::new();
    for (t, contact, updated) in rows {
        events.extend(sim.advance_to(at_secs(t)));
        let b = server(&sim, "B");
        assert_eq!(
            (b.dc_contact_ms, b.dc_updated_ms),
            (Some(contact * 1000), Some(updated * 1000)),
            "at {t} s"
        );
        assert_eq!(b.dc_load, Some(0));
    }
    // A request that finds the same values changes nothing worth reporting.
    assert!(of_kind(&events, "load.pushed").is_empty(), "{events:?}");
    assert!(of_kind(&events, "server.unreachable").is_empty());
}

#[test]
fn a_change_of_one_application_s_load_is_pushed_like_the_server_s() {
    // Excel has its own evaluator (CPU); the servers use Default (sessions): a CPU spike on
    // B moves only B's load for Excel.
    let tail = r#"
[[lms.evaluators]]
name = "CpuApp"

[[lms.evaluators.rules]]
rule = "cpu_utilization"
low = 0
high = 100
"#;
    let src = format!(
        r#"[scenario]
name = "apps"

[lms.workload.counters]
noise = 0.0
cpu_base_min = 0.0
cpu_base_max = 0.0
cpu_per_session = 0.0
cpu_per_logon = 0.0

[[lms.zones]]
id = "z"
name = "Z"

[[lms.applications]]
name = "Excel"
evaluator = "CpuApp"
{tail}
[[lms.servers]]
host = "A"
zone = "z"
apps = []

[[lms.servers]]
host = "B"
zone = "z"
apps = ["Excel"]

[[lms.servers]]
host = "C"
zone = "z"
apps = ["Excel"]
"#
    );
    let mut sim = Simulation::new(&scenario(&src), 1);
    sim.advance_to(at_secs(40));
    spike(&mut sim, "B", SpikeCounter::Cpu, 50, 3600);
    let events = sim.advance_to(at_secs(300));
    assert_eq!(loads(&sim, "B"), (0, Some(0)), "the server's own load");
    let pushed = entries_of(&events, "load.pushed", "B");
    assert_eq!(
        pushed.iter().map(|p| p.2.clone()).collect::<Vec<_>>(),
        [json!({"delta": 1, "from": 0, "load": 0, "requested": 0, "true_load": 0})]
    );
    // The collector knows B is at 5000 for Excel: C (0) gets the launch.
    let e = act(&mut sim, launch("alice", "Excel", None));
    let placed = of_kind(&e, "session.placed");
    assert_eq!(placed[0].subject, "C");
    assert_eq!(placed[0].details["candidates"][1]["load"], 5000);
}

#[test]
fn a_down_member_fails_the_ping_once_with_its_last_contact() {
    let mut sim = sim("reboot_duration = \"5m\"", "");
    sim.advance_to(at_secs(10));
    act(
        &mut sim,
        LmsAction::ServerReboot {
            server: "s3".into(),
        },
    );
    let events = sim.advance_to(at_secs(300));
    let unreachable = of_kind(&events, "server.unreachable");
    assert_eq!(unreachable.len(), 1, "{unreachable:?}");
    assert_eq!(unreachable[0].t_ms, 60_000, "silent since its push at 0 s");
    assert_eq!(
        unreachable[0].details,
        json!({"collector": "s1", "last_contact_ms": 0, "reason": "no answer to the collector's ping"})
    );
    assert_eq!(server(&sim, "s3").dc_load, None);
}

#[test]
fn the_killed_collector_is_found_unreachable_by_the_new_one_at_its_first_ping() {
    let mut sim = sim("", "");
    sim.advance_to(at_secs(1));
    act(&mut sim, LmsAction::KillCollector { zone: "z1".into() });
    // The election does not count as a contact with the server that went down.
    assert_eq!(server(&sim, "s1").dc_contact_ms, Some(0));
    let events = sim.advance_to(at_secs(60));
    let unreachable = of_kind(&events, "server.unreachable");
    assert_eq!(unreachable.len(), 1);
    assert_eq!(unreachable[0].subject, "s1");
    assert_eq!(unreachable[0].t_ms, 60_000);
    assert_eq!(unreachable[0].details["collector"], "s2");
    // Its peers were pushed to the new collector at the election.
    assert_eq!(server(&sim, "s3").dc_contact_ms, Some(1_000));
}

#[test]
fn a_reboot_while_starting_restarts_the_power_cycle() {
    let mut sim = sim("", "");
    sim.advance_to(at_secs(10));
    let reboot = || LmsAction::ServerReboot {
        server: "s3".into(),
    };
    act(&mut sim, reboot());
    // Down until 70 s, then starting (services up at 250 s).
    sim.advance_to(at_secs(100));
    assert_eq!(server(&sim, "s3").power, ServerPower::Starting);
    let down = act(&mut sim, reboot());
    assert_eq!(of_kind(&down, "server.down")[0].details["boot_ms"], 160_000);
    let events = sim.advance_to(at_secs(400));
    let starting = of_kind(&events, "server.starting");
    assert_eq!(
        starting.iter().map(|e| e.t_ms).collect::<Vec<_>>(),
        [160_000]
    );
    assert_eq!(starting[0].details["services_up_ms"], 340_000);
    let up = of_kind(&events, "server.up");
    assert_eq!(up.iter().map(|e| e.t_ms).collect::<Vec<_>>(), [340_000]);
}

#[test]
fn a_completed_logon_is_followed_once_then_the_threshold_applies_again() {
    let mut sim = cpu_farm("", "");
    sim.advance_to(at_secs(1));
    // A is busy: the launch goes to B, whose logon runs from 30 s to 60 s (a tick).
    spike(&mut sim, "A", SpikeCounter::Cpu, 50, 3600);
    sim.advance_to(at_secs(30));
    let e = act(&mut sim, launch("alice", "Word", None));
    assert_eq!(of_kind(&e, "session.placed")[0].subject, "B");
    sim.advance_to(at_secs(60));
    assert_eq!(server(&sim, "B").logons_in_progress, 0);
    assert_eq!(loads(&sim, "B"), (0, Some(0)));
    // A small change after the logon completed waits for the collector's request.
    sim.advance_to(at_secs(70));
    spike(&mut sim, "B", SpikeCounter::Cpu, 3, 3600);
    sim.advance_to(at_secs(120));
    assert_eq!(loads(&sim, "B"), (300, Some(0)));
}

#[test]
fn sessions_ended_lists_only_servers_with_logoffs_or_disconnections() {
    // A quiet farm: nothing ends, no event.
    let mut quiet = sim("", "");
    let events = quiet.advance_to(at_secs(1800));
    assert!(of_kind(&events, "sessions.ended").is_empty());
    assert!(of_kind(&events, "load.pushed").is_empty());
    let storm = |sim: &mut Simulation| {
        sim.advance_to(at_secs(5));
        act(
            sim,
            LmsAction::LogonStorm {
                users: 30,
                over: SimDuration::from_mins(1),
                app: None,
            },
        )
    };
    // Logoffs only.
    let mut logoffs = sim(
        "[lms.workload]\nsession_duration = \"2m\"\ndisconnect_share = 0\n",
        "",
    );
    let mut events = storm(&mut logoffs);
    events.extend(logoffs.advance_to(at_secs(1800)));
    let entries: Vec<serde_json::Value> = of_kind(&events, "sessions.ended")
        .iter()
        .flat_map(|e| {
            e.details["servers"]
                .as_object()
                .map(|m| m.values().cloned().collect::<Vec<_>>())
                .unwrap_or_default()
        })
        .collect();
    assert!(!entries.is_empty());
    assert!(entries
        .iter()
        .all(|e| e["disconnected"] == 0 && e["count"].as_u64().is_some_and(|n| n > 0)));
    let ended: u64 = entries.iter().filter_map(|e| e["count"].as_u64()).sum();
    let placed = of_kind(&events, "session.placed").len() as u64;
    let farm = logoffs.lms().farm();
    let open = u64::from(farm.sessions_connected + farm.sessions_disconnected);
    assert_eq!(ended, placed - open);
    // Disconnections only (long sessions, long absences).
    let mut disconnects = sim(
        "[lms.workload]\nsession_duration = \"10h\"\ndisconnect_share = 100\ndisconnected_for = \"10h\"\n",
        "",
    );
    storm(&mut disconnects);
    let events = disconnects.advance_to(at_secs(3600));
    let ended = of_kind(&events, "sessions.ended");
    assert!(!ended.is_empty());
    assert!(ended
        .iter()
        .all(|e| e.details["servers"].as_object().is_some_and(|m| m
            .values()
            .all(|s| s["count"] == 0 && s["disconnected"].as_u64().is_some_and(|n| n > 0)))));
}
