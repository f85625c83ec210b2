//! The GSLB server functions through the router, on the demo topology: role checks, server-
//! side validation naming the field, nothing stored on error, and the audit log.

#![allow(missing_docs)]

use crate::common::{app_with, body_text, TestApp};
use axum::http::StatusCode;

const DEMO: &str = include_str!("../../../scenarios/demo.toml");

async fn backups_of(app: &TestApp, site: &'static str) -> Vec<String> {
    app.services
        .runtime
        .query(move |sim| {
            sim.gslb()
                .site(site)
                .map(|s| s.backup_parents)
                .unwrap_or_default()
        })
        .await
        .expect("query")
}

async fn site_up(app: &TestApp, site: &'static str) -> bool {
    app.services
        .runtime
        .query(move |sim| sim.gslb().site(site).is_some_and(|s| s.up))
        .await
        .expect("query")
}

fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[tokio::test]
async fn site_faults_are_for_operators_and_audited() {
    let app = app_with(DEMO).await;
    let viewer = app.sign_in("viewer").await;
    let operator = app.sign_in("operator").await;

    let forged = app
        .post_form(
            "/api/gslb_act",
            "input[op]=site_down&input[site]=SiteP1",
            Some(&viewer),
        )
        .await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    assert!(site_up(&app, "SiteP1").await, "nothing changed");

    let unknown = app
        .post_form(
            "/api/gslb_act",
            "input[op]=site_down&input[site]=SiteP9",
            Some(&operator),
        )
        .await;
    assert_eq!(unknown.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let text = body_text(unknown).await;
    assert!(text.contains("SiteP9") && text.contains("SiteP1"), "{text}");

    let bad_direction = app
        .post_form(
            "/api/gslb_act",
            "input[op]=mep_cut&input[from]=SiteP1&input[to]=SiteP2&input[direction]=sideways",
            Some(&operator),
        )
        .await;
    assert_eq!(bad_direction.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body_text(bad_direction).await.contains("both or one_way"));

    let down = app
        .post_form(
            "/api/gslb_act",
            "input[op]=site_down&input[site]=SiteP1",
            Some(&operator),
        )
        .await;
    assert_eq!(down.status(), StatusCode::OK, "{}", body_text(down).await);
    assert!(!site_up(&app, "SiteP1").await);

    let cut = app
        .post_form(
            "/api/gslb_act",
            "input[op]=mep_cut&input[from]=SiteP2&input[to]=SiteP3&input[direction]=one_way",
            Some(&operator),
        )
        .await;
    assert_eq!(cut.status(), StatusCode::OK, "{}", body_text(cut).await);

    let (rows, _) = services::audit::list(&app.services.store, 0, 50)
        .await
        .expect("audit");
    for (action, actor, ok) in [
        ("gslb.site_down", "viewer", false),
        ("gslb.site_down", "operator", true),
        ("gslb.mep_cut", "operator", true),
    ] {
        assert!(
            rows.iter()
                .any(|r| r.action == action && r.actor == actor && (r.outcome == "ok") == ok),
            "{action} by {actor}"
        );
    }
}

#[tokio::test]
async fn backup_lists_are_validated_for_admins_only() {
    let app = app_with(DEMO).await;
    let operator = app.sign_in("operator").await;
    let admin = app.sign_in("admin").await;
    let before = backups_of(&app, "SiteP1").await;
    assert!(!before.is_empty(), "the demo gives SiteP1 backups");

    let forged = app
        .post_form(
            "/api/gslb_backups",
            "site=SiteP1&backups=SiteP3",
            Some(&operator),
        )
        .await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);

    for (list, expected) in [
        ("Child_Site1", "Child_Site1"),
        ("SiteP9", "SiteP9"),
        ("SiteP1", "SiteP1"),
        ("SiteP2 SiteP2", "SiteP2"),
    ] {
        let refused = app
            .post_form(
                "/api/gslb_backups",
                &format!("site=SiteP1&backups={}", encode(list)),
                Some(&admin),
            )
            .await;
        assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY, "{list}");
        let text = body_text(refused).await;
        assert!(text.contains(expected), "{list}: {text}");
        assert_eq!(
            backups_of(&app, "SiteP1").await,
            before,
            "{list}: nothing changed"
        );
    }

    let saved = app
        .post_form(
            "/api/gslb_backups",
            "site=SiteP1&backups=SiteP3%2CSiteP2",
            Some(&admin),
        )
        .await;
    assert_eq!(saved.status(), StatusCode::OK, "{}", body_text(saved).await);
    assert_eq!(backups_of(&app, "SiteP1").await, ["SiteP3", "SiteP2"]);

    let unset = app
        .post_form("/api/gslb_backups", "site=SiteP1&backups=", Some(&admin))
        .await;
    assert_eq!(unset.status(), StatusCode::OK);
    assert!(backups_of(&app, "SiteP1").await.is_empty());
}

#[tokio::test]
async fn cli_import_reports_the_line_and_export_round_trips() {
    let app = app_with(DEMO).await;
    let admin = app.sign_in("admin").await;
    let viewer = app.sign_in("viewer").await;

    let forged = app.post_form("/api/gslb_export", "", Some(&viewer)).await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);

    let exported = app.post_form("/api/gslb_export", "", Some(&admin)).await;
    assert_eq!(exported.status(), StatusCode::OK);
    let cli: String = serde_json::from_str(&body_text(exported).await).expect("a JSON string");
    assert!(cli.contains("add gslb site SiteP1 10.10.0.1"), "{cli}");
    assert!(cli.contains("-backupParentlist"), "{cli}");

    let bad = "add gslb site A 10.0.0.1\nadd gslb site B not-an-ip -parentSite A\n";
    let refused = app
        .post_form(
            "/api/gslb_import",
            &format!("cli={}", encode(bad)),
            Some(&admin),
        )
        .await;
    assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let text = body_text(refused).await;
    assert!(text.contains("line 2"), "{text}");
    let sites = app
        .services
        .runtime
        .query(|sim| sim.gslb().topology().sites.len())
        .await
        .expect("query");
    assert_eq!(sites, 7, "the demo topology is untouched");

    let small = "add gslb site A 10.0.0.1\nadd gslb site B 10.0.0.2\nadd gslb site C 10.0.1.1 -parentSite A\nset gslb site A -backupParentlist B\n";
    let imported = app
        .post_form(
            "/api/gslb_import",
            &format!("cli={}", encode(small)),
            Some(&admin),
        )
        .await;
    assert_eq!(
        imported.status(),
        StatusCode::OK,
        "{}",
        body_text(imported).await
    );
    let names: Vec<String> = app
        .services
        .runtime
        .query(|sim| {
            sim.gslb()
                .topology()
                .sites
                .into_iter()
                .map(|s| s.name)
                .collect()
        })
        .await
        .expect("query");
    assert_eq!(names, ["A", "B", "C"]);
    let (rows, _) = services::audit::list(&app.services.store, 0, 50)
        .await
        .expect("audit");
    assert!(rows
        .iter()
        .any(|r| r.action == "gslb.topology_import" && r.outcome == "ok"));
    assert!(rows
        .iter()
        .any(|r| r.action == "gslb.topology_import" && r.outcome.contains("line 2")));
}

#[tokio::test]
async fn resolve_panel_explains_and_changes_nothing() {
    let app = app_with(DEMO).await;
    let viewer = app.sign_in("viewer").await;
    let answer = app
        .post_form(
            "/api/gslb_resolve",
            "domain=apps.example.com&client=192.0.2.10",
            Some(&viewer),
        )
        .await;
    assert_eq!(answer.status(), StatusCode::OK);
    let text = body_text(answer).await;
    assert!(text.contains("\"outcome\":\"answered\""), "{text}");
    assert!(text.contains("answered_by"), "{text}");
    let blank = app
        .post_form(
            "/api/gslb_resolve",
            "domain=&client=192.0.2.10",
            Some(&viewer),
        )
        .await;
    assert_eq!(blank.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let answered = app
        .services
        .runtime
        .query(|sim| sim.gslb().topology().dns_answered)
        .await
        .expect("query");
    assert_eq!(answered, 0, "a preview is not a query");
}

#[tokio::test]
async fn guided_replays_are_for_operators() {
    let app = app_with(DEMO).await;
    let viewer = app.sign_in("viewer").await;
    let operator = app.sign_in("operator").await;
    let forged = app
        .post_form("/api/gslb_guided", "number=1", Some(&viewer))
        .await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    let bad = app
        .post_form("/api/gslb_guided", "number=4", Some(&operator))
        .await;
    assert_eq!(bad.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let ok = app
        .post_form("/api/gslb_guided", "number=3", Some(&operator))
        .await;
    assert_eq!(ok.status(), StatusCode::OK);
    let text = body_text(ok).await;
    assert!(
        text.contains("Child_Site1") && text.contains("steps"),
        "{text}"
    );
    // Shown on a page read (a GET of `?scenario=N`), a replay changes nothing and writes no
    // audit row; the viewer's refusal does.
    let (rows, _) = services::audit::list(&app.services.store, 0, 100)
        .await
        .expect("audit");
    let outcomes: Vec<_> = rows
        .iter()
        .filter(|r| r.action == "gslb.guided_replay")
        .map(|r| (r.actor.as_str(), r.outcome.as_str()))
        .collect();
    assert_eq!(outcomes.len(), 1, "{outcomes:?}");
    assert_eq!(outcomes[0].0, "viewer");
    assert!(outcomes[0].1.starts_with("refused"), "{outcomes:?}");
}
