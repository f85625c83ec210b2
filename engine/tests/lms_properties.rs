//! Properties of the load-management engine: the load index stays in 0..=10000; placement
//! never picks a full server or one outside the client's IP ranges; a disconnected user
//! always reconnects; the indexed placer agrees with a naive scan.

mod common;

use common::lms::*;
use engine::lms::config::LoadFormula;
use engine::lms::rules::{index_of, linear, round_index};
use engine::{LmsAction, SimTime};
use proptest::prelude::*;

fn big_farm(servers: usize, restricted_every: usize) -> String {
    let mut src = String::from(
        "[scenario]\nname = \"p\"\n[[lms.zones]]\nid = \"z\"\nname = \"Z\"\n[[lms.zones]]\nid = \"y\"\nname = \"Y\"\n[[lms.applications]]\nname = \"App\"\n[[lms.evaluators]]\nname = \"Ip\"\n[[lms.evaluators.rules]]\nrule = \"ip_range\"\nranges = [\"10.0.0.0-10.0.0.127\"]\n",
    );
    for i in 0..servers {
        let zone = if i % 2 == 0 { "z" } else { "y" };
        let eval = if restricted_every > 0 && i % restricted_every == 0 {
            "Ip"
        } else {
            "Default"
        };
        src.push_str(&format!(
            "[[lms.servers]]\nhost = \"h{i}\"\nzone = \"{zone}\"\nevaluator = \"{eval}\"\napps = [\"App\"]\n"
        ));
    }
    src
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn index_stays_in_range(
        loads in proptest::collection::vec(0.0f64..=10000.0, 0..12),
        average in any::<bool>(),
        v in -1e9f64..1e9, lo in 0u32..1000, span in 1u32..1000,
    ) {
        let f = if average { LoadFormula::Average } else { LoadFormula::Sum };
        let x = index_of(&loads, f);
        prop_assert!((0.0..=10000.0).contains(&x));
        prop_assert!(round_index(x) <= 10000);
        let max = loads.iter().copied().fold(0.0, f64::max);
        prop_assert!(x >= max - 1e-9);
        let l = linear(v, f64::from(lo), f64::from(lo + span));
        prop_assert!((0.0..=10000.0).contains(&l));
    }

    #[test]
    fn indexed_placement_agrees_with_the_scan(
        loads in proptest::collection::vec(0u32..=10000, 40),
        ips in proptest::collection::vec(0u32..256, 20),
        down in proptest::collection::vec(0usize..40, 0..4),
    ) {
        let s = scenario(&big_farm(40, 7));
        let mut sim = engine::Simulation::new(&s, 1);
        sim.advance_to(SimTime::from_secs(1));
        for h in &down {
            let _ = sim.apply_now(LmsAction::ServerReboot { server: format!("h{h}") }, None);
        }
        let mut lms = sim.lms().clone();
        for (i, l) in loads.iter().enumerate() {
            lms.probe_set_dc_load(i, *l);
        }
        for ip in ips {
            let ip = u32::from(core::net::Ipv4Addr::new(10, 0, 0, 0)) + ip;
            let a = lms.probe_choose(0, ip);
            prop_assert_eq!(a, lms.probe_choose_naive(0, ip));
            if let Some((s, load)) = a {
                prop_assert!(load < 10_000);
                prop_assert!(!down.contains(&s));
                // Restricted servers (every 7th) only admit 10.0.0.0-127.
                prop_assert!(s % 7 != 0 || ip & 0xff < 128);
            }
            if let Some(s) = lms.probe_place(0, ip, false, 700) {
                prop_assert!(s < 40);
            }
        }
    }

    #[test]
    fn placement_never_full_or_outside_range_and_reconnect_wins(
        users in proptest::collection::vec((0u8..6, 0u8..4), 1..30),
    ) {
        let mut sim = sim("", "");
        sim.advance_to(SimTime::from_secs(1));
        let ips = ["10.1.0.5", "192.168.0.7", "10.1.3.3", "192.168.0.200"];
        let apps = ["Word", "Excel", "Secure", "Word", "Word", "Secure"];
        for (i, (app, ip)) in users.iter().enumerate() {
            let user = format!("user{}", i % 7);
            let app = apps[*app as usize];
            let ip = ips[*ip as usize];
            let before = sim.lms().sessions(&engine::lms::views::SessionQuery { limit: 500, ..Default::default() });
            let mine = before.rows.iter().find(|r| r.user == user).cloned();
            if mine.as_ref().is_some_and(|m| m.state == engine::lms::views::SessionState::Connected) {
                let _ = sim.apply_now(LmsAction::DisconnectSessions { user: Some(user.clone()), server: None, count: 1 }, None);
                continue;
            }
            let loads: Vec<(String, Option<u32>)> = (1..=6).map(|n| {
                let v = server(&sim, &format!("s{n}"));
                (v.host, v.dc_load)
            }).collect();
            let events = sim.apply_now(launch(&user, app, Some(ip)), None).unwrap_or_default();
            for e in events.iter().filter(|e| e.kind == "session.placed") {
                if let Some(m) = &mine {
                    prop_assert_eq!(&e.subject, &m.server);
                    prop_assert_eq!(&e.details["mode"], "reconnect");
                } else {
                    let held = loads.iter().find(|(h, _)| *h == e.subject).and_then(|(_, l)| *l);
                    prop_assert!(held.is_some_and(|l| l < 10_000));
                    if e.subject == "s6" {
                        prop_assert!(ip.starts_with("192.168.0."));
                    }
                }
            }
            sim.advance_to(sim.now().saturating_add(engine::SimDuration::from_secs(7)));
        }
    }
}
