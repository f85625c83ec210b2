//! The detail pages' charts and logs, read back from a real SQLite file holding three hours of
//! the demo estate with one action of every kind (outage, storm, site down, injected load...).

use engine::lhc::HaState;
use engine::{parse_actions, Scenario, SimTime, Simulation};
use services::charts::autoscale::DECISION_KINDS;
use services::charts::{autoscale, gslb, lhc, lms, Window};
use services::history;

const DEMO: &str = include_str!("../../scenarios/demo.toml");
const EVERY_ACTION: &str = include_str!("../../engine/tests/data/every-action.toml");

/// A temp database holding run 1: the demo estate for three simulated hours.
async fn stored_run() -> (tempfile::TempDir, services::Store, i64) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let url = format!("sqlite://{}", dir.path().join("charts.db").display());
    let pool = services::Store::connect(&url)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let scenario = Scenario::from_toml_str(DEMO, "demo.toml").unwrap_or_else(|e| panic!("{e}"));
    let actions = parse_actions(EVERY_ACTION, "every-action.toml", &scenario)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut sim = Simulation::new(&scenario, 42);
    sim.schedule(actions);
    let events = sim.advance_to(SimTime::from_mins(180));
    let run = history::create_run(&pool, "demo", 42, None)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    history::insert_events(&pool, run.id, 0, &events)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    (dir, pool, run.id)
}

fn newest_first(times: impl Iterator<Item = i64>) -> bool {
    let times: Vec<i64> = times.collect();
    times.windows(2).all(|w| w[0] >= w[1])
}

#[tokio::test]
async fn every_detail_page_reads_its_series_and_log_back() {
    let (_dir, pool, run) = stored_run().await;

    // Resource location: the forced outage at 5 m shows in the band; counts add up to its
    // 160 VDAs; the log names only it and its connectors.
    let connectors: Vec<String> = (1..=3)
        .map(|n| format!("cc0{n}.paris.example.com"))
        .collect();
    let mut subjects = vec!["rl-paris".to_owned()];
    subjects.extend(connectors.iter().cloned());
    let rl = lhc::rl_history(&pool, Window::run(run), "rl-paris", subjects.clone())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        rl.states.first().map(|p| (p.t_ms, p.state)),
        Some((0, HaState::WorkingNormally))
    );
    assert!(
        rl.states.iter().any(|p| p.state == HaState::HaInitial),
        "{:?}",
        rl.states
    );
    assert!(rl.states.windows(2).all(|w| w[0].t_ms <= w[1].t_ms));
    assert!(!rl.registrations.is_empty());
    assert!(rl
        .registrations
        .iter()
        .all(|p| p.cloud + p.secondary + p.unregistered == 160));
    assert!(
        rl.registrations.iter().any(|p| p.secondary > 0),
        "VDAs moved to the secondary broker"
    );
    assert!(!rl.events.is_empty() && rl.events.len() <= lhc::RL_EVENTS as usize);
    assert!(rl.events.iter().all(|e| subjects.contains(&e.subject)));
    assert!(newest_first(rl.events.iter().map(|e| e.t_ms)));
    // Viewed as of 4 minutes (before the outage at 5 m): nothing after that instant.
    let before = Window {
        run_id: run,
        until_ms: Some(240_000),
    };
    let past = lhc::rl_history(&pool, before, "rl-paris", subjects.clone())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(past
        .states
        .iter()
        .all(|p| p.state == HaState::WorkingNormally));
    assert!(past.events.iter().all(|e| e.t_ms <= 240_000));
    assert!(past.registrations.iter().all(|p| p.secondary == 0));

    // Server: samples oldest first with the rule loads of its evaluator; the placements of
    // the 40-minute storm name it; its own events only.
    let server = lms::server_history(
        &pool,
        Window::run(run),
        "XA-PAR-01",
        "z-paris",
        (0, u64::MAX),
    )
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(!server.samples.is_empty());
    assert!(server.samples.windows(2).all(|w| w[0].t_ms <= w[1].t_ms));
    assert!(server.samples.iter().all(|s| s.load <= 10_000));
    assert!(server
        .samples
        .iter()
        .any(|s| s.rules.iter().any(|(code, _)| *code == 'b')));
    assert!(!server.placements.is_empty());
    assert!(server
        .placements
        .iter()
        .all(|p| p.chose_this || p.candidates.iter().any(|c| c.starts_with("XA-PAR-01 "))));
    assert!(server.events.iter().all(|e| e.subject == "XA-PAR-01"));
    // Both kinds are found: the ones that chose it (its own events) and the ones that
    // compared it and chose another (searched among the farm's latest placements).
    assert!(server.placements.iter().any(|p| p.chose_this));
    assert!(server.placements.iter().any(|p| !p.chose_this));

    // A chart's range bounds the samples read: none after its end, none older than the
    // lead-in before its start, and inside it the same samples as the whole series.
    const MIN: u64 = 60_000;
    let (from, to) = (150 * MIN, 170 * MIN);
    let ranged = lms::server_history(&pool, Window::run(run), "XA-PAR-01", "z-paris", (from, to))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let times: Vec<u64> = ranged.samples.iter().map(|s| s.t_ms).collect();
    assert!(
        times
            .iter()
            .all(|t| (from - lms::LEAD_IN_MS..=to).contains(t)),
        "{times:?}"
    );
    assert!(
        times.iter().any(|t| *t <= from),
        "the step in force at the start is read"
    );
    let inside = |samples: &[engine::lms::series::LoadSample]| -> Vec<u64> {
        samples
            .iter()
            .map(|s| s.t_ms)
            .filter(|t| (from..=to).contains(t))
            .collect()
    };
    assert!(!inside(&ranged.samples).is_empty());
    assert_eq!(inside(&ranged.samples), inside(&server.samples));
    assert!(newest_first(
        server.placements.iter().map(|p| p.t_ms as i64)
    ));

    // The bound of that search: the time of the farm's n-th newest placement.
    let placed = history::EventFilter {
        run_id: run,
        engine: Some("lms".into()),
        kind: Some("session.placed".into()),
        ..history::EventFilter::default()
    };
    let all = history::recent_events(&pool, &placed, i64::MAX)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(all.len() > 10, "{} placements", all.len());
    for n in [1, 10, all.len() as i64] {
        let nth = history::nth_newest_t_ms(&pool, &placed, n)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(nth, Some(all[n as usize - 1].t_ms as u64), "n = {n}");
    }
    let beyond = history::nth_newest_t_ms(&pool, &placed, all.len() as i64 + 1)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(beyond, None);

    // Site: SiteP1 went down at 1 h and came back: its links, the adoption of its
    // children and the rest, never the answer log.
    let site = gslb::site_history(&pool, Window::run(run), "SiteP1")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!site.links.is_empty() && site.links.iter().all(|e| e.kind.starts_with("mep.")));
    assert!(site.adoptions.iter().any(|e| e.kind == "adoption.accepted"));
    assert!([&site.links, &site.adoptions, &site.others]
        .iter()
        .all(|list| list.len() <= gslb::SHOWN));
    assert!(site
        .adoptions
        .iter()
        .all(|e| ["adoption.", "child.", "backup_list."]
            .iter()
            .any(|p| e.kind.starts_with(p))));
    assert!(site.others.iter().any(|e| e.kind == "site.down"));
    assert!(site
        .links
        .iter()
        .chain(&site.adoptions)
        .chain(&site.others)
        .all(|e| e.engine == "gslb" && e.kind != "adns.answered"));
    assert!(newest_first(site.adoptions.iter().map(|e| e.t_ms)));

    // Group: decisions and the operator's injected load, nothing else.
    let decisions = autoscale::decisions(&pool, Window::run(run), "asg_web")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(decisions.iter().any(|e| e.kind == "load.injected"));
    assert!(decisions
        .iter()
        .all(|e| e.subject == "asg_web" && DECISION_KINDS.contains(&e.kind.as_str())));
    assert!(newest_first(decisions.iter().map(|e| e.t_ms)));
}
