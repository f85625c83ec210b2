//! One suite for both stores: every test runs on a fresh SQLite file and on a fresh
//! PostgreSQL database of the throwaway cluster that `make test` starts
//! (scripts/with-postgres.sh sets `SWITCHYARD_TEST_POSTGRES_URL`). Run without that variable
//! (a bare `cargo test`), the PostgreSQL half says so and is skipped; `make test` always has it.

use std::collections::BTreeMap;

use engine::{CoreAction, EngineId, Event, Role, SimTime, Speed};
use services::history::{self, Cursor, EventFilter, EventOrder, PageAt};
use services::journal::{self, AuditRow, Entry, Journaled};
use services::snapshots::{self, SnapshotRow};
use services::store::Dialect;
use services::{accounts, audit, ServiceError, Store};

mod common;
use common::stores;

fn demo() -> engine::Scenario {
    engine::Scenario::from_toml_str(include_str!("../../scenarios/demo.toml"), "demo.toml")
        .expect("demo scenario")
}

fn ev(t: u64, subject: &str, kind: &str) -> Event {
    Event::new(
        SimTime(t),
        EngineId::Core,
        subject,
        kind,
        serde_json::json!({ "t": t, "host": format!("XA-{}", t % 7) }),
    )
}

fn times(rows: &[history::StoredEvent]) -> Vec<i64> {
    rows.iter().map(|r| r.t_ms).collect()
}

#[tokio::test]
async fn accounts_are_unique_by_name_whatever_the_case_and_keep_one_admin() {
    for (store, _dir) in stores().await {
        let d = store.dialect();
        let admin = accounts::create(&store, "Alice", "correct horse", Role::Admin)
            .await
            .expect("create");
        let again = accounts::create(&store, "alice", "another secret", Role::Viewer).await;
        assert!(
            matches!(again, Err(ServiceError::Conflict(_))),
            "{d:?}: {again:?}"
        );
        accounts::create(&store, "bob", "bob's secret", Role::Viewer)
            .await
            .expect("create");
        let found = accounts::find_by_name(&store, "ALICE").await.expect("find");
        assert_eq!(found.map(|u| u.id), Some(admin.id), "{d:?}");
        let names: Vec<String> = accounts::list(&store)
            .await
            .expect("list")
            .into_iter()
            .map(|u| u.username)
            .collect();
        assert_eq!(names, ["Alice", "bob"], "{d:?}");
        let ok = accounts::authenticate(&store, "alice", "correct horse").await;
        assert_eq!(ok.expect("auth").map(|u| u.id), Some(admin.id), "{d:?}");
        let wrong = accounts::authenticate(&store, "alice", "wrong").await;
        assert_eq!(wrong.expect("auth"), None, "{d:?}");
        let demoted = accounts::set_role(&store, admin.id, Role::Viewer).await;
        assert!(
            matches!(demoted, Err(ServiceError::Invalid { .. })),
            "{d:?}: the last admin stays"
        );
        assert_eq!(accounts::count(&store).await.expect("count"), 2, "{d:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_admins_demoting_or_disabling_each_other_at_once_leave_one_admin() {
    for (store, _dir) in stores().await {
        let d = store.dialect();
        let a = accounts::create(&store, "ada", "first admin secret", Role::Admin)
            .await
            .expect("create");
        let b = accounts::create(&store, "bea", "second admin secret", Role::Admin)
            .await
            .expect("create");
        for trial in 0..50 {
            // Demote / demote, disable / demote, disable / disable in turn.
            let disables = [(false, false), (true, false), (true, true)][trial % 3];
            let take = |id: i64, disable: bool| {
                let store = store.clone();
                tokio::spawn(async move {
                    if disable {
                        accounts::set_disabled(&store, id, true).await
                    } else {
                        accounts::set_role(&store, id, Role::Viewer).await
                    }
                })
            };
            let (first, second) = tokio::join!(take(a.id, disables.0), take(b.id, disables.1));
            let outcomes = [first.expect("task"), second.expect("task")];
            let admins: Vec<String> = accounts::list(&store)
                .await
                .expect("list")
                .into_iter()
                .filter(|u| u.role == Role::Admin && u.disabled_at.is_none())
                .map(|u| u.username)
                .collect();
            assert_eq!(
                admins.len(),
                1,
                "{d:?}, trial {trial}: {admins:?} after {outcomes:?}"
            );
            let refused = outcomes
                .iter()
                .filter(|o| matches!(o, Err(ServiceError::Invalid { .. })))
                .count();
            assert_eq!(refused, 1, "{d:?}, trial {trial}: {outcomes:?}");
            for id in [a.id, b.id] {
                accounts::set_disabled(&store, id, false)
                    .await
                    .expect("enable again");
                accounts::set_role(&store, id, Role::Admin)
                    .await
                    .expect("promote again");
            }
        }
    }
}

#[tokio::test]
async fn sessions_end_with_a_reset_a_disabling_or_a_deletion() {
    for (store, _dir) in stores().await {
        let d = store.dialect();
        let user = accounts::create(&store, "carol", "carol's long secret", Role::Operator)
            .await
            .expect("create");
        assert_eq!(user.session_epoch, 0);
        let signed_in = |epoch| accounts::find_signed_in(&store, user.id, epoch);
        assert!(signed_in(0).await.expect("find").is_some(), "{d:?}");
        let reset = accounts::reset_password(&store, user.id, "a different long secret")
            .await
            .expect("reset");
        assert_eq!(reset.session_epoch, 1, "{d:?}");
        assert!(
            signed_in(0).await.expect("find").is_none(),
            "{d:?}: the old session ended"
        );
        assert!(signed_in(1).await.expect("find").is_some(), "{d:?}");
        let refused = accounts::reset_password(&store, user.id, "password").await;
        assert!(
            matches!(refused, Err(ServiceError::Invalid { .. })),
            "{d:?}"
        );

        accounts::set_disabled(&store, user.id, true)
            .await
            .expect("disable");
        assert!(
            signed_in(1).await.expect("find").is_none(),
            "{d:?}: disabled"
        );
        let auth = accounts::authenticate(&store, "carol", "a different long secret").await;
        assert_eq!(
            auth.expect("auth"),
            None,
            "{d:?}: a disabled user cannot sign in"
        );
        accounts::set_disabled(&store, user.id, false)
            .await
            .expect("enable");
        assert!(signed_in(1).await.expect("find").is_some(), "{d:?}");

        let deleted = accounts::delete(&store, user.id).await.expect("delete");
        assert_eq!(deleted.username, "carol");
        assert!(
            signed_in(1).await.expect("find").is_none(),
            "{d:?}: deleted"
        );
        let again = accounts::delete(&store, user.id).await;
        assert!(matches!(again, Err(ServiceError::NotFound(_))), "{d:?}");
    }
}

#[tokio::test]
async fn the_audit_log_lists_newest_first() {
    for (store, _dir) in stores().await {
        audit::record(&store, "alice", "clock.pause", &serde_json::json!({}), "ok")
            .await
            .expect("record");
        audit::record(
            &store,
            "bob",
            "clock.step",
            &serde_json::json!({ "n": 1 }),
            "refused",
        )
        .await
        .expect("record");
        let (rows, total) = audit::list(&store, 0, 10).await.expect("list");
        assert_eq!(total, 2);
        assert_eq!(
            (
                rows[0].actor.as_str(),
                rows[0].arguments.as_str(),
                rows[0].outcome.as_str()
            ),
            ("bob", r#"{"n":1}"#, "refused"),
            "{:?}",
            store.dialect()
        );
        assert_eq!(rows[1].action, "clock.pause");
        // One row's arguments by its id, as the audit page's JSON disclosure reads them.
        assert_eq!(
            audit::arguments(&store, rows[0].id)
                .await
                .expect("arguments")
                .as_deref(),
            Some(r#"{"n":1}"#),
            "{:?}",
            store.dialect()
        );
        assert_eq!(
            audit::arguments(&store, rows[0].id + 100)
                .await
                .expect("arguments"),
            None
        );
    }
}

#[tokio::test]
async fn the_audit_log_is_filtered_by_user_action_and_outcome_in_either_order() {
    for (store, _dir) in stores().await {
        let rows = [
            ("alice", "clock.set_speed", "ok"),
            ("bob", "lhc.force_outage", "ok"),
            ("alice", "lhc.force_outage", "refused: not HA-ready"),
            ("carol", "lhc.clear_outage", "ok"),
            ("alice", "clock.step", "ok"),
        ];
        for (actor, action, outcome) in rows {
            audit::record(&store, actor, action, &serde_json::json!({}), outcome)
                .await
                .expect("record");
        }
        let filter =
            |actor: Option<&str>, action: Option<&str>, refused, oldest_first| audit::AuditFilter {
                actor: actor.map(str::to_owned),
                action_prefix: action.map(str::to_owned),
                refused,
                sort: audit::AuditSort::Time,
                oldest_first,
            };
        // (filter, (actor, action) of the rows kept, in order)
        let cases: [(audit::AuditFilter, &[(&str, &str)]); 7] = [
            (
                filter(Some("alice"), None, None, false),
                &[
                    ("alice", "clock.step"),
                    ("alice", "lhc.force_outage"),
                    ("alice", "clock.set_speed"),
                ],
            ),
            (
                filter(None, Some("lhc."), None, true),
                &[
                    ("bob", "lhc.force_outage"),
                    ("alice", "lhc.force_outage"),
                    ("carol", "lhc.clear_outage"),
                ],
            ),
            (
                filter(None, None, Some(true), false),
                &[("alice", "lhc.force_outage")],
            ),
            (
                filter(Some("alice"), Some("clock."), Some(false), true),
                &[("alice", "clock.set_speed"), ("alice", "clock.step")],
            ),
            (filter(Some("Alice"), None, None, false), &[]),
            (filter(None, Some("lhc.force_outage_"), None, false), &[]),
            (filter(Some("dave"), None, None, false), &[]),
        ];
        for (f, want) in cases {
            let (page, total, matching) =
                audit::list_filtered(&store, &f, 0, 10).await.expect("list");
            let got: Vec<(&str, &str)> = page
                .iter()
                .map(|r| (r.actor.as_str(), r.action.as_str()))
                .collect();
            assert_eq!(got, want, "{:?} {f:?}", store.dialect());
            assert_eq!(
                (total, matching),
                (5, want.len() as i64),
                "{:?} {f:?}",
                store.dialect()
            );
        }
        // Paged: the second page of alice's actions, oldest first.
        let alice = filter(Some("alice"), None, None, true);
        let (page, _, matching) = audit::list_filtered(&store, &alice, 2, 2)
            .await
            .expect("list");
        assert_eq!(matching, 3);
        assert_eq!(page.len(), 1);
        assert_eq!(page[0].action, "clock.step");
        // Sorted by a column, either way; equal names keep the order they were written in.
        let sorted = |sort, oldest_first| audit::AuditFilter {
            sort,
            oldest_first,
            ..audit::AuditFilter::default()
        };
        // (order, smallest first, (actor, action) of the first three rows)
        type FirstRows<'a> = [(&'a str, &'a str); 3];
        let orders: [(audit::AuditSort, bool, FirstRows); 4] = [
            (
                audit::AuditSort::Actor,
                true,
                [
                    ("alice", "clock.set_speed"),
                    ("alice", "lhc.force_outage"),
                    ("alice", "clock.step"),
                ],
            ),
            (
                audit::AuditSort::Actor,
                false,
                [
                    ("carol", "lhc.clear_outage"),
                    ("bob", "lhc.force_outage"),
                    ("alice", "clock.step"),
                ],
            ),
            (
                audit::AuditSort::Action,
                true,
                [
                    ("alice", "clock.set_speed"),
                    ("alice", "clock.step"),
                    ("carol", "lhc.clear_outage"),
                ],
            ),
            (
                audit::AuditSort::Outcome,
                false,
                [
                    ("alice", "lhc.force_outage"),
                    ("alice", "clock.step"),
                    ("carol", "lhc.clear_outage"),
                ],
            ),
        ];
        for (sort, oldest_first, want) in orders {
            let f = sorted(sort, oldest_first);
            let (page, _, _) = audit::list_filtered(&store, &f, 0, 3).await.expect("list");
            let got: Vec<(&str, &str)> = page
                .iter()
                .map(|r| (r.actor.as_str(), r.action.as_str()))
                .collect();
            assert_eq!(got, want, "{:?} {f:?}", store.dialect());
        }
    }
}

#[tokio::test]
async fn runs_are_created_found_and_closed() {
    for (store, _dir) in stores().await {
        let d = store.dialect();
        let first = history::create_run(&store, "demo", u64::MAX, Some("[scenario]"))
            .await
            .expect("run");
        history::set_start_speed(&store, first.id, Speed::X60)
            .await
            .expect("speed");
        let (open, speed) = history::unfinished_run(&store)
            .await
            .expect("unfinished")
            .expect("one");
        assert_eq!(
            (open.id, speed.as_deref()),
            (first.id, Some("60x")),
            "{d:?}"
        );
        assert_eq!(open.seed as u64, u64::MAX, "{d:?}: the seed keeps its bits");
        let (_, text) = history::find_run(&store, first.id)
            .await
            .expect("find")
            .expect("found");
        assert_eq!(text.as_deref(), Some("[scenario]"), "{d:?}");
        history::end_unfinished_runs(&store).await.expect("end");
        assert!(history::unfinished_run(&store)
            .await
            .expect("none")
            .is_none());
        let second = history::create_run(&store, "demo", 1, None)
            .await
            .expect("run");
        let ids: Vec<i64> = history::list_runs(&store)
            .await
            .expect("list")
            .iter()
            .map(|r| r.id)
            .collect();
        assert_eq!(ids, [second.id, first.id], "{d:?}: newest first");
        assert!(history::find_run(&store, 999)
            .await
            .expect("find")
            .is_none());
    }
}

/// 1,200 events of run A at 10 ms apart, subjects `a` and `b` in turn, 5 of run B.
async fn stored_history(store: &Store) -> (i64, i64, Vec<Event>) {
    let run = history::create_run(store, "demo", 7, None)
        .await
        .expect("run");
    let other = history::create_run(store, "demo", 8, None)
        .await
        .expect("run");
    let events: Vec<Event> = (0..1200)
        .map(|i| ev(i * 10, if i % 2 == 0 { "a" } else { "b" }, "heartbeat"))
        .collect();
    history::insert_events(store, run.id, 0, &events)
        .await
        .expect("insert");
    // Produced again by a resumed run: stored once.
    history::insert_events(store, run.id, 1000, &events[1000..])
        .await
        .expect("insert again");
    history::insert_events(store, other.id, 0, &events[..5])
        .await
        .expect("insert");
    (run.id, other.id, events)
}

#[tokio::test]
async fn events_are_stored_once_and_read_back_by_filter() {
    for (store, _dir) in stores().await {
        let d = store.dialect();
        let (run, other, _) = stored_history(&store).await;
        let (seq, t) = history::stored_extent(&store, run).await.expect("extent");
        assert_eq!((seq, t), (Some(1199), Some(11_990)), "{d:?}");
        assert_eq!(
            history::recorded_until(&store, run).await.expect("until"),
            11_990
        );
        assert_eq!(
            history::stored_extent(&store, 999).await.expect("none"),
            (None, None)
        );

        let all = EventFilter {
            run_id: run,
            ..Default::default()
        };
        let newest = history::recent_events(&store, &all, 3)
            .await
            .expect("recent");
        assert_eq!(times(&newest), [11_990, 11_980, 11_970], "{d:?}");

        let cases: Vec<(EventFilter, Vec<i64>)> = vec![
            (
                EventFilter {
                    run_id: run,
                    subject: Some("a".into()),
                    from_ms: Some(100),
                    to_ms: Some(200),
                    ..Default::default()
                },
                vec![100, 120, 140, 160, 180, 200],
            ),
            (
                EventFilter {
                    run_id: run,
                    subjects: vec!["a".into(), "b".into()],
                    kinds: vec!["heartbeat".into(), "other".into()],
                    to_ms: Some(30),
                    ..Default::default()
                },
                vec![0, 10, 20, 30],
            ),
            (
                EventFilter {
                    run_id: run,
                    engine: Some("core".into()),
                    kind: Some("heartbeat".into()),
                    details_contains: Some(r#""host":"XA-3""#.into()),
                    to_ms: Some(300),
                    ..Default::default()
                },
                vec![10, 80, 150, 220, 290],
            ),
            (
                EventFilter {
                    run_id: run,
                    engine: Some("lhc".into()),
                    ..Default::default()
                },
                vec![],
            ),
            (
                EventFilter {
                    run_id: other,
                    ..Default::default()
                },
                vec![0, 10, 20, 30, 40],
            ),
        ];
        for (filter, want) in cases {
            let rows = history::events_after(&store, &filter, None, 1000)
                .await
                .expect("read");
            assert_eq!(times(&rows), want, "{d:?}: {filter:?}");
        }
        let series = history::latest_in_time_order(&store, &all, 2)
            .await
            .expect("series");
        assert_eq!(times(&series), [11_980, 11_990], "{d:?}");
        assert_eq!(series[0].details, r#"{"host":"XA-3","t":11980}"#, "{d:?}");

        // One event's details, by its run, instant and place; nothing for another run's key
        // or an instant that is not the event's.
        let key = Cursor::of(&series[0]);
        let details = |run_id: i64, at: Cursor| {
            let store = &store;
            async move {
                history::event_details(store, run_id, at)
                    .await
                    .expect("details")
            }
        };
        assert_eq!(
            details(run, key).await.as_deref(),
            Some(r#"{"host":"XA-3","t":11980}"#),
            "{d:?}"
        );
        assert_eq!(details(other, key).await, None, "{d:?}");
        let elsewhen = Cursor {
            t_ms: key.t_ms + 1,
            ..key
        };
        assert_eq!(details(run, elsewhen).await, None, "{d:?}");
    }
}

#[tokio::test]
async fn pages_walk_the_whole_history_both_ways_by_keyset() {
    for (store, _dir) in stores().await {
        let d = store.dialect();
        let (run, _, _) = stored_history(&store).await;
        let filter = EventFilter {
            run_id: run,
            subject: Some("b".into()),
            ..Default::default()
        };
        // Down from the newest, 7 at a time: every event of `b` once, newest first.
        let mut seen = Vec::new();
        let mut at = PageAt::Newest;
        let mut pages = Vec::new();
        loop {
            let page = history::page(&store, &filter, at, 7).await.expect("page");
            assert!(page.rows.len() <= 7);
            seen.extend(times(&page.rows));
            pages.push(page.clone());
            match page.older {
                Some(c) => at = PageAt::Older(c),
                None => break,
            }
        }
        let want: Vec<i64> = (0..600).rev().map(|i| i * 20 + 10).collect();
        assert_eq!(seen, want, "{d:?}");
        assert_eq!(pages.len(), 600_usize.div_ceil(7), "{d:?}");
        assert_eq!(pages[0].newer, None, "{d:?}: the first page is the newest");
        // Back up from the oldest page: the same pages, in reverse.
        let mut at = PageAt::Newer(Cursor::of(&pages[pages.len() - 1].rows[0]));
        let mut back = pages.len() - 1;
        while back > 0 {
            back -= 1;
            let page = history::page(&store, &filter, at, 7).await.expect("page");
            assert_eq!(
                times(&page.rows),
                times(&pages[back].rows),
                "{d:?}: page {back}"
            );
            match page.newer {
                Some(c) => at = PageAt::Newer(c),
                None => break,
            }
        }
        assert_eq!(back, 0, "{d:?}: walked back to the newest page");
        // Up from the oldest, 7 at a time (each page newest first): every event once.
        let mut at = PageAt::Oldest;
        let mut up = Vec::new();
        loop {
            let page = history::page(&store, &filter, at, 7).await.expect("page");
            assert!(page.rows.len() <= 7);
            if at == PageAt::Oldest {
                assert_eq!(page.older, None, "{d:?}: the first page is the oldest");
                assert_eq!(times(&page.rows), [130, 110, 90, 70, 50, 30, 10], "{d:?}");
            }
            up.extend(times(&page.rows).into_iter().rev());
            match page.newer {
                Some(c) => at = PageAt::Newer(c),
                None => break,
            }
        }
        assert_eq!(up, want.iter().rev().copied().collect::<Vec<_>>(), "{d:?}");
    }
}

#[tokio::test]
async fn subjects_are_found_by_the_start_of_their_name_and_their_pages_merged() {
    for (store, _dir) in stores().await {
        let d = store.dialect();
        let run = history::create_run(&store, "search", 9, None)
            .await
            .expect("run");
        // Four servers and a zone, in turn every 10 ms.
        let subjects = ["XA-1", "XA-2", "XA-20", "XB-1", "z-paris"];
        let events: Vec<Event> = (0..500_u64)
            .map(|i| ev(i * 10, subjects[(i % 5) as usize], "heartbeat"))
            .collect();
        history::insert_events(&store, run.id, 0, &events)
            .await
            .expect("insert");
        let search = |prefix: &'static str, cap: usize| {
            let store = &store;
            async move {
                history::subjects_starting_with(store, run.id, prefix, cap)
                    .await
                    .expect("search")
            }
        };
        let names = |v: &[&str]| Some(v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
        assert_eq!(
            search("XA-", 20).await,
            names(&["XA-1", "XA-2", "XA-20"]),
            "{d:?}"
        );
        assert_eq!(search("XA-2", 20).await, names(&["XA-2", "XA-20"]), "{d:?}");
        assert_eq!(
            search("X", 20).await,
            names(&["XA-1", "XA-2", "XA-20", "XB-1"])
        );
        assert_eq!(search("X", 3).await, None, "{d:?}: more than the cap");
        assert_eq!(search("X", 4).await.map(|v| v.len()), Some(4));
        assert_eq!(search("Y", 20).await, names(&[]), "{d:?}");
        assert_eq!(search("", 20).await.map(|v| v.len()), Some(5));
        // A page of several subjects is their events merged in time order, by keyset.
        let filter = EventFilter {
            run_id: run.id,
            subjects: vec!["XA-2".into(), "XA-20".into()],
            ..Default::default()
        };
        let mut seen = Vec::new();
        let mut at = PageAt::Newest;
        loop {
            let page = history::page(&store, &filter, at, 7).await.expect("page");
            assert!(page.rows.len() <= 7);
            assert!(page.rows.iter().all(|r| r.subject.starts_with("XA-2")));
            seen.extend(times(&page.rows));
            match page.older {
                Some(c) => at = PageAt::Older(c),
                None => break,
            }
        }
        let want: Vec<i64> = (0..500)
            .rev()
            .filter(|i| i % 5 == 1 || i % 5 == 2)
            .map(|i| i * 10)
            .collect();
        assert_eq!(seen, want, "{d:?}");
        let oldest = history::page(&store, &filter, PageAt::Oldest, 4)
            .await
            .expect("page");
        assert_eq!(times(&oldest.rows), [70, 60, 20, 10], "{d:?}");
        assert_eq!(oldest.older, None, "{d:?}");
    }
}

#[tokio::test]
async fn every_order_walks_the_whole_history_both_ways_by_keyset() {
    for (store, _dir) in stores().await {
        let d = store.dialect();
        let run = history::create_run(&store, "orders", 3, None)
            .await
            .expect("run");
        // Three engines, four subjects and two kinds, interleaved so that no order is the
        // time order; one event every 10 ms.
        let engines = [EngineId::Lhc, EngineId::Lms, EngineId::Gslb];
        let subjects = ["b", "a", "c", "a2"];
        let events: Vec<Event> = (0..300_u64)
            .map(|i| {
                Event::new(
                    SimTime(i * 10),
                    engines[(i % 3) as usize],
                    subjects[(i % 4) as usize],
                    ["x", "y"][(i / 7 % 2) as usize],
                    serde_json::json!({ "i": i }),
                )
            })
            .collect();
        history::insert_events(&store, run.id, 0, &events)
            .await
            .expect("insert");
        type Row = (String, String, String, i64);
        let row = |r: &history::StoredEvent| -> Row {
            (r.engine.clone(), r.subject.clone(), r.kind.clone(), r.t_ms)
        };
        let key = |order: EventOrder, r: &Row| -> (String, String, i64) {
            match order {
                EventOrder::Time => (String::new(), String::new(), r.3),
                EventOrder::Engine => (r.0.clone(), String::new(), r.3),
                EventOrder::Subject => (r.1.clone(), String::new(), r.3),
                EventOrder::Kind => (r.0.clone(), r.2.clone(), r.3),
            }
        };
        let filters = [
            EventFilter {
                run_id: run.id,
                ..Default::default()
            },
            EventFilter {
                run_id: run.id,
                subjects: vec!["a".into(), "a2".into()],
                ..Default::default()
            },
            EventFilter {
                run_id: run.id,
                engine: Some("lms".into()),
                ..Default::default()
            },
        ];
        for filter in &filters {
            for order in EventOrder::ALL {
                let at = |p| history::sorted_page(&store, filter, order, p, 7);
                let mut want: Vec<Row> = events
                    .iter()
                    .map(|e| {
                        (
                            e.engine.as_str().to_owned(),
                            e.subject.clone(),
                            e.kind.clone(),
                            e.t_ms as i64,
                        )
                    })
                    .filter(|r| filter.engine.as_ref().is_none_or(|e| *e == r.0))
                    .filter(|r| filter.subjects.is_empty() || filter.subjects.contains(&r.1))
                    .collect();
                want.sort_by_key(|r| key(order, r));
                want.reverse();
                // Down from the largest end, 7 at a time: every event once, in the order.
                let mut down = Vec::new();
                let mut place = PageAt::Newest;
                loop {
                    let page = at(place).await.expect("page");
                    assert!(page.rows.len() <= 7);
                    if place == PageAt::Newest {
                        assert_eq!(page.newer, None, "{d:?} {order:?}");
                    }
                    down.extend(page.rows.iter().map(row));
                    match page.older {
                        Some(c) => place = PageAt::Older(c),
                        None => break,
                    }
                }
                assert_eq!(down, want, "{d:?} {order:?} {filter:?}");
                // Up from the other end: the same events the other way round.
                let mut up = Vec::new();
                let mut place = PageAt::Oldest;
                loop {
                    let page = at(place).await.expect("page");
                    if place == PageAt::Oldest {
                        assert_eq!(page.older, None, "{d:?} {order:?}");
                    }
                    up.extend(page.rows.iter().rev().map(row));
                    match page.newer {
                        Some(c) => place = PageAt::Newer(c),
                        None => break,
                    }
                }
                want.reverse();
                assert_eq!(up, want, "{d:?} {order:?} {filter:?}");
            }
        }
        // A page's place that is not stored (gone with retention) is named, not guessed.
        let gone = Cursor { t_ms: 5, id: 9_999 };
        let refused = history::sorted_page(
            &store,
            &filters[0],
            EventOrder::Subject,
            PageAt::Older(gone),
            7,
        )
        .await;
        assert!(
            matches!(refused, Err(ServiceError::NotFound(_))),
            "{d:?}: {refused:?}"
        );
    }
}

#[tokio::test]
async fn the_journal_is_appended_with_its_audit_row_and_read_in_order() {
    for (store, _dir) in stores().await {
        let d = store.dialect();
        let run = history::create_run(&store, "demo", 7, None)
            .await
            .expect("run");
        let mut conn = store
            .journal_connection()
            .await
            .expect("journal connection");
        let note = |seq: u64, t: u64| Journaled {
            seq,
            t_ms: t,
            entry: Entry::Action(
                CoreAction::Note {
                    text: format!("n{seq}"),
                }
                .into(),
            ),
            actor: Some("alice".into()),
        };
        let audit_row = AuditRow {
            actor: "alice".into(),
            action: "note".into(),
            arguments: serde_json::json!({ "text": "n0" }),
        };
        journal::append(&mut conn, run.id, &[note(0, 5)], Some(&audit_row), None)
            .await
            .expect("append");
        journal::append(&mut conn, run.id, &[note(1, 9), note(2, 12)], None, None)
            .await
            .expect("append");
        let twice = journal::append(&mut conn, run.id, &[note(2, 12)], None, None).await;
        assert!(twice.is_err(), "{d:?}: an entry's place is taken once");
        let all = journal::read(&store, run.id, 0).await.expect("read");
        assert_eq!(all.iter().map(|j| j.seq).collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(all[2], note(2, 12), "{d:?}");
        let until = journal::read_until(&store, run.id, 1, Some(SimTime(10)))
            .await
            .expect("read");
        assert_eq!(until, [note(1, 9)], "{d:?}");
        let (rows, _) = audit::list(&store, 0, 10).await.expect("audit");
        assert_eq!(rows.len(), 1, "{d:?}: the audit row of the first append");
    }
}

#[tokio::test]
async fn snapshots_are_stored_and_the_latest_before_an_instant_restored() {
    for (store, _dir) in stores().await {
        let d = store.dialect();
        let scenario = demo();
        let run = history::create_run(&store, "demo", 3, None)
            .await
            .expect("run");
        let mut sim = engine::Simulation::new(&scenario, 3);
        let mut conn = store.events_connection().await.expect("events connection");
        let counts = BTreeMap::from([("core".to_owned(), 4_u64)]);
        for t in [60_000, 120_000] {
            sim.advance_to(SimTime(t));
            let row = SnapshotRow::take(&sim, t / 60_000, t / 1_000, &counts, Speed::X60);
            snapshots::insert(&mut conn, run.id, &row)
                .await
                .expect("insert");
        }
        let at_90s = snapshots::latest(&store, run.id, Some(SimTime(90_000)))
            .await
            .expect("latest")
            .expect("one");
        assert_eq!(
            (at_90s.sim.now(), at_90s.journal_seq, at_90s.event_seq),
            (SimTime(60_000), 1, 60),
            "{d:?}"
        );
        assert_eq!(at_90s.per_engine, counts);
        assert_eq!(at_90s.speed, Some(Speed::X60));
        let newest = snapshots::latest(&store, run.id, None)
            .await
            .expect("latest");
        assert_eq!(newest.map(|s| s.sim.now()), Some(SimTime(120_000)), "{d:?}");
        assert!(snapshots::latest(&store, run.id, Some(SimTime(1)))
            .await
            .expect("none")
            .is_none());
    }
}

#[tokio::test]
async fn the_runtime_runs_journals_and_resumes_on_either_store() {
    for (store, _dir) in stores().await {
        let d = store.dialect();
        let scenario = demo();
        let rt = services::runtime::start(store.clone(), &scenario, 42, Vec::new(), Speed::Paused)
            .await
            .expect("start");
        rt.step("alice").await.expect("step");
        rt.apply(
            CoreAction::Note {
                text: "on either store".into(),
            },
            "alice",
        )
        .await
        .expect("note");
        let run = rt.run();
        let before = rt.status().t_ms;
        rt.shutdown().await;
        let (seq, _) = history::stored_extent(&store, run.id)
            .await
            .expect("extent");
        assert!(seq.is_some_and(|s| s > 0), "{d:?}: events stored");

        let (unfinished, start) = history::unfinished_run(&store)
            .await
            .expect("unfinished")
            .expect("the run is unfinished");
        let start = start.and_then(|s| s.parse().ok()).unwrap_or(Speed::Paused);
        let resumed = services::runtime::resume(
            store.clone(),
            &scenario,
            unfinished,
            start,
            None,
            Default::default(),
        )
        .await
        .expect("resume");
        assert_eq!(resumed.run().id, run.id, "{d:?}: the same run goes on");
        assert_eq!(
            resumed.status().t_ms,
            before,
            "{d:?}: the clock where it was"
        );
        let notes = history::events_after(
            &store,
            &EventFilter {
                run_id: run.id,
                kind: Some("operator.note".into()),
                details_contains: Some("on either store".into()),
                ..Default::default()
            },
            None,
            10,
        )
        .await
        .expect("notes");
        assert_eq!(notes.len(), 1, "{d:?}: the note stored once: {notes:?}");
        assert_eq!(notes[0].actor.as_deref(), Some("alice"));
        resumed.shutdown().await;
        if d == Dialect::Postgres {
            let pool = store.postgres_pool().expect("pool");
            let tables: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid \
                 WHERE c.relname LIKE $1",
            )
            .bind(format!("ev_{}_%", run.id))
            .fetch_one(pool)
            .await
            .expect("partitions");
            assert!(tables >= 1, "the run's events sit in its own span tables");
        }
    }
}

#[tokio::test]
async fn sessions_have_a_table_on_either_store() {
    use tower_sessions::session::{Id, Record};
    use tower_sessions::SessionStore;
    for (store, _dir) in stores().await {
        let sessions = services::sessions::Sessions::open(&store)
            .await
            .expect("open");
        let mut record = Record {
            id: Id::default(),
            data: Default::default(),
            expiry_date: tower_sessions::cookie::time::OffsetDateTime::now_utc()
                + tower_sessions::cookie::time::Duration::hours(1),
        };
        sessions.create(&mut record).await.expect("create");
        let loaded = sessions.load(&record.id).await.expect("load");
        assert_eq!(
            loaded.map(|r| r.id),
            Some(record.id),
            "{:?}",
            store.dialect()
        );
    }
}

#[tokio::test]
async fn newest_first_reads_are_whole_over_many_spans_of_time() {
    for (store, _dir) in stores().await {
        let d = store.dialect();
        let run = history::create_run(&store, "demo", 1, None)
            .await
            .expect("run");
        // Ten events in each of six 30-day spans (on PostgreSQL, six partitions per engine),
        // and one lonely event far later: a read bounded to the latest spans finds too few.
        let day = 86_400_000;
        let mut events: Vec<Event> = (0..60)
            .map(|i| ev((i / 10) * 30 * day + (i % 10) * day, "rl-a", "k"))
            .collect();
        events.push(ev(400 * day, "rl-a", "k"));
        history::insert_events(&store, run.id, 0, &events)
            .await
            .expect("insert");
        let all = EventFilter {
            run_id: run.id,
            ..Default::default()
        };
        let want = |n: usize| -> Vec<i64> {
            let mut t: Vec<i64> = events.iter().map(|e| e.t_ms as i64).collect();
            t.reverse();
            t.truncate(n);
            t
        };
        for limit in [1, 5, 25, 61, 100] {
            let rows = history::recent_events(&store, &all, limit)
                .await
                .expect("read");
            assert_eq!(times(&rows), want(limit as usize), "{d:?}: newest {limit}");
        }
        // Down from a place in the middle of the run.
        let page = history::page(&store, &all, PageAt::Newest, 15)
            .await
            .expect("page");
        let older = history::page(&store, &all, PageAt::Older(page.older.expect("older")), 15)
            .await
            .expect("older page");
        assert_eq!(times(&older.rows), want(30)[15..].to_vec(), "{d:?}");
    }
}

/// Runs the persistence task on `connections` for run `run`, hands it `events` in batches of
/// `batch` rows, lets it finish, and returns how many events it counted as stored.
async fn persist(
    connections: services::runtime::writer::Connections,
    run: i64,
    events: &[Event],
    batch: usize,
) -> u64 {
    use services::runtime::writer::{self, Persist};
    use std::sync::atomic::{AtomicU64, Ordering};
    let (tx, rx) = tokio::sync::mpsc::channel(64);
    let persisted = std::sync::Arc::new(AtomicU64::new(0));
    let task = tokio::spawn(writer::run(connections, run, 0, rx, persisted.clone()));
    for rows in events.chunks(batch) {
        tx.send(Persist::Events(rows.to_vec())).await.expect("send");
    }
    drop(tx);
    task.await.expect("writer");
    persisted.load(Ordering::Relaxed)
}

/// The persistence task's own write path (SQLite: multi-row `INSERT`s; PostgreSQL: binary
/// `COPY`) stores every field as it was: awkward text, a missing and a present actor, the
/// three engines over two thirty-day spans, in transactions and statements of several sizes.
#[tokio::test]
async fn the_persistence_task_stores_every_field_as_it_was() {
    use services::runtime::writer::Connections;
    for (store, _dir) in stores().await {
        let d = store.dialect();
        let run = history::create_run(&store, "demo", 3, None)
            .await
            .expect("run")
            .id;
        let awkward = [
            "plain",
            "quote \" and 'single'",
            "back\\slash, tab\t, new\nline, cr\r",
            "comma, semicolon; pipe |",
            "ünïcødé — 区域 — zonă",
            "",
        ];
        let events: Vec<Event> = (0..4_500u64)
            .map(|i| {
                let text = awkward[i as usize % awkward.len()];
                let engine = [EngineId::Core, EngineId::Lhc, EngineId::Lms][i as usize % 3];
                let actor = (i % 4 == 0).then(|| format!("op-{text}"));
                Event::new(
                    // 1,000 s apart: 52 days, two spans of PostgreSQL's partitions.
                    SimTime(i * 1_000_000),
                    engine,
                    format!("RL-{i}-{text}"),
                    "kind.with.dots",
                    serde_json::json!({ "text": text, "n": i, "nested": { "list": [1, "two", null] } }),
                )
                .with_actor(actor)
            })
            .collect();
        let connections = Connections::open(store.clone(), tokio::sync::mpsc::channel(1).1)
            .await
            .expect("connections");
        assert_eq!(
            persist(connections, run, &events, 1_700).await,
            4_500,
            "{d:?}"
        );

        let all = EventFilter {
            run_id: run,
            ..Default::default()
        };
        let rows = history::events_after(&store, &all, None, 10_000)
            .await
            .expect("read");
        assert_eq!(rows.len(), events.len(), "{d:?}");
        for (row, want) in rows.iter().zip(&events) {
            assert_eq!(row.t_ms as u64, want.t_ms, "{d:?}");
            assert_eq!(row.engine, want.engine.as_str(), "{d:?}");
            assert_eq!(row.subject, want.subject, "{d:?}");
            assert_eq!(row.kind, want.kind, "{d:?}");
            assert_eq!(row.actor, want.actor, "{d:?}");
            let details: serde_json::Value =
                serde_json::from_str(&row.details).expect("details are JSON");
            assert_eq!(details, want.details, "{d:?}");
        }
    }
}

/// A headless recording gathers up to [`writer::Flush::RECORDING`]'s 50,000 events per flush
/// (ten live flushes): more than one recording flush still arrives whole, numbered in order.
#[tokio::test]
async fn a_recording_stores_flushes_larger_than_a_consoles_in_order() {
    use services::runtime::writer::{Connections, Flush};
    const { assert!(Flush::RECORDING.rows >= 10 * Flush::LIVE.rows) };
    for (store, _dir) in stores().await {
        let d = store.dialect();
        let run = history::create_run(&store, "demo", 4, None)
            .await
            .expect("run")
            .id;
        let total = Flush::RECORDING.rows as u64 + 7_000;
        let events: Vec<Event> = (0..total).map(|t| ev(t, "XA-1", "k")).collect();
        let connections = Connections::open(store.clone(), tokio::sync::mpsc::channel(1).1)
            .await
            .expect("connections")
            .recording();
        assert_eq!(connections.flush, Flush::RECORDING, "{d:?}");
        assert_eq!(
            persist(connections, run, &events, 9_000).await,
            total,
            "{d:?}"
        );
        let all = EventFilter {
            run_id: run,
            ..Default::default()
        };
        let rows = history::events_after(&store, &all, None, 100_000)
            .await
            .expect("read");
        assert_eq!(
            times(&rows),
            (0..total).map(|t| t as i64).collect::<Vec<_>>(),
            "{d:?}"
        );
    }
}

/// The writers' own SQLite connections keep their temporary files (the statement journal of
/// each multi-row `INSERT` of events) in memory: in a file, that journal was written through
/// the kernel for every statement, more bytes than the WAL itself.
#[tokio::test]
async fn the_sqlite_writers_keep_their_statement_journals_in_memory() {
    use services::store::Conn;
    for (store, _dir) in stores().await {
        for conn in [
            store.events_connection().await.expect("events"),
            store.journal_connection().await.expect("journal"),
        ] {
            let Conn::Sqlite(mut conn) = conn else {
                continue;
            };
            let (temp_store,): (i64,) = sqlx::query_as("PRAGMA temp_store")
                .fetch_one(&mut conn)
                .await
                .expect("pragma");
            // 2 = MEMORY (0 = the build's default, a file here).
            assert_eq!(temp_store, 2);
        }
    }
}

/// The `n`-th newest event's time is the same whether it lies in the latest two spans of
/// simulated time (where PostgreSQL looks first) or further back, and `None` beyond the run.
#[tokio::test]
async fn the_nth_newest_event_is_found_in_the_recent_spans_and_before_them() {
    use services::runtime::writer::Connections;
    for (store, _dir) in stores().await {
        let d = store.dialect();
        let run = history::create_run(&store, "demo", 5, None)
            .await
            .expect("run")
            .id;
        // 600 events 6 simulated hours apart: 150 days, five spans of 30 days.
        let events: Vec<Event> = (0..600u64)
            .map(|i| {
                ev(
                    i * 6 * 3_600_000,
                    "XA-1",
                    if i % 2 == 0 { "a" } else { "b" },
                )
            })
            .collect();
        let connections = Connections::open(store.clone(), tokio::sync::mpsc::channel(1).1)
            .await
            .expect("connections");
        assert_eq!(persist(connections, run, &events, 600).await, 600, "{d:?}");
        let kind_a = EventFilter {
            run_id: run,
            kind: Some("a".into()),
            ..Default::default()
        };
        let newest_first: Vec<u64> = events
            .iter()
            .rev()
            .filter(|e| e.kind == "a")
            .map(|e| e.t_ms)
            .collect();
        // 1 and 100 lie in the latest two spans (120 events of kind `a`), 250 and 300 before.
        for n in [1usize, 100, 250, 300] {
            let nth = history::nth_newest_t_ms(&store, &kind_a, n as i64)
                .await
                .expect("nth");
            assert_eq!(nth, Some(newest_first[n - 1]), "{d:?} n = {n}");
        }
        let beyond = history::nth_newest_t_ms(&store, &kind_a, 301)
            .await
            .expect("nth");
        assert_eq!(beyond, None, "{d:?}");
    }
}

/// A resume starts from the first event missing among the latest, not after the last one
/// stored: two transactions of events may commit out of order.
#[tokio::test]
async fn the_first_unstored_event_is_found_in_a_hole() {
    for (store, _dir) in stores().await {
        let d = store.dialect();
        let run = history::create_run(&store, "demo", 8, None)
            .await
            .expect("run")
            .id;
        assert_eq!(
            history::first_unstored(&store, run).await.expect("empty"),
            0,
            "{d:?}"
        );
        let events: Vec<Event> = (0..6_000u64).map(|t| ev(t, "RL-1", "k")).collect();
        history::insert_events(&store, run, 0, &events[..2_000])
            .await
            .expect("first");
        assert_eq!(
            history::first_unstored(&store, run).await.expect("whole"),
            2_000,
            "{d:?}"
        );
        history::insert_events(&store, run, 4_000, &events[4_000..])
            .await
            .expect("later, out of order");
        assert_eq!(
            history::first_unstored(&store, run).await.expect("hole"),
            2_000,
            "{d:?}"
        );
        history::insert_events(&store, run, 2_000, &events[2_000..4_000])
            .await
            .expect("the hole");
        assert_eq!(
            history::first_unstored(&store, run).await.expect("filled"),
            6_000,
            "{d:?}"
        );
    }
}

#[tokio::test]
async fn multi_row_statements_of_odd_sizes_do_not_stay_prepared() {
    use services::store::{sqlite, Conn};
    use sqlx::Connection;
    fn prepared(conn: &Conn) -> usize {
        match conn {
            Conn::Sqlite(c) => c.cached_statements_size(),
            Conn::Postgres(c) => c.cached_statements_size(),
        }
    }
    for (store, _dir) in stores().await {
        let d = store.dialect();
        let run = history::create_run(&store, "demo", 5, None)
            .await
            .expect("run")
            .id;
        // Journal appends of 1 to 40 entries: one statement text per size.
        let mut journal_conn = store.journal_connection().await.expect("journal");
        let mut seq = 0;
        for size in 1..=40u64 {
            let entries: Vec<Journaled> = (seq..seq + size)
                .map(|s| Journaled {
                    seq: s,
                    t_ms: s,
                    entry: Entry::Action(
                        CoreAction::Note {
                            text: format!("n{s}"),
                        }
                        .into(),
                    ),
                    actor: None,
                })
                .collect();
            journal::append(&mut journal_conn, run, &entries, None, None)
                .await
                .expect("append");
            seq += size;
        }
        let kept = prepared(&journal_conn);
        assert!(
            kept <= 4,
            "{d:?}: {kept} statements stay prepared after 40 sizes"
        );
        assert_eq!(
            journal::read(&store, run, 0).await.expect("read").len(),
            820
        );

        // SQLite's multi-row event inserts, likewise.
        if let Conn::Sqlite(mut conn) = store.events_connection().await.expect("events") {
            let mut seq = 0;
            for size in 1..=40u64 {
                let events: Vec<Event> = (seq..seq + size).map(|t| ev(t, "RL", "k")).collect();
                sqlite::insert_event_rows(&mut conn, run, seq, &events)
                    .await
                    .expect("insert");
                seq += size;
            }
            let kept = conn.cached_statements_size();
            assert!(
                kept <= 2,
                "{kept} event statements stay prepared after 40 sizes"
            );
        }
    }
}

#[tokio::test]
async fn alert_rules_and_the_alert_history_on_either_store() {
    use engine::alerts::{ActiveAlert, AlertChange, AlertRule, AlertSeverity, Condition};
    use services::alerts;
    for (store, _dir) in stores().await {
        let d = store.dialect();
        let rule = |name: &str, condition| AlertRule {
            name: name.to_owned(),
            severity: AlertSeverity::Critical,
            condition,
        };
        alerts::save_rule(&store, &rule("orphan", Condition::ChildOrphaned {}), "ann")
            .await
            .expect("save");
        alerts::save_rule(&store, &rule("max", Condition::AtMaxNodes {}), "ann")
            .await
            .expect("save");
        // Saving a name again replaces the rule (and who saved it).
        let flapping = rule("orphan", Condition::Flapping { engine: None });
        alerts::save_rule(&store, &flapping, "bob")
            .await
            .expect("replace");
        let bad = rule("bad", Condition::VdasUnregistered { pct: 150.0 });
        let refused = alerts::save_rule(&store, &bad, "bob").await;
        assert!(
            matches!(&refused, Err(ServiceError::Invalid { field, .. }) if field == "condition.pct"),
            "{d:?}: {refused:?}"
        );
        let stored = alerts::rules(&store).await.expect("rules");
        let names: Vec<_> = stored.iter().map(|r| r.rule.name.as_str()).collect();
        assert_eq!(names, ["max", "orphan"], "{d:?}");
        assert_eq!(stored[1].rule, flapping, "{d:?}");
        assert_eq!(stored[1].saved_by, "bob", "{d:?}");
        alerts::delete_rule(&store, "max").await.expect("delete");
        assert!(matches!(
            alerts::delete_rule(&store, "max").await,
            Err(ServiceError::NotFound(_))
        ));

        let run = history::create_run(&store, "alerts", 1, None)
            .await
            .expect("run")
            .id;
        let alert = |subject: &str, severity| ActiveAlert {
            rule: "orphan".to_owned(),
            severity,
            subject: subject.to_owned(),
            since_ms: 1_000,
            fired_ms: 61_000,
            text: format!("{subject} is held by no parent"),
        };
        let fired = [
            AlertChange::Fired(alert("ChildA", AlertSeverity::Warning)),
            AlertChange::Fired(alert("ChildB", AlertSeverity::Critical)),
        ];
        alerts::record(&store, run, &fired).await.expect("record");
        let firing = alerts::firing(&store, run).await.expect("firing");
        assert_eq!(
            firing
                .iter()
                .map(|a| a.subject.as_str())
                .collect::<Vec<_>>(),
            ["ChildB", "ChildA"],
            "{d:?}: most serious first"
        );
        assert_eq!(
            firing[1].active(),
            Some(alert("ChildA", AlertSeverity::Warning))
        );
        let counts = alerts::counts(&store, run).await.expect("counts");
        assert_eq!(
            (counts.critical, counts.warning, counts.total()),
            (1, 1, 2),
            "{d:?}"
        );

        let acked = alerts::acknowledge(&store, run, firing[0].id, "carol")
            .await
            .expect("ack");
        assert_eq!(acked.acked_by.as_deref(), Some("carol"), "{d:?}");
        let again = alerts::acknowledge(&store, run, firing[0].id, "dave").await;
        assert!(
            matches!(&again, Err(ServiceError::Conflict(m)) if m.contains("by carol")),
            "{d:?}: {again:?}"
        );
        let other_run = alerts::acknowledge(&store, run + 1, firing[0].id, "dave").await;
        assert!(matches!(other_run, Err(ServiceError::NotFound(_))), "{d:?}");

        let resolved = [AlertChange::Resolved {
            alert: alert("ChildB", AlertSeverity::Critical),
            at_ms: 120_000,
            reason: "the condition no longer holds".to_owned(),
        }];
        alerts::record(&store, run, &resolved)
            .await
            .expect("resolve");
        let (page, total) = alerts::history(&store, run, 0, 10).await.expect("history");
        assert_eq!(total, 2, "{d:?}");
        let b = page.iter().find(|a| a.subject == "ChildB").expect("ChildB");
        assert_eq!(b.resolved_ms, Some(120_000), "{d:?}");
        assert_eq!(
            b.acked_by.as_deref(),
            Some("carol"),
            "{d:?}: kept after it resolved"
        );
        assert_eq!(
            alerts::counts(&store, run).await.expect("counts").total(),
            1
        );
    }
}
