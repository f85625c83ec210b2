//! Router tests with `oneshot` on a temp SQLite file: sign-in, the gate, roles, audit, export,
//! health and metrics.

use crate::common::{app, body_text, send_to, set_cookie, PASSWORD};
use axum::http::{header, StatusCode};
use engine::Speed;

#[tokio::test]
async fn anonymous_pages_redirect_to_sign_in_and_api_calls_get_401() {
    let app = app().await;
    let page = app.get("/history?engine=core", None).await;
    assert_eq!(page.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        page.headers()
            .get(header::LOCATION)
            .and_then(|v| v.to_str().ok()),
        Some("/login?next=/history%3Fengine%3Dcore")
    );
    for path in ["/api/clock_status", "/api/set_speed", "/api/history"] {
        let api = app.post_form(path, "", None).await;
        assert_eq!(api.status(), StatusCode::UNAUTHORIZED, "{path}");
    }
    assert_eq!(
        app.get("/api/stream", None).await.status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(app.get("/login", None).await.status(), StatusCode::OK);
}

#[tokio::test]
async fn only_a_few_paths_are_open_without_signing_in() {
    let app = app().await;
    for path in ["/login", "/healthz", "/metrics"] {
        assert_eq!(app.get(path, None).await.status(), StatusCode::OK, "{path}");
    }
    // The gate lets static files through (served, or not found): never sent to sign in.
    let pkg = app.get("/pkg/no-such-file.wasm", None).await;
    assert_ne!(pkg.status(), StatusCode::SEE_OTHER);
    for (path, next) in [
        ("/", None),
        ("/history", Some("/login?next=/history")),
        ("/login/../audit", Some("/login?next=/login/../audit")),
        ("/pkgx", Some("/login?next=/pkgx")),
        (
            "/users?q=a+b&x=1",
            Some("/login?next=/users%3Fq%3Da%2Bb%26x%3D1"),
        ),
    ] {
        let page = app.get(path, None).await;
        assert_eq!(page.status(), StatusCode::SEE_OTHER, "{path}");
        let location = page
            .headers()
            .get(header::LOCATION)
            .and_then(|v| v.to_str().ok());
        assert_eq!(location, Some(next.unwrap_or("/login")), "{path}");
    }
}

#[tokio::test]
async fn sign_in_sets_a_strict_http_only_cookie_and_opens_the_pages() {
    let app = app().await;
    let response = app
        .post_form("/api/login", "username=viewer&password=test-password", None)
        .await;
    let cookie = set_cookie(&response).expect("cookie");
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    assert!(cookie.contains("SameSite=Strict"), "{cookie}");
    let session = cookie.split(';').next().expect("pair").to_owned();

    let page = app.get("/", Some(&session)).await;
    assert_eq!(page.status(), StatusCode::OK);
    let html = body_text(page).await;
    assert!(html.contains("Overview"), "{html}");
    assert!(
        html.contains("/pkg/switchyard.js"),
        "hydration scripts are linked"
    );
}

#[tokio::test]
async fn a_wrong_password_is_refused_and_audited() {
    let app = app().await;
    let response = app
        .post_form("/api/login", "username=admin&password=wrong-password", None)
        .await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    assert!(
        set_cookie(&response).is_none_or(|c| !c.contains("Max-Age=") || c.contains("Max-Age=0"))
    );
    let (rows, _) = services::audit::list(&app.services.store, 0, 10)
        .await
        .expect("audit");
    assert_eq!(rows[0].action, "session.sign_in");
    assert!(
        rows[0].outcome.contains("wrong user name or password"),
        "{}",
        rows[0].outcome
    );
}

/// A sign-in form posted from `ip`.
fn login_from(
    ip: [u8; 4],
    username: &str,
    password: &str,
) -> axum::http::Request<axum::body::Body> {
    let mut request = axum::http::Request::post("/api/login")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::ACCEPT, "application/json")
        .body(axum::body::Body::from(format!(
            "username={username}&password={password}"
        )))
        .expect("request");
    let addr = std::net::SocketAddr::from((ip, 40_000));
    request
        .extensions_mut()
        .insert(axum::extract::ConnectInfo(addr));
    request
}

#[tokio::test]
async fn wrong_passwords_slow_their_address_down_but_not_the_user_elsewhere() {
    let app = app().await;
    let attacker = [203, 0, 113, 9];
    let mut statuses = Vec::new();
    for _ in 0..=services::throttle::FREE_FAILURES {
        let response = app
            .send(login_from(attacker, "admin", "guess-guess-guess"))
            .await;
        statuses.push(response.status());
    }
    assert!(
        statuses.iter().all(|s| *s == StatusCode::UNAUTHORIZED),
        "{statuses:?}"
    );
    // Held back now, even with the right password, from that address...
    let held = app.send(login_from(attacker, "admin", PASSWORD)).await;
    assert_eq!(held.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(body_text(held).await.contains("Throttled"));
    // ...while the admin, from their own address, signs in at once.
    let theirs = app.send(login_from([10, 0, 0, 2], "admin", PASSWORD)).await;
    assert_eq!(theirs.status(), StatusCode::OK);
    assert!(set_cookie(&theirs).is_some());
}

#[tokio::test]
async fn a_viewer_gets_403_on_a_mutating_call_and_nothing_changes() {
    let app = app().await;
    let viewer = app.sign_in("viewer").await;
    let response = app
        .post_form("/api/set_speed", "speed=x10", Some(&viewer))
        .await;
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    assert!(body_text(response).await.contains("operator"));
    assert_eq!(app.services.runtime.status().speed, Speed::Paused);
    let (rows, _) = services::audit::list(&app.services.store, 0, 10)
        .await
        .expect("audit");
    let denied = rows
        .iter()
        .find(|r| r.action == "clock.set_speed")
        .expect("denial audited");
    assert_eq!(denied.actor, "viewer");
    assert!(denied.outcome.starts_with("refused"), "{}", denied.outcome);

    let admin_only = app
        .post_form(
            "/api/add_user",
            "username=x&password=long-enough&role=admin",
            Some(&viewer),
        )
        .await;
    assert_eq!(admin_only.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn an_operator_drives_the_clock_and_it_is_audited() {
    let app = app().await;
    let operator = app.sign_in("operator").await;
    let response = app
        .post_form("/api/set_speed", "speed=x600", Some(&operator))
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(app.services.runtime.status().speed, Speed::X600);

    let paused = app
        .post_form("/api/set_speed", "speed=paused", Some(&operator))
        .await;
    assert_eq!(paused.status(), StatusCode::OK);
    let before = app.services.runtime.status().t_ms;
    let stepped = app.post_form("/api/step_clock", "", Some(&operator)).await;
    assert_eq!(stepped.status(), StatusCode::OK);
    assert!(app.services.runtime.status().t_ms > before || before == 0);

    let (rows, _) = services::audit::list(&app.services.store, 0, 10)
        .await
        .expect("audit");
    let actions: Vec<&str> = rows.iter().map(|r| r.action.as_str()).collect();
    assert!(
        actions.contains(&"clock.set_speed") && actions.contains(&"clock.step"),
        "{actions:?}"
    );
    assert!(rows.iter().all(|r| r.actor == "operator"));
}

#[tokio::test]
async fn bad_input_names_the_field() {
    let app = app().await;
    let operator = app.sign_in("operator").await;
    let note = app
        .post_form("/api/add_note", "text=", Some(&operator))
        .await;
    assert_eq!(note.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body_text(note).await.contains("text"));

    let admin = app.sign_in("admin").await;
    let user = app
        .post_form(
            "/api/add_user",
            "username=new&password=long-enough&role=root",
            Some(&admin),
        )
        .await;
    assert_eq!(user.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(services::accounts::find_by_name(&app.services.store, "new")
        .await
        .expect("db")
        .is_none());

    let export = app
        .get("/api/history/export?format=xml", Some(&admin))
        .await;
    assert_eq!(export.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body_text(export).await.contains("format"));
}

#[tokio::test]
async fn health_and_metrics_answer() {
    let app = app().await;
    let health = app.get("/healthz", None).await;
    assert_eq!(health.status(), StatusCode::OK);
    let body: serde_json::Value = serde_json::from_str(&body_text(health).await).expect("json");
    assert_eq!(body["status"], "ok");
    assert_eq!(body["scenario"], "router test");

    let metrics = body_text(app.get("/metrics", None).await).await;
    assert!(
        metrics.contains("switchyard_http_requests_total"),
        "{metrics}"
    );
}

/// `/metrics` by Prometheus' own linter: `promtool check metrics` (Debian's prometheus
/// package, installed by `make test`) finds no problem — HELP text everywhere, base units.
#[tokio::test]
async fn metrics_pass_promtool() {
    use std::io::Write;
    let app = app().await;
    app.get("/healthz", None).await;
    let metrics = body_text(app.get("/metrics", None).await).await;
    for name in [
        "switchyard_http_requests_total",
        "switchyard_sim_time_seconds",
        "switchyard_leader",
    ] {
        assert!(
            metrics.contains(&format!("# HELP {name} ")),
            "{name}: {metrics}"
        );
    }
    assert!(!metrics.contains("_ms "), "no milliseconds: {metrics}");
    let output = tokio::task::spawn_blocking(move || {
        let mut child = std::process::Command::new("promtool")
            .args(["check", "metrics"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect(
                "promtool runs (install Debian's prometheus: scripts/ensure-tools.sh --clients)",
            );
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(metrics.as_bytes())
            .expect("write");
        child.wait_with_output().expect("promtool output")
    })
    .await
    .expect("join");
    assert!(
        output.status.success() && output.stdout.is_empty() && output.stderr.is_empty(),
        "promtool: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[tokio::test]
async fn resource_location_actions_are_role_checked_validated_and_audited() {
    let app = app().await;
    let viewer = app.sign_in("viewer").await;
    let forged = app
        .post_form(
            "/api/lhc_act",
            "op=force_outage&resource_location=rl-a",
            Some(&viewer),
        )
        .await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);

    let operator = app.sign_in("operator").await;
    let unknown = app
        .post_form(
            "/api/lhc_act",
            "op=force_outage&resource_location=rl-zz",
            Some(&operator),
        )
        .await;
    assert_eq!(unknown.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body_text(unknown).await.contains("resource_location"));
    let bad_op = app
        .post_form("/api/lhc_act", "op=explode", Some(&operator))
        .await;
    assert_eq!(bad_op.status(), StatusCode::UNPROCESSABLE_ENTITY);

    let forced = app
        .post_form(
            "/api/lhc_act",
            "op=force_outage&resource_location=rl-a",
            Some(&operator),
        )
        .await;
    assert_eq!(forced.status(), StatusCode::OK);
    let connectors_forced = app
        .services
        .runtime
        .query(|sim| {
            sim.lhc()
                .connectors()
                .iter()
                .filter(|c| c.forced_outage)
                .count()
        })
        .await
        .expect("query");
    assert_eq!(
        connectors_forced, 2,
        "the outage is forced on every connector of the RL"
    );

    let overview = app.post_form("/api/lhc_overview", "", Some(&viewer)).await;
    assert_eq!(overview.status(), StatusCode::OK);
    assert!(body_text(overview).await.contains("rl-a"));

    let (rows, _) = services::audit::list(&app.services.store, 0, 20)
        .await
        .expect("audit");
    let ok = rows
        .iter()
        .find(|r| r.action == "lhc.force_outage" && r.outcome == "ok")
        .expect("audited");
    assert_eq!(ok.actor, "operator");
    assert!(rows.iter().any(|r| r.action == "lhc.force_outage"
        && r.actor == "viewer"
        && r.outcome.starts_with("refused")));
}

#[tokio::test]
async fn attention_names_a_forced_outage_once_the_resource_location_leaves_working_normally() {
    let app = app().await;
    assert_eq!(
        app.post_form("/api/attention", "", None).await.status(),
        StatusCode::UNAUTHORIZED
    );
    let viewer = app.sign_in("viewer").await;
    let operator = app.sign_in("operator").await;
    let items = |text: String| -> Vec<serde_json::Value> {
        serde_json::from_str(&text).expect("attention is a JSON list")
    };
    let critical_lhc = |list: &[serde_json::Value]| {
        list.iter()
            .filter(|i| {
                i["severity"] == "Critical" && i["engine"] == "lhc" && i["subject"] == "rl-a"
            })
            .count()
    };
    let before = items(body_text(app.post_form("/api/attention", "", Some(&viewer)).await).await);
    assert_eq!(critical_lhc(&before), 0, "{before:?}");

    let forced = app
        .post_form(
            "/api/lhc_act",
            "op=force_outage&resource_location=rl-a",
            Some(&operator),
        )
        .await;
    assert_eq!(forced.status(), StatusCode::OK);
    // Step the clock until the HA state machine has confirmed the outage.
    let mut after = Vec::new();
    for _ in 0..200 {
        app.post_form("/api/step_clock", "", Some(&operator)).await;
        after = items(body_text(app.post_form("/api/attention", "", Some(&viewer)).await).await);
        if critical_lhc(&after) > 0 {
            break;
        }
    }
    assert_eq!(critical_lhc(&after), 1, "{after:?}");
    let item = after
        .iter()
        .find(|i| i["subject"] == "rl-a" && i["severity"] == "Critical")
        .expect("the outage");
    assert_eq!(item["href"], "/lhc/rl-a");
    assert!(
        item["text"]
            .as_str()
            .is_some_and(|t| t.contains(" since Day ")),
        "{item}"
    );
    // Most serious first.
    assert_eq!(after[0]["severity"], "Critical");
}

#[tokio::test]
async fn load_management_actions_are_role_checked_validated_and_audited() {
    let app = app().await;
    let viewer = app.sign_in("viewer").await;
    let operator = app.sign_in("operator").await;
    let admin = app.sign_in("admin").await;

    let forged = app
        .post_form(
            "/api/lms_act",
            "input[op]=reboot&input[server]=XA-01",
            Some(&viewer),
        )
        .await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);

    let zero = app
        .post_form(
            "/api/lms_act",
            "input[op]=logon_storm&input[count]=0&input[over]=1m",
            Some(&operator),
        )
        .await;
    assert_eq!(zero.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let text = body_text(zero).await;
    assert!(
        text.contains("count") && text.contains("between 1 and 100000"),
        "{text}"
    );

    let unknown = app
        .post_form(
            "/api/lms_act",
            "input[op]=reboot&input[server]=XA-99",
            Some(&operator),
        )
        .await;
    assert_eq!(unknown.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body_text(unknown).await.contains("XA-99"));

    let storm = app
        .post_form(
            "/api/lms_act",
            "input[op]=logon_storm&input[count]=10&input[over]=0s&input[app]=Word",
            Some(&operator),
        )
        .await;
    assert_eq!(storm.status(), StatusCode::OK);
    // The storm's logons are placed as the clock moves; all at once, load throttling (5000
    // per logon in progress at the default level) fills both servers after two logons each.
    app.services.runtime.step("test").await.expect("step");
    let (sessions, placed, refused) = app
        .services
        .runtime
        .query(|sim| {
            let farm = sim.lms().farm();
            (
                farm.sessions_connected + farm.sessions_disconnected,
                farm.placements,
                farm.rejected,
            )
        })
        .await
        .expect("query");
    assert_eq!((sessions, placed, refused), (4, 4, 6));

    // The evaluator editor is admin-only and validates before storing anything.
    let rules = r#"[{"rule":"cpu_utilization","low":"10","high":"150"}]"#;
    let body = format!("replaces=Advanced&name=Advanced&rules={}", urlencode(rules));
    let as_operator = app
        .post_form("/api/lms_evaluator_save", &body, Some(&operator))
        .await;
    assert_eq!(as_operator.status(), StatusCode::FORBIDDEN);
    let invalid = app
        .post_form("/api/lms_evaluator_save", &body, Some(&admin))
        .await;
    assert_eq!(invalid.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body_text(invalid).await.contains("rules[0].high"));
    let unchanged = app
        .services
        .runtime
        .query(|sim| sim.lms().evaluator("Advanced").map(|e| e.rules))
        .await
        .expect("query");
    assert_eq!(
        unchanged,
        engine::lms::config::rules::builtin_rules("Advanced")
    );

    let rules = r#"[{"rule":"cpu_utilization","low":"0","high":"5"},{"rule":"load_throttling","level":"high"}]"#;
    let body = format!("replaces=Advanced&name=Advanced&rules={}", urlencode(rules));
    let saved = app
        .post_form("/api/lms_evaluator_save", &body, Some(&admin))
        .await;
    assert_eq!(saved.status(), StatusCode::OK);
    let rules_now = app
        .services
        .runtime
        .query(|sim| sim.lms().evaluator("Advanced").map(|e| e.rules.len()))
        .await
        .expect("query");
    assert_eq!(rules_now, Some(2));

    let in_use = app
        .post_form("/api/lms_evaluator_delete", "name=Default", Some(&admin))
        .await;
    assert_eq!(in_use.status(), StatusCode::UNPROCESSABLE_ENTITY);

    let (rows, _) = services::audit::list(&app.services.store, 0, 50)
        .await
        .expect("audit");
    for (action, actor, ok) in [
        ("lms.reboot", "viewer", false),
        ("lms.logon_storm", "operator", true),
        ("lms.evaluator_save", "operator", false),
        ("lms.evaluator_save", "admin", true),
    ] {
        assert!(
            rows.iter()
                .any(|r| r.action == action && r.actor == actor && (r.outcome == "ok") == ok),
            "{action} by {actor}"
        );
    }
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[tokio::test]
async fn exports_stream_every_row_in_steps_and_two_run_at_once_per_user() {
    let app = app().await;
    let admin = app.sign_in("admin").await;
    let store = &app.services.store;
    let run = services::history::create_run(store, "router test", 1, None)
        .await
        .expect("run");
    // More than two steps of the export (2,000 rows each), with text that CSV must quote.
    let events: Vec<engine::Event> = (0..4_500_u64)
        .map(|i| {
            engine::Event::new(
                engine::SimTime(i),
                engine::EngineId::Core,
                "hb,\"quoted\"",
                "heartbeat",
                serde_json::json!({ "i": i }),
            )
        })
        .collect();
    services::history::insert_events(store, run.id, 0, &events)
        .await
        .expect("insert");

    let json = app
        .get(
            &format!("/api/history/export?format=json&run={}", run.id),
            Some(&admin),
        )
        .await;
    assert_eq!(json.status(), StatusCode::OK);
    let rows: Vec<serde_json::Value> =
        serde_json::from_str(&body_text(json).await).expect("one JSON array");
    assert_eq!(rows.len(), 4_500);
    assert!(rows
        .iter()
        .enumerate()
        .all(|(i, r)| r["details"]["i"] == i as u64));

    let csv = app
        .get(
            &format!("/api/history/export?format=csv&run={}", run.id),
            Some(&admin),
        )
        .await;
    let text = body_text(csv).await;
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let records: Vec<csv::StringRecord> = reader.records().map(|r| r.expect("record")).collect();
    assert_eq!(records.len(), 4_500);
    assert_eq!(&records[4_499][2], "hb,\"quoted\"");
    assert_eq!(&records[4_499][0], "4499");

    // Two bodies still open hold the user's two slots; a third export waits its turn.
    let path = format!("/api/history/export?format=csv&run={}", run.id);
    let first = app.get(&path, Some(&admin)).await;
    let second = app.get(&path, Some(&admin)).await;
    let third = app.get(&path, Some(&admin)).await;
    assert_eq!(third.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(third.headers().contains_key(header::RETRY_AFTER));
    let viewer = app.sign_in("viewer").await;
    assert_eq!(
        app.get(&path, Some(&viewer)).await.status(),
        StatusCode::OK,
        "per user"
    );
    drop((first, second));
    assert_eq!(app.get(&path, Some(&admin)).await.status(), StatusCode::OK);
}

/// The `next` of a sign-in is followed only as a local path; a value a browser would turn
/// into another site, or that cannot be a header, leads to `/` (and never drops the
/// connection).
#[tokio::test]
async fn sign_in_follows_only_local_next_paths() {
    let app = app().await;
    let cases = [
        ("%2Flhc%2Frl-paris", "/lhc/rl-paris"),
        ("%2F%09%2Fevil.example", "/"),
        ("%2F%0A%2Fevil.example", "/"),
        ("%2Flhc%0D%0ASet-Cookie%3A+x%3D1", "/"),
        ("%2Flhc%00", "/"),
        ("%2F%252F%2Fevil.example", "/"),
        ("%2F%5Cevil.example", "/"),
        ("https%3A%2F%2Fevil.example", "/"),
    ];
    for (next, want) in cases {
        let body = format!("username=viewer&password=test-password&next={next}");
        let response = app.post_form("/api/login", &body, None).await;
        assert!(set_cookie(&response).is_some(), "{next}: signed in");
        let location = response
            .headers()
            .get(header::LOCATION)
            .and_then(|v| v.to_str().ok());
        assert_eq!(location, Some(want), "{next}");
    }
}

#[tokio::test]
async fn state_changing_requests_from_another_origin_are_refused_and_audited() {
    use axum::body::Body;
    use axum::http::Request;
    let app = app().await;
    let cookie = app.sign_in("operator").await;
    let note = |headers: &[(&str, &str)], text: &str| {
        let mut request = Request::post("/api/add_note").header(header::COOKIE, &cookie);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request
            .body(Body::from(format!("text={text}")))
            .expect("request")
    };
    const FORM: (&str, &str) = ("content-type", "application/x-www-form-urlencoded");
    let refused: [&[(&str, &str)]; 5] = [
        &[
            ("origin", "https://evil.example"),
            ("sec-fetch-site", "cross-site"),
            FORM,
        ],
        &[("origin", "null"), FORM],
        // Same host, another port: same site, another origin.
        &[
            ("origin", "http://127.0.0.1:1"),
            ("sec-fetch-site", "same-site"),
            FORM,
        ],
        // A text/plain body, which a page elsewhere may send without a preflight.
        &[
            ("origin", "http://127.0.0.1:0"),
            ("content-type", "text/plain"),
        ],
        &[("content-type", "text/plain")],
    ];
    for (i, headers) in refused.iter().enumerate() {
        let response = app.send(note(headers, &format!("forged-{i}"))).await;
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "{headers:?}");
        assert!(
            body_text(response).await.contains("forbidden"),
            "{headers:?}"
        );
    }
    // The console's own origin, and a script without browser headers.
    let own = [
        ("origin", "http://127.0.0.1:0"),
        ("sec-fetch-site", "same-origin"),
        FORM,
    ];
    assert_eq!(app.send(note(&own, "mine")).await.status(), StatusCode::OK);
    assert_eq!(
        app.send(note(&[FORM], "script")).await.status(),
        StatusCode::OK
    );
    // A forged sign-in is refused too.
    let login = Request::post("/api/login")
        .header("origin", "https://evil.example")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from("username=admin&password=test-password"))
        .expect("request");
    let response = app.send(login).await;
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    assert!(set_cookie(&response).is_none());

    let (rows, _) = services::audit::list(&app.services.store, 0, 50)
        .await
        .expect("audit");
    let cross: Vec<_> = rows
        .iter()
        .filter(|r| r.action == "http.cross_origin")
        .collect();
    assert_eq!(cross.len(), 6, "{rows:#?}");
    assert!(cross.iter().all(|r| r.outcome.starts_with("refused")));
    assert!(cross
        .iter()
        .any(|r| r.actor == "operator" && r.arguments.contains("evil.example")));
    let notes: Vec<_> = rows
        .iter()
        .filter(|r| r.action == "timeline.note")
        .collect();
    assert_eq!(notes.len(), 2, "only the two allowed notes ran: {notes:#?}");
}

#[tokio::test]
async fn the_session_cookie_is_secure_when_asked() {
    use axum::body::Body;
    use axum::http::Request;
    use server::origin::Origins;
    use server::router::{build_with, leptos_options, WebSettings};
    let app = app().await;
    let addr = "127.0.0.1:0".parse().expect("addr");
    for secure in [false, true] {
        let web = WebSettings {
            origins: Origins::from_urls(&["https://console.example.com"]).expect("origins"),
            cookie_secure: secure,
        };
        let router = build_with(
            app.services.clone(),
            leptos_options("target/site", addr),
            web,
        )
        .await
        .expect("router");
        let login = Request::post("/api/login")
            .header("origin", "https://console.example.com")
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Body::from("username=viewer&password=test-password"))
            .expect("request");
        let response = send_to(&router, login).await;
        let cookie = set_cookie(&response).expect("signed in");
        assert_eq!(cookie.contains("; Secure"), secure, "{cookie}");
        assert!(
            cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
            "{cookie}"
        );
    }
}

#[tokio::test]
async fn malformed_calls_answer_400_naming_the_argument_and_large_bodies_413() {
    let app = app().await;
    let cookie = app.sign_in("admin").await;
    let cases = [
        ("/api/add_note", String::new(), 400, "missing field `text`"),
        (
            "/api/recent_events",
            "limit=abc".into(),
            400,
            "limit: invalid digit",
        ),
        (
            "/api/recent_events",
            "limit=-1".into(),
            400,
            "limit: invalid digit",
        ),
        (
            "/api/recent_events",
            "limit=99999999999".into(),
            400,
            "limit: number too large",
        ),
        (
            "/api/set_speed",
            "speed=warp".into(),
            400,
            "speed: unknown variant `warp`",
        ),
        ("/api/add_note", "text=a&text=b".into(), 400, "text"),
        (
            "/api/gslb_guided",
            "number=300".into(),
            400,
            "number: number too large",
        ),
        (
            "/api/set_role",
            "id=x&role=admin".into(),
            400,
            "id: must be a user id",
        ),
        (
            "/api/reset_password",
            "id=-3&password=long-enough-secret".into(),
            400,
            "id: must be a user id",
        ),
        (
            "/api/add_note",
            format!("text={}", "a".repeat(3_000_000)),
            413,
            "length limit",
        ),
    ];
    for (path, body, status, says) in cases {
        let response = app.post_form(path, &body, Some(&cookie)).await;
        let got = response.status().as_u16();
        let text = body_text(response).await;
        let shown = &body[..body.len().min(40)];
        assert_eq!(got, status, "{path} {shown}: {text}");
        assert!(text.contains(says), "{path} {shown}: {text}");
    }
    // Nothing was changed by any of them.
    let (rows, _) = services::audit::list(&app.services.store, 0, 50)
        .await
        .expect("audit");
    assert!(
        rows.iter().all(|r| r.action != "timeline.note"),
        "{rows:#?}"
    );
}

#[tokio::test]
async fn a_password_reset_ends_the_users_other_sessions() {
    let app = app().await;
    let admin = app.sign_in("admin").await;
    let admin_elsewhere = app.sign_in("admin").await;
    let operator = app.sign_in("operator").await;
    let whoami = |cookie: String| {
        let app = &app;
        async move {
            app.post_form("/api/whoami", "", Some(&cookie))
                .await
                .status()
        }
    };
    assert_eq!(whoami(operator.clone()).await, StatusCode::OK);
    let id = services::accounts::find_by_name(&app.services.store, "operator")
        .await
        .expect("find")
        .expect("operator")
        .id;
    let reset = format!("id={id}&password=a-brand-new-secret");
    let response = app
        .post_form("/api/reset_password", &reset, Some(&admin))
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        whoami(operator).await,
        StatusCode::UNAUTHORIZED,
        "the operator's session ended"
    );

    // An admin resetting their own password keeps this session and ends the others.
    let own = services::accounts::find_by_name(&app.services.store, "admin")
        .await
        .expect("find")
        .expect("admin")
        .id;
    let reset = format!("id={own}&password=another-new-secret");
    let response = app
        .post_form("/api/reset_password", &reset, Some(&admin))
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        whoami(admin).await,
        StatusCode::OK,
        "the session that reset stays"
    );
    assert_eq!(whoami(admin_elsewhere).await, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_signed_out_session_is_refused_at_once() {
    let app = app().await;
    let viewer = app.sign_in("viewer").await;
    // Remembered by the gate...
    let page = app.get("/history", Some(&viewer)).await;
    assert_eq!(page.status(), StatusCode::OK);
    let out = app.post_form("/api/logout", "", Some(&viewer)).await;
    assert!(
        out.status().is_redirection() || out.status().is_success(),
        "{}",
        out.status()
    );
    // ...and forgotten when its user signs out: the old cookie opens nothing.
    let page = app.get("/history", Some(&viewer)).await;
    assert!(page.status().is_redirection(), "{}", page.status());
    let call = app.post_form("/api/whoami", "", Some(&viewer)).await;
    assert_eq!(call.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_disabled_user_is_signed_out_and_cannot_sign_in_until_enabled() {
    let app = app().await;
    let admin = app.sign_in("admin").await;
    let viewer = app.sign_in("viewer").await;
    let id = services::accounts::find_by_name(&app.services.store, "viewer")
        .await
        .expect("find")
        .expect("viewer")
        .id;
    // The gate remembers the open session for a moment ([`services::signed_in`])...
    let page = app.get("/history", Some(&viewer)).await;
    assert_eq!(page.status(), StatusCode::OK);
    let disable = format!("id={id}&disabled=true");
    let response = app
        .post_form("/api/set_disabled", &disable, Some(&admin))
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    // ...but not past a change to the account: pages go to the sign-in page, calls answer 401.
    let page = app.get("/history", Some(&viewer)).await;
    assert!(page.status().is_redirection());
    let call = app.post_form("/api/whoami", "", Some(&viewer)).await;
    assert_eq!(call.status(), StatusCode::UNAUTHORIZED);
    let again = format!("username=viewer&password={PASSWORD}");
    let refused = app.post_form("/api/login", &again, None).await;
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);

    let enable = format!("id={id}&disabled=false");
    let response = app
        .post_form("/api/set_disabled", &enable, Some(&admin))
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let back = app.post_form("/api/login", &again, None).await;
    assert_eq!(back.status(), StatusCode::OK);

    // The last enabled admin cannot be disabled or deleted; a viewer can be deleted.
    let own = services::accounts::find_by_name(&app.services.store, "admin")
        .await
        .expect("find")
        .expect("admin")
        .id;
    let response = app
        .post_form(
            "/api/set_disabled",
            &format!("id={own}&disabled=true"),
            Some(&admin),
        )
        .await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let response = app
        .post_form("/api/delete_user", &format!("id={own}"), Some(&admin))
        .await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let response = app
        .post_form("/api/delete_user", &format!("id={id}"), Some(&admin))
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let gone = services::accounts::find_by_name(&app.services.store, "viewer").await;
    assert!(gone.expect("find").is_none());
    let (rows, _) = services::audit::list(&app.services.store, 0, 20)
        .await
        .expect("audit");
    let actions: Vec<&str> = rows.iter().map(|r| r.action.as_str()).collect();
    assert!(
        actions.contains(&"users.set_disabled") && actions.contains(&"users.delete"),
        "{actions:?}"
    );
}

/// Listing the application's routes runs the whole app once with resource loads suppressed
/// by a switch of the whole process; a resource first asked for at that moment waited
/// forever. Routers are built while pages render (the tests build one each, in parallel):
/// every page must still come whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_render_whole_while_another_router_is_built() {
    let app = app().await;
    let viewer = app.sign_in("viewer").await;
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let builder = {
        let (services, done) = (app.services.clone(), done.clone());
        tokio::spawn(async move {
            let mut built = 0u32;
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                let options = server::router::leptos_options(
                    "target/site",
                    "127.0.0.1:0".parse().expect("addr"),
                );
                let _router = server::router::build(services.clone(), options)
                    .await
                    .expect("router");
                built += 1;
            }
            built
        })
    };
    for _ in 0..300 {
        let html = app.page_html("/", Some(&viewer)).await;
        assert!(html.contains("</html>"), "the page ends");
    }
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let built = builder.await.expect("builder");
    assert!(built > 0, "a router was built while the pages rendered");
}
