//! Scale of the load-management engine: the 24 h benchmark farm (100 zones x 100 servers,
//! hourly logon storms, about 500,000 sessions in the day). Ignored by default; run with
//! `cargo test --release -p engine --test lms_scale -- --ignored --nocapture`.
//!
//! `load.sample`, `load.pushed` and `sessions.ended` are one event per zone (per sample or
//! tick), so the day writes about 0.83 M events (it was about 2 M with one per server):
//! `session.placed` (one per launch) dominates.

use engine::lms::config::{ApplicationConfig, LmsConfig, RecurringStorm, ServerConfig, ZoneConfig};
use engine::{Apply, Engine, LmsAction, LmsEngine, Rng, SimDuration, SimTime};

fn farm(zones: usize, per_zone: usize, storm_users: u32) -> LmsConfig {
    let mut cfg = LmsConfig::default();
    for a in ["Word", "Excel", "Outlook"] {
        cfg.applications.push(ApplicationConfig {
            name: a.into(),
            evaluator: None,
        });
    }
    for z in 0..zones {
        cfg.zones.push(ZoneConfig {
            id: format!("z{z:03}"),
            name: format!("Zone {z}"),
        });
        for i in 0..per_zone {
            cfg.servers.push(ServerConfig {
                host: format!("xa{z:03}{i:03}"),
                zone: format!("z{z:03}"),
                evaluator: "Default".into(),
                apps: vec!["Word".into(), "Excel".into(), "Outlook".into()],
                election_preference: Default::default(),
            });
        }
    }
    cfg.workload.recurring_storm = Some(RecurringStorm {
        every: SimDuration::from_hours(1),
        users: storm_users,
        over: SimDuration::from_mins(10),
        app: None,
    });
    cfg
}

#[test]
#[ignore = "scale run: minutes in debug builds"]
fn a_day_of_hourly_storms_on_10000_servers() {
    let cfg = farm(100, 100, 20_834);
    let mut engine = LmsEngine::new(&cfg, &Rng::new(1));
    let mut events = 0usize;
    let mut kinds = std::collections::BTreeMap::<String, usize>::new();
    let mut peak = 0u32;
    let start = std::time::Instant::now();
    for m in 1..=24 * 60 {
        let mut out = Vec::new();
        engine.advance(SimTime::from_mins(m), &mut out);
        events += out.len();
        for e in &out {
            *kinds.entry(e.kind.clone()).or_default() += 1;
        }
        if m % 60 == 0 {
            let f = engine.farm();
            peak = peak.max(f.sessions_connected + f.sessions_disconnected);
        }
    }
    println!("wall {:?}", start.elapsed());
    let f = engine.farm();
    println!(
        "events {events}, placements {}, rejected {}, peak sessions {peak}",
        f.placements, f.rejected
    );
    println!("{kinds:?}");
    assert!(events <= 700_000, "{events} events");
    // Per zone: at most one `load.sample`, `load.pushed` and `sessions.ended` per zone per
    // `sample_interval` (5 m) (and the samples at t = 0).
    let count = |k: &str| kinds.get(k).copied().unwrap_or(0);
    for kind in ["load.sample", "load.pushed", "sessions.ended"] {
        assert!(count(kind) <= 100 * (24 * 12 + 1), "{kind}: {kinds:?}");
    }
}

#[test]
#[ignore = "scale run: memory of 500,000 concurrent sessions"]
fn half_a_million_concurrent_sessions() {
    let mut cfg = farm(100, 100, 100_000);
    cfg.workload.session_duration = SimDuration::from_hours(200);
    cfg.workload.disconnect_share = 0;
    cfg.workload.recurring_storm = None;
    let mut engine = LmsEngine::new(&cfg, &Rng::new(1));
    let mut out = Vec::new();
    engine.advance(SimTime::ZERO, &mut out);
    for k in 0..5u64 {
        let storm = LmsAction::LogonStorm {
            users: 100_000,
            over: SimDuration::from_mins(30),
            app: None,
        };
        let t = SimTime::from_mins(40 * k);
        engine.advance(t, &mut out);
        out.clear();
        let _ = engine.apply(t, &storm, None, &mut out);
        out.clear();
        for m in 1..=40 {
            engine.advance(t.saturating_add(SimDuration::from_mins(m)), &mut out);
            out.clear();
        }
    }
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    for line in status
        .lines()
        .filter(|l| l.starts_with("VmHWM") || l.starts_with("VmRSS"))
    {
        println!("{line}");
    }
    let f = engine.farm();
    println!(
        "sessions {} rejected {}",
        f.sessions_connected + f.sessions_disconnected,
        f.rejected
    );
    assert!(f.sessions_connected + f.sessions_disconnected >= 490_000);
}
