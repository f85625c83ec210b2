//! The load-management engine against SPEC §2: seed numbers, throttling, elections, the
//! update cadence, placement and the evaluator actions.

mod common;

use common::lms::*;
use engine::lms::config::rules::{Rule, Thresholds, ThrottleLevel};
use engine::lms::views::{
    ServerBand, ServerPower, ServerQuery, ServerSort, SessionQuery, SessionSort,
};
use engine::{LmsAction, SimDuration, SimTime, SpikeCounter};

fn only_s1(extra: &str) -> engine::Simulation {
    let src = format!(
        r#"[scenario]
name = "one"

[lms]
{extra}

[[lms.zones]]
id = "z"
name = "Z"

[[lms.applications]]
name = "Word"

[[lms.servers]]
host = "A"
zone = "z"
apps = ["Word"]
"#
    );
    engine::Simulation::new(&scenario(&src), 1)
}

#[test]
fn seed_002_one_session_default_evaluator() {
    let mut sim = only_s1("");
    sim.advance_to(at_secs(5));
    let placed = act(&mut sim, launch("alice", "Word", None));
    let p = of_kind(&placed, "session.placed");
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].details["mode"], "least_loaded");
    // During the logon: d = 5000 (High), b = 100 -> 5000 + 5% x 100.
    assert_eq!(p[0].details["load_after"], 5005);
    sim.advance_to(at_secs(120));
    let a = server(&sim, "a");
    assert_eq!(a.load, 100);
    let row = &sim.lms().load_table()[0];
    assert_eq!(row.load, "64");
    assert_eq!(row.lt_load, "1388");
    assert_eq!(row.rule_loads, "d:0;b:1;");
    assert_eq!(row.real_time_rules, "d");
}

#[test]
fn seed_004_three_users() {
    let mut sim = only_s1("");
    // One logon at a time: two logons in progress at High would make the server full.
    for (i, u) in ["alice", "bob", "carol"].into_iter().enumerate() {
        sim.advance_to(at_secs(5 + 60 * i as u64));
        act(&mut sim, launch(u, "Word", None));
    }
    sim.advance_to(at_secs(240));
    let row = &sim.lms().load_table()[0];
    assert_eq!(
        (row.load.as_str(), row.rule_loads.as_str()),
        ("12c", "d:0;b:3;")
    );
    assert_eq!(server(&sim, "A").load, 300);
    assert_eq!(
        sim.lms()
            .sessions(&SessionQuery {
                limit: 10,
                ..Default::default()
            })
            .total,
        3
    );
}

#[test]
fn throttling_decays_linearly_to_zero() {
    let mut sim = only_s1("logon_duration = \"60s\"");
    sim.advance_to(at_secs(30));
    act(&mut sim, launch("alice", "Word", None));
    let d = |sim: &engine::Simulation| {
        server(sim, "A")
            .rule_loads
            .iter()
            .find(|r| r.code == 'd')
            .map(|r| r.load)
    };
    assert_eq!(d(&sim), Some(5000.0));
    assert_eq!(server(&sim, "A").logons_in_progress, 1);
    sim.advance_to(at_secs(60));
    assert_eq!(d(&sim), Some(2500.0));
    sim.advance_to(at_secs(90));
    assert_eq!(d(&sim), Some(0.0));
    assert_eq!(server(&sim, "A").lt_multiplier, 0);
}

#[test]
fn election_ranking_and_reelection_after_kill() {
    let mut sim = sim("", "");
    let events = sim.advance_to(at_secs(1));
    let elected = of_kind(&events, "collector.elected");
    assert_eq!(elected.len(), 2);
    assert_eq!(elected[0].subject, "z1");
    assert_eq!(elected[0].details["collector"], "s1");
    assert_eq!(
        elected[0].details["ranking"],
        serde_json::json!(["s1", "s2", "s3"])
    );
    assert_eq!(elected[1].details["collector"], "s4");
    let killed = act(&mut sim, LmsAction::KillCollector { zone: "z1".into() });
    let kinds: Vec<&str> = killed.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(
        kinds,
        ["collector.killed", "server.down", "collector.elected"]
    );
    assert_eq!(killed[2].details["collector"], "s2");
    assert_eq!(
        killed[2].details["ranking"],
        serde_json::json!(["s2", "s3"])
    );
    assert!(killed[2].details["reason"]
        .as_str()
        .is_some_and(|r| r.contains("s1")));
    assert!(killed.iter().all(|e| e.actor.as_deref() == Some("tester")));
    let farm = sim.lms().farm();
    assert_eq!(farm.zones[0].collector.as_deref(), Some("s2"));
    assert_eq!(server(&sim, "s1").power, ServerPower::Down);
    // s1 boots after 60s, services up 3m later; the zone keeps s2 (no preemption).
    let later = sim.advance_to(at_secs(1 + 60 + 180 + 1));
    assert_eq!(of_kind(&later, "server.starting").len(), 1);
    assert_eq!(of_kind(&later, "server.up").len(), 1);
    assert_eq!(server(&sim, "s1").power, ServerPower::Up);
    assert_eq!(sim.lms().farm().zones[0].collector.as_deref(), Some("s2"));
}

#[test]
fn load_bands_count_up_servers_by_load_and_the_others_apart() {
    let mut sim = sim("", "");
    sim.advance_to(at_secs(1));
    let bands = sim.lms().load_bands();
    assert_eq!(bands.not_up, 0);
    assert_eq!(bands.up.iter().sum::<u32>(), sim.lms().farm().servers_up);
    act(
        &mut sim,
        LmsAction::ServerReboot {
            server: "s4".into(),
        },
    );
    let after = sim.lms().load_bands();
    assert_eq!(after.not_up, 1);
    assert_eq!(
        after.up.iter().sum::<u32>(),
        bands.up.iter().sum::<u32>() - 1
    );
    for s in ["s1", "s2", "s3", "s5", "s6"] {
        let load = server(&sim, s).load;
        assert!(
            after.up[engine::lms::views::LoadBands::band_of(load)] > 0,
            "{s} at {load}"
        );
    }
}

#[test]
fn a_zone_without_servers_up_has_no_collector() {
    let mut sim = sim("", "");
    sim.advance_to(at_secs(1));
    for h in ["s4", "s5", "s6"] {
        act(&mut sim, LmsAction::ServerReboot { server: h.into() });
    }
    assert_eq!(sim.lms().farm().zones[1].collector, None);
    let err = sim.apply_now(LmsAction::KillCollector { zone: "z2".into() }, None);
    assert_eq!(
        err.map_err(|e| e.to_string()),
        Err("zone \"z2\" has no data collector".to_owned())
    );
    let events = sim.advance_to(at_secs(1 + 60 + 180 + 1));
    let elected = of_kind(&events, "collector.elected");
    assert_eq!(elected.len(), 1);
    assert_eq!(elected[0].subject, "z2");
}

#[test]
fn cadence_small_drift_waits_for_request_large_drift_pushes_at_next_tick() {
    let mut sim = sim("", "");
    sim.advance_to(at_secs(31));
    let before = server(&sim, "s5");
    assert_eq!(before.load, 1875, "memory 25% on 10..90 with no noise");
    // CPU 25% -> cpu rule 1875: index 1875 + 5% x 1875 = 1969 (a drift of 94).
    act(
        &mut sim,
        LmsAction::CounterSpike {
            server: "s5".into(),
            counter: SpikeCounter::Cpu,
            percent: 25,
            duration: SimDuration::from_mins(30),
        },
    );
    let events = sim.advance_to(at_secs(299));
    assert!(entries_of(&events, "load.pushed", "s5").is_empty());
    let s5 = server(&sim, "s5");
    assert_eq!((s5.load, s5.dc_load), (1969, Some(1875)));
    assert_eq!(s5.load_bias, -94);
    // The collector requests it at 300 s; the zone's `load.pushed` of that sample instant
    // reports it.
    let events = sim.advance_to(at_secs(330));
    let pushed = entries_of(&events, "load.pushed", "s5");
    assert_eq!(pushed.len(), 1);
    assert_eq!(
        (pushed[0].0, pushed[0].1),
        (300_000, "z2"),
        "one event per zone, the zone as subject"
    );
    assert_eq!(
        pushed[0].2,
        &serde_json::json!({"delta": 0, "from": 1875, "load": 1969, "requested": 1, "true_load": 1969})
    );
    assert_eq!(server(&sim, "s5").dc_load, Some(1969));
    // CPU 45% -> 4375: a drift of 2400 is pushed at the next counter tick.
    act(
        &mut sim,
        LmsAction::CounterSpike {
            server: "s5".into(),
            counter: SpikeCounter::Cpu,
            percent: 45,
            duration: SimDuration::from_mins(30),
        },
    );
    sim.advance_to(at_secs(360));
    assert_eq!(
        server(&sim, "s5").dc_load,
        Some(4469),
        "pushed at the 360 s tick"
    );
    let events = sim.advance_to(at_secs(600));
    let pushed = entries_of(&events, "load.pushed", "s5");
    assert_eq!(pushed.len(), 1);
    assert_eq!((pushed[0].0, pushed[0].1), (600_000, "z2"));
    assert_eq!(pushed[0].2["delta"], 1);
    assert_eq!(pushed[0].2["requested"], 0);
    assert_eq!(pushed[0].2["from"], 1969);
    assert_eq!(pushed[0].2["load"], 4469);
}

#[test]
fn a_down_member_fails_the_ping() {
    let mut sim = sim("", "");
    sim.advance_to(at_secs(10));
    act(
        &mut sim,
        LmsAction::ServerReboot {
            server: "s3".into(),
        },
    );
    let events = sim.advance_to(at_secs(65));
    let unreachable = of_kind(&events, "server.unreachable");
    assert_eq!(unreachable.len(), 1);
    assert_eq!(unreachable[0].subject, "s3");
    assert_eq!(server(&sim, "s3").dc_load, None);
}

#[test]
fn placement_least_loaded_then_reconnect_wins() {
    let mut sim = sim("", "");
    sim.advance_to(at_secs(5));
    let e = act(&mut sim, launch("alice", "Word", None));
    let p = of_kind(&e, "session.placed")[0];
    assert_eq!(p.subject, "s1", "all at 0: lowest host id");
    assert_eq!(p.details["considered"], 5);
    assert_eq!(p.details["candidates"][0]["host"], "s1");
    let e = act(&mut sim, launch("bob", "Word", None));
    assert_eq!(of_kind(&e, "session.placed")[0].subject, "s2");
    act(
        &mut sim,
        LmsAction::DisconnectSessions {
            user: Some("alice".into()),
            server: None,
            count: 1,
        },
    );
    assert_eq!(server(&sim, "s1").disconnected, 1);
    assert_eq!(
        server(&sim, "s1").load,
        5005,
        "a disconnected session still counts"
    );
    let e = act(&mut sim, launch("alice", "Word", None));
    let p = of_kind(&e, "session.placed")[0];
    assert_eq!(
        (p.subject.as_str(), &p.details["mode"]),
        ("s1", &serde_json::json!("reconnect"))
    );
    let err = sim.apply_now(launch("alice", "Word", None), None);
    assert_eq!(
        err.map_err(|e| e.to_string()),
        Err("user \"alice\" already has a connected session".to_owned())
    );
}

#[test]
fn placement_respects_ip_ranges_and_full_servers() {
    let mut sim = sim("", "");
    sim.advance_to(at_secs(5));
    let e = act(&mut sim, launch("eve", "Secure", Some("10.1.0.9")));
    let r = of_kind(&e, "session.rejected");
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].details["excluded"]["ip_range"], 1);
    for (u, ip) in [("u1", "192.168.0.1"), ("u2", "192.168.0.2")] {
        let e = act(&mut sim, launch(u, "Secure", Some(ip)));
        assert_eq!(of_kind(&e, "session.placed")[0].subject, "s6");
    }
    // Secure's evaluator is full at 2 users: the third is refused, s6 counts as full.
    let e = act(&mut sim, launch("u3", "Secure", Some("192.168.0.3")));
    let r = of_kind(&e, "session.rejected");
    assert_eq!(r[0].details["excluded"]["full"], 1);
    // The displayed server load is its own evaluator's (Default: 2 sessions, once the
    // logons are done).
    sim.advance_to(at_secs(65));
    assert_eq!(server(&sim, "s6").load, 200);
}

#[test]
fn application_evaluator_higher_load_wins() {
    let tail = r#"
[[lms.evaluators]]
name = "Tight"

[[lms.evaluators.rules]]
rule = "application_user_load"
app = "Excel"
users = 1
"#;
    let mut sim = sim("", tail);
    sim.advance_to(at_secs(5));
    act(
        &mut sim,
        LmsAction::EvaluatorAssign {
            evaluator: "Tight".into(),
            servers: vec![],
            applications: vec!["Excel".into()],
        },
    );
    let e = act(&mut sim, launch("a", "Excel", None));
    assert_eq!(of_kind(&e, "session.placed")[0].subject, "s1");
    // s1 now has one Excel session: Tight says 10000 for Excel there, so s4 is next.
    let e = act(&mut sim, launch("b", "Excel", None));
    assert_eq!(of_kind(&e, "session.placed")[0].subject, "s4");
    let e = act(&mut sim, launch("c", "Excel", None));
    let r = of_kind(&e, "session.rejected");
    assert_eq!(r[0].details["excluded"]["full"], 2);
    // Word still goes to s1's zone peers by the server evaluator only.
    assert!(server(&sim, "s1").load < 10_000);
}

#[test]
fn servers_page_sorts_with_stable_ties() {
    let mut sim = sim("", "");
    sim.advance_to(at_secs(5));
    act(&mut sim, launch("a", "Word", None));
    let page = sim.lms().servers(&ServerQuery {
        sort: ServerSort::Sessions,
        descending: true,
        limit: 3,
        ..Default::default()
    });
    let hosts: Vec<&str> = page.rows.iter().map(|r| r.host.as_str()).collect();
    assert_eq!((page.total, hosts), (6, vec!["s1", "s2", "s3"]));
    let z2 = sim.lms().servers(&ServerQuery {
        zone: Some("z2".into()),
        limit: 10,
        ..Default::default()
    });
    assert_eq!(z2.total, 3);
    let named = sim.lms().servers(&ServerQuery {
        search: Some("S2".into()),
        limit: 10,
        ..Default::default()
    });
    let hosts: Vec<&str> = named.rows.iter().map(|r| r.host.as_str()).collect();
    assert_eq!((named.total, hosts), (1, vec!["s2"]));
    // The bands split the six servers: each server is in exactly one, the one its power and
    // load index say, as the overview's tiles count them.
    let bands = sim.lms().load_bands();
    let mut listed = 0;
    for (band, tile) in std::iter::once((ServerBand::NotUp, bands.not_up))
        .chain((0..5).map(|i| (ServerBand::Up(i), bands.up[i])))
    {
        let page = sim.lms().servers(&ServerQuery {
            band: Some(band),
            limit: 10,
            ..Default::default()
        });
        assert_eq!(page.total, tile, "{band:?}");
        assert!(
            page.rows.iter().all(|r| band.holds(r.power, r.load)),
            "{band:?}"
        );
        listed += page.total;
    }
    assert_eq!(listed, 6);
}

#[test]
fn every_page_of_a_sorted_server_list_is_the_same_slice_of_the_whole_list() {
    let mut sim = sim("", "");
    sim.advance_to(at_secs(5));
    for (i, u) in ["a", "b", "c"].into_iter().enumerate() {
        sim.advance_to(at_secs(10 + i as u64));
        act(&mut sim, launch(u, "Word", None));
    }
    let sorts = [
        ServerSort::HostId,
        ServerSort::Host,
        ServerSort::Zone,
        ServerSort::Load,
        ServerSort::DcLoad,
        ServerSort::Sessions,
        ServerSort::Evaluator,
    ];
    for sort in sorts {
        for descending in [false, true] {
            let hosts = |offset: u32, limit: u32| -> Vec<String> {
                let q = ServerQuery {
                    sort,
                    descending,
                    offset,
                    limit,
                    ..Default::default()
                };
                sim.lms()
                    .servers(&q)
                    .rows
                    .into_iter()
                    .map(|r| r.host)
                    .collect()
            };
            let whole = hosts(0, 100);
            assert_eq!(whole.len(), 6, "{sort:?} {descending}");
            for limit in 1..=6u32 {
                for offset in 0..=6u32 {
                    let from = (offset as usize).min(6);
                    let to = (offset + limit).min(6) as usize;
                    assert_eq!(
                        hosts(offset, limit),
                        whole[from..to],
                        "{sort:?} descending={descending} offset={offset} limit={limit}"
                    );
                }
            }
        }
    }
    // Loads differ after the launches: the busiest come first, ties in host order (s1..s6
    // are also the configuration's order).
    let q = ServerQuery {
        sort: ServerSort::Load,
        descending: true,
        limit: 6,
        ..Default::default()
    };
    let loads: Vec<(u32, String)> = sim
        .lms()
        .servers(&q)
        .rows
        .into_iter()
        .map(|r| (r.load, r.host))
        .collect();
    let mut expected = loads.clone();
    expected.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    assert_eq!(loads, expected);
    assert!(loads[0].0 > loads[5].0, "{loads:?}");
}

#[test]
fn sessions_are_searched_and_sorted_by_each_column_with_ties_by_user() {
    let mut sim = sim("", "");
    for (i, u) in ["carol", "alice", "bob", "dave"].into_iter().enumerate() {
        sim.advance_to(at_secs(5 + 60 * i as u64));
        act(&mut sim, launch(u, "Word", None));
    }
    let users = |q: SessionQuery| -> Vec<String> {
        let page = sim.lms().sessions(&SessionQuery { limit: 10, ..q });
        page.rows.into_iter().map(|r| r.user).collect()
    };
    let sorted = |sort: SessionSort, desc: bool| SessionQuery {
        sort,
        desc,
        ..Default::default()
    };
    let cases: [(SessionQuery, [&str; 4]); 4] = [
        (
            sorted(SessionSort::User, false),
            ["alice", "bob", "carol", "dave"],
        ),
        (
            sorted(SessionSort::User, true),
            ["dave", "carol", "bob", "alice"],
        ),
        (
            sorted(SessionSort::Since, false),
            ["carol", "alice", "bob", "dave"],
        ),
        (
            sorted(SessionSort::Since, true),
            ["dave", "bob", "alice", "carol"],
        ),
    ];
    for (q, want) in cases {
        assert_eq!(users(q.clone()), want, "{q:?}");
    }
    // By server: hosts in order, and the users of one server by name.
    for desc in [false, true] {
        let page = sim.lms().sessions(&SessionQuery {
            limit: 10,
            ..sorted(SessionSort::Server, desc)
        });
        let keys: Vec<(&str, &str)> = page
            .rows
            .iter()
            .map(|r| (r.server.as_str(), r.user.as_str()))
            .collect();
        assert_eq!(keys.len(), 4);
        assert!(
            keys.windows(2).all(|w| match w[0].0.cmp(w[1].0) {
                core::cmp::Ordering::Equal => w[0].1 < w[1].1,
                order => (order == core::cmp::Ordering::Less) != desc,
            }),
            "{keys:?}"
        );
    }
    // By client address, by its value (not its text), either way.
    for desc in [false, true] {
        let page = sim.lms().sessions(&SessionQuery {
            limit: 10,
            ..sorted(SessionSort::Client, desc)
        });
        let ips: Vec<std::net::Ipv4Addr> = page
            .rows
            .iter()
            .map(|r| r.client_ip.parse().expect("an address"))
            .collect();
        assert_eq!(ips.len(), 4);
        assert!(ips.windows(2).all(|w| (w[0] < w[1]) != desc), "{ips:?}");
    }
    let found = users(SessionQuery {
        search: Some("A".into()),
        ..Default::default()
    });
    assert_eq!(found, ["alice", "carol", "dave"]);
    assert_eq!(
        SessionSort::ALL.map(|(key, sort)| SessionSort::parse(key) == Some(sort)),
        [true; 5]
    );
    assert_eq!(SessionSort::parse("colour"), None);
}

#[test]
fn evaluator_edit_save_assign_delete() {
    let mut sim = sim("", "");
    sim.advance_to(at_secs(5));
    let rules = vec![
        Rule::CpuUtilization(Thresholds { low: 0, high: 50 }),
        Rule::LoadThrottling {
            level: ThrottleLevel::Medium,
        },
    ];
    let e = act(
        &mut sim,
        LmsAction::EvaluatorSave {
            name: "Cpu".into(),
            rules: rules.clone(),
            replaces: None,
        },
    );
    assert_eq!(e.last().map(|e| e.kind.as_str()), Some("evaluator.saved"));
    let e = act(
        &mut sim,
        LmsAction::EvaluatorAssign {
            evaluator: "Cpu".into(),
            servers: vec!["S2".into()],
            applications: vec![],
        },
    );
    assert_eq!(e[0].details["servers"], serde_json::json!(["s2"]));
    assert_eq!(server(&sim, "s2").evaluator, "Cpu");
    let err = sim.apply_now(LmsAction::EvaluatorDelete { name: "Cpu".into() }, None);
    assert_eq!(
        err.map_err(|e| e.to_string()),
        Err(
            "name: evaluator \"Cpu\" is still assigned to servers s2; assign another first"
                .to_owned()
        )
    );
    let preview = sim.lms().preview_evaluator(
        Some("Cpu"),
        "Cpu",
        &[Rule::ServerUserLoad { users: 1 }],
        Some("Word"),
        4,
    );
    let preview = preview.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(preview.rows.len(), 1);
    assert_eq!(preview.launches, 4);
    let total: u32 = preview.placements_edited.iter().map(|p| p.count).sum();
    assert_eq!(total + preview.rejected_edited, 4);
    act(
        &mut sim,
        LmsAction::EvaluatorAssign {
            evaluator: "Default".into(),
            servers: vec!["s2".into()],
            applications: vec![],
        },
    );
    let e = act(&mut sim, LmsAction::EvaluatorDelete { name: "Cpu".into() });
    assert_eq!(e[0].kind, "evaluator.deleted");
    assert!(sim.lms().evaluator("Cpu").is_none());
    assert_eq!(sim.lms().evaluators().len(), 3);
}

#[test]
fn samples_are_one_event_per_zone_listing_changed_servers() {
    let mut sim = sim("", "");
    let events = sim.advance_to(at_secs(300));
    let samples = of_kind(&events, "load.sample");
    let subjects: Vec<&str> = samples.iter().map(|e| e.subject.as_str()).collect();
    assert_eq!(subjects, ["z1", "z2"]);
    let hosts = |e: &engine::Event| -> Vec<String> {
        e.details["servers"]
            .as_object()
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default()
    };
    assert_eq!(hosts(samples[0]), ["s1", "s2", "s3"]);
    assert_eq!(hosts(samples[1]), ["s4", "s5", "s6"]);
    assert_eq!(
        samples[1].details["servers"]["s5"],
        serde_json::json!({
            "connected": 0,
            "dc_load": 1875,
            "disconnected": 0,
            "load": 1875,
            "rules": {"3": 1875.0},
        })
    );
    // Nothing changed (no noise, no sessions): no sample at all.
    let events = sim.advance_to(at_secs(600));
    assert!(of_kind(&events, "load.sample").is_empty());
    // A session on s2: only z1 samples, and only s2 in it.
    act(&mut sim, launch("alice", "Word", None));
    let events = sim.advance_to(at_secs(900));
    let samples = of_kind(&events, "load.sample");
    assert_eq!(samples.len(), 1);
    assert_eq!(samples[0].subject, "z1");
    assert_eq!(hosts(samples[0]), ["s1"]);
    assert_eq!(samples[0].details["servers"]["s1"]["connected"], 1);
}

#[test]
fn ended_sessions_and_pushes_are_aggregated_per_zone_and_sample() {
    let mut sim = sim(
        "[lms.workload]\nsession_duration = \"3m\"\ndisconnect_share = 50\n",
        "",
    );
    sim.advance_to(at_secs(5));
    let mut events = act(
        &mut sim,
        LmsAction::LogonStorm {
            users: 40,
            over: SimDuration::from_mins(1),
            app: None,
        },
    );
    events.extend(sim.advance_to(SimTime::from_mins(60)));
    let mut seen = std::collections::BTreeSet::new();
    let (mut logoffs, mut disconnects) = (0u64, 0u64);
    for kind in ["load.sample", "sessions.ended", "load.pushed"] {
        for e in of_kind(&events, kind) {
            assert!(["z1", "z2"].contains(&e.subject.as_str()), "{e:?}");
            let key = if kind == "load.pushed" {
                "pushes"
            } else {
                "servers"
            };
            let keys: Vec<&String> = e
                .details
                .as_object()
                .map(|m| m.keys().collect())
                .unwrap_or_default();
            assert_eq!(keys, [key], "{e:?}");
            let entries = e.details[key].as_object().cloned().unwrap_or_default();
            assert!(!entries.is_empty(), "{e:?}");
            for (host, entry) in &entries {
                assert!(sim.lms().server(host).is_some_and(|s| s.zone == e.subject));
                let fields: Vec<&String> = entry
                    .as_object()
                    .map(|m| m.keys().collect())
                    .unwrap_or_default();
                let expected: &[&str] = match kind {
                    "load.sample" => &["connected", "dc_load", "disconnected", "load", "rules"],
                    "sessions.ended" => &["count", "disconnected", "load_after"],
                    _ => &["delta", "from", "load", "requested", "true_load"],
                };
                assert_eq!(fields, expected, "{e:?}");
                if kind == "sessions.ended" {
                    logoffs += entry["count"].as_u64().unwrap_or(0);
                    disconnects += entry["disconnected"].as_u64().unwrap_or(0);
                }
            }
            assert!(
                seen.insert((kind, e.t_ms, e.subject.clone())),
                "one per zone and sample instant: {e:?}"
            );
            assert_eq!(e.t_ms % 300_000, 0, "on the sample grid: {e:?}");
        }
    }
    let placed = of_kind(&events, "session.placed");
    let new = placed
        .iter()
        .filter(|e| e.details["mode"] != "reconnect")
        .count() as u64;
    let farm = sim.lms().farm();
    let open = u64::from(farm.sessions_connected + farm.sessions_disconnected);
    assert!(logoffs > 0 && disconnects > 0, "{logoffs} {disconnects}");
    assert_eq!(logoffs, new - open);
    // Hosts are written in key order inside each line.
    for line in common::lines(&events) {
        let hosts: Vec<usize> = ["\"s1\":{", "\"s2\":{", "\"s3\":{"]
            .iter()
            .filter_map(|h| line.find(h))
            .collect();
        assert!(hosts.windows(2).all(|w| w[0] < w[1]), "{line}");
    }
}

#[test]
fn the_load_table_says_what_each_servers_view_says_and_builds_only_the_rows_kept() {
    let mut sim = sim("", "");
    sim.advance_to(at_secs(5));
    act(
        &mut sim,
        LmsAction::LogonStorm {
            users: 30,
            over: SimDuration::from_mins(2),
            app: None,
        },
    );
    // During the storm (logons in progress) and after it.
    for t in [at_secs(40), SimTime::from_mins(10)] {
        sim.advance_to(t);
        let table = sim.lms().load_table();
        assert!(!table.is_empty());
        for row in &table {
            let v = server(&sim, &row.host);
            let codes: Vec<(char, f64)> = v.rule_loads.iter().map(|r| (r.code, r.load)).collect();
            assert_eq!(row.name, v.host_id);
            assert_eq!(row.zone, v.zone);
            assert_eq!(
                row.load,
                v.dc_load.map_or_else(String::new, |l| format!("{l:x}"))
            );
            assert_eq!(row.real_time_rules, if v.lt_load > 0 { "d" } else { "" });
            assert_eq!(row.load_bias, v.load_bias, "{}", row.host);
            assert_eq!(row.lt_load, format!("{:x}", v.lt_load));
            assert_eq!(row.lt_multiplier, v.lt_multiplier, "{}", row.host);
            assert_eq!(
                row.rule_loads,
                engine::lms::rules::rule_loads_string(&codes)
            );
        }
        // One zone's rows: the same rows, only those.
        let zone = table[0].zone.clone();
        let kept = sim.lms().load_table_where(|_, z| z == zone);
        let want: Vec<_> = table.iter().filter(|r| r.zone == zone).cloned().collect();
        assert_eq!(kept, want);
        assert!(
            kept.len() < table.len(),
            "the other zone's rows are not built"
        );
    }
}
