//! The history's pages over HTTP: read oldest first, searched by the start of a subject's
//! name, sorted by a column, each by keyset; the refusals name the field; the page's links.

use crate::common::{app_with, body_text, TestApp};
use axum::http::StatusCode;
use serde_json::Value;

const DEMO: &str = include_str!("../../../scenarios/demo.toml");

/// Stores `events` as a new run named `name` beside the console's own; its id.
async fn stored_run(app: &TestApp, name: &str, events: &[engine::Event]) -> i64 {
    let store = &app.services.store;
    let run = services::history::create_run(store, name, 1, None)
        .await
        .expect("run");
    services::history::insert_events(store, run.id, 0, events)
        .await
        .expect("insert");
    run.id
}

/// `/api/history`'s answer for run `run` and the query fields `form`: status and body.
async fn history(app: &TestApp, cookie: &str, run: i64, form: &str) -> (StatusCode, String) {
    let form = format!("query[run]={run}&{form}");
    let response = app.post_form("/api/history", &form, Some(cookie)).await;
    let status = response.status();
    (status, body_text(response).await)
}

#[tokio::test]
async fn the_history_is_read_oldest_first_by_keyset_and_a_bad_order_named() {
    let app = app_with(DEMO).await;
    let viewer = app.sign_in("viewer").await;
    // A run of 120 events, one a second.
    let events: Vec<engine::Event> = (0..120_u64)
        .map(|i| {
            engine::Event::new(
                engine::SimTime(i * 1_000),
                engine::EngineId::Core,
                "hb",
                "heartbeat",
                serde_json::json!({ "i": i }),
            )
        })
        .collect();
    let run = stored_run(&app, "order test", &events).await;
    let page = |text: &str| -> (Vec<u64>, Value, Value) {
        let page: Value = serde_json::from_str(text).expect("JSON");
        let seconds = page["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| r["t_ms"].as_u64().expect("t_ms") / 1_000)
            .collect();
        (seconds, page["older"].clone(), page["newer"].clone())
    };
    // Oldest first: the 50 oldest (each page's rows come newest first), nothing older.
    let (status, text) = history(&app, &viewer, run, "query[order]=oldest").await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let (first, older, newer) = page(&text);
    assert_eq!(first, (0..50).rev().collect::<Vec<u64>>());
    assert!(older.is_null(), "nothing is older than the oldest page");
    // The next page in that order is the newer one, and it follows without a gap.
    let after = newer.as_str().expect("a newer page").to_owned();
    let (_, text) = history(
        &app,
        &viewer,
        run,
        &format!("query[order]=oldest&query[after]={after}"),
    )
    .await;
    let (second, older, newer) = page(&text);
    assert_eq!(second, (50..100).rev().collect::<Vec<u64>>());
    assert!(older.is_string() && newer.is_string());
    // Newest first (the default) starts at the other end.
    let (_, text) = history(&app, &viewer, run, "").await;
    let (newest, older, newer) = page(&text);
    assert_eq!(newest, (70..120).rev().collect::<Vec<u64>>());
    assert!(older.is_string() && newer.is_null());
    let (status, text) = history(&app, &viewer, run, "query[order]=subject").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{text}");
    assert!(
        text.contains("order") && text.contains("newest, oldest"),
        "{text}"
    );
}

#[tokio::test]
async fn the_history_is_searched_by_the_start_of_a_subjects_name() {
    let app = app_with(DEMO).await;
    let viewer = app.sign_in("viewer").await;
    // 30 servers XA-00 … XA-29 and a zone, in turn, one event a second.
    let subjects: Vec<String> = (0..30)
        .map(|i| format!("XA-{i:02}"))
        .chain(["z-paris".to_owned()])
        .collect();
    let events: Vec<engine::Event> = (0..310_u64)
        .map(|i| {
            engine::Event::new(
                engine::SimTime(i * 1_000),
                engine::EngineId::Lms,
                subjects[(i % 31) as usize].as_str(),
                "load.pushed",
                serde_json::json!({ "i": i }),
            )
        })
        .collect();
    let run = stored_run(&app, "search test", &events).await;
    let subjects_of = |text: &str| -> Vec<String> {
        let page: Value = serde_json::from_str(text).expect("JSON");
        page["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| r["subject"].as_str().expect("subject").to_owned())
            .collect()
    };
    // XA-1 starts ten names (XA-10 … XA-19): their newest 50 events, newest first.
    let (status, text) = history(&app, &viewer, run, "query[search]=XA-1").await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let found = subjects_of(&text);
    assert_eq!(found.len(), 50);
    assert!(found.iter().all(|s| s.starts_with("XA-1")), "{found:?}");
    assert_eq!(found[0], "XA-19", "the newest of them first");
    // Oldest first, and a name that is whole.
    let (_, text) = history(&app, &viewer, run, "query[search]=XA-0&query[order]=oldest").await;
    assert_eq!(subjects_of(&text).last().map(String::as_str), Some("XA-00"));
    let (_, text) = history(&app, &viewer, run, "query[search]=z-paris").await;
    assert_eq!(subjects_of(&text), vec!["z-paris"; 10]);
    // None starts with it: an empty page, not an error.
    let (status, text) = history(&app, &viewer, run, "query[search]=nothing").await;
    assert_eq!(status, StatusCode::OK, "{text}");
    assert!(subjects_of(&text).is_empty());
    // More than 20 names start with `XA-`: refused, asking for more of the name.
    let (status, text) = history(&app, &viewer, run, "query[search]=XA-").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{text}");
    assert!(
        text.contains("search") && text.contains("type more"),
        "{text}"
    );
    let (status, text) = history(&app, &viewer, run, "query[search]=XA&query[subject]=XA-01").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{text}");
    // The export keeps the search.
    let export = app
        .get(
            &format!("/api/history/export?format=csv&run={}&search=XA-2", run),
            Some(&viewer),
        )
        .await;
    assert_eq!(export.status(), StatusCode::OK);
    let csv = body_text(export).await;
    let lines: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(lines.len(), 100, "XA-20 … XA-29, ten events each");
    assert!(lines.iter().all(|l| l.contains(",XA-2")), "{csv}");
    let none = app
        .get(
            &format!("/api/history/export?format=json&run={}&search=zz", run),
            Some(&viewer),
        )
        .await;
    assert_eq!(body_text(none).await, "[]");
}

#[tokio::test]
async fn the_history_sorts_by_engine_subject_or_kind_by_keyset_and_a_bad_sort_named() {
    let app = app_with(DEMO).await;
    let viewer = app.sign_in("viewer").await;
    // 130 events, one a second, over two engines, five subjects and two kinds.
    let engines = [engine::EngineId::Lms, engine::EngineId::Lhc];
    let subjects = ["XA-2", "rl-b", "XA-1", "cc1", "rl-a"];
    let events: Vec<engine::Event> = (0..130_u64)
        .map(|i| {
            engine::Event::new(
                engine::SimTime(i * 1_000),
                engines[(i % 2) as usize],
                subjects[(i % 5) as usize],
                ["state", "load"][(i / 3 % 2) as usize],
                serde_json::json!({ "i": i }),
            )
        })
        .collect();
    let run = stored_run(&app, "sort test", &events).await;
    let rows = |page: &Value| -> Vec<(String, String, String, u64)> {
        page["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| {
                let text = |k: &str| r[k].as_str().expect("text").to_owned();
                (
                    text("engine"),
                    text("subject"),
                    text("kind"),
                    r["t_ms"].as_u64().expect("t_ms") / 1_000,
                )
            })
            .collect()
    };
    // By subject from A: pages of 50 follow each other by their `after` place, each page's
    // rows largest first as every page of the history; together every event once, in order.
    let mut walked = Vec::new();
    let mut place = String::new();
    loop {
        let (status, text) = history(
            &app,
            &viewer,
            run,
            &format!("query[sort]=subject&query[order]=oldest{place}"),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{text}");
        let page: Value = serde_json::from_str(&text).expect("JSON");
        walked.extend(rows(&page).into_iter().rev());
        match page["newer"].as_str() {
            Some(after) => place = format!("&query[after]={after}"),
            None => break,
        }
    }
    let mut want: Vec<(String, u64)> = (0..130_u64)
        .map(|i| (subjects[(i % 5) as usize].to_owned(), i))
        .collect();
    want.sort();
    let got: Vec<(String, u64)> = walked.iter().map(|r| (r.1.clone(), r.3)).collect();
    assert_eq!(got, want);
    // By kind, largest first: the last engine's last kind, its newest event first.
    let (_, text) = history(&app, &viewer, run, "query[sort]=kind").await;
    let page: Value = serde_json::from_str(&text).expect("JSON");
    let first = rows(&page);
    assert_eq!((first[0].0.as_str(), first[0].2.as_str()), ("lms", "state"));
    let mut keys: Vec<(String, String, u64)> = first
        .iter()
        .map(|r| (r.0.clone(), r.2.clone(), r.3))
        .collect();
    let shown = keys.clone();
    keys.sort();
    keys.reverse();
    assert_eq!(shown, keys, "engine, kind, instant, largest first");
    // By engine from A: lhc's oldest events first (the page comes largest first).
    let (_, text) = history(&app, &viewer, run, "query[sort]=engine&query[order]=oldest").await;
    let page: Value = serde_json::from_str(&text).expect("JSON");
    let last = rows(&page).pop().expect("a row");
    assert_eq!((last.0.as_str(), last.3), ("lhc", 1));
    // A sort the history does not have is named with the ones it has.
    let (status, text) = history(&app, &viewer, run, "query[sort]=details").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{text}");
    assert!(
        text.contains("sort") && text.contains("time, engine, subject, kind"),
        "{text}"
    );
    // The page's headers: the subject in force turns round, the other columns start their
    // own order; every link keeps the filters.
    let html = app
        .page_html(
            &format!("/history?run={}&engine=lms&sort=subject&order=oldest", run),
            Some(&viewer),
        )
        .await;
    let base = format!("/history?run={}&engine=lms", run);
    for (aria, href) in [
        ("ascending", format!("{base}&sort=subject&order=newest")),
        ("none", format!("{base}&sort=time&order=newest")),
        ("none", format!("{base}&sort=kind&order=oldest")),
    ] {
        assert!(
            html.contains(&format!(r#"<th aria-sort="{aria}"><a href="{href}""#)),
            "{href}: {html}"
        );
    }
    assert!(
        html.contains("by subject from A, each oldest first"),
        "{html}"
    );
}
