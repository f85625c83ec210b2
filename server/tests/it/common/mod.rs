//! Shared set-up of the router tests: a temp SQLite file, three users, a paused runtime.

#![allow(dead_code, missing_docs)]

pub mod pg_cluster;
pub mod process;

use axum::body::Body;
use axum::http::{header, Request, Response};
use axum::Router;
use engine::{Role, Scenario, Speed};
use http_body_util::BodyExt;
use services::Services;
use tower::ServiceExt;

pub const PASSWORD: &str = "test-password";

/// The longest a test waits for a response, or for the rest of its body: a render that
/// waits for something that never comes then fails the test, naming the request, instead of
/// stalling the suite.
pub const RESPONSE_LIMIT: std::time::Duration = std::time::Duration::from_secs(60);

pub const SCENARIO: &str = r#"
[scenario]
name = "router test"
seed = 3

[[core.heartbeats]]
id = "hb"
interval = "10s"

[[lhc.resource_locations]]
id = "rl-a"
name = "A"

[[lhc.resource_locations.connectors]]
fqdn = "cc1.a.example"

[[lhc.resource_locations.connectors]]
fqdn = "cc2.a.example"

[[lhc.resource_locations.vda_pools]]
prefix = "A-"
count = 5
kind = "multi_session"
delivery_group = "dg"
resources = ["Desktop"]

[[lhc.delivery_groups]]
id = "dg"

[[lms.zones]]
id = "z1"
name = "Zone 1"

[[lms.applications]]
name = "Word"

[[lms.servers]]
host = "XA-01"
zone = "z1"
apps = ["Word"]

[[lms.servers]]
host = "XA-02"
zone = "z1"
evaluator = "Advanced"
apps = ["Word"]
"#;

pub struct TestApp {
    pub router: Router,
    pub services: Services,
    _dir: tempfile::TempDir,
}

pub async fn app() -> TestApp {
    app_with(SCENARIO).await
}

/// The router over a scenario given as TOML text.
pub async fn app_with(scenario_text: &str) -> TestApp {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = format!("sqlite://{}", dir.path().join("test.db").display());
    let pool = services::Store::connect(&url).await.expect("db");
    for role in Role::ALL {
        services::accounts::create(&pool, role.as_str(), PASSWORD, role)
            .await
            .expect("user");
    }
    let scenario = Scenario::from_toml_str(scenario_text, "test.toml").expect("scenario");
    let runtime = services::runtime::start(pool.clone(), &scenario, 3, Vec::new(), Speed::Paused)
        .await
        .expect("runtime");
    let services = Services::new(pool, runtime, std::sync::Arc::new(scenario));
    let options =
        server::router::leptos_options("target/site", "127.0.0.1:0".parse().expect("addr"));
    let router = server::router::build(services.clone(), options)
        .await
        .expect("router");
    TestApp {
        router,
        services,
        _dir: dir,
    }
}

impl TestApp {
    /// Sends `request` and returns the response once its head is there (the body may still
    /// stream: the live stream's does not end).
    pub async fn send(&self, request: Request<Body>) -> Response<Body> {
        send_to(&self.router, request).await
    }

    /// POSTs a form to a server function, with the session cookie if any.
    pub async fn post_form(&self, path: &str, form: &str, cookie: Option<&str>) -> Response<Body> {
        let mut request = Request::post(path)
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(header::ACCEPT, "application/json");
        if let Some(c) = cookie {
            request = request.header(header::COOKIE, c);
        }
        self.send(request.body(Body::from(form.to_owned())).expect("request"))
            .await
    }

    pub async fn get(&self, path: &str, cookie: Option<&str>) -> Response<Body> {
        let mut request = Request::get(path);
        if let Some(c) = cookie {
            request = request.header(header::COOKIE, c);
        }
        self.send(request.body(Body::empty()).expect("request"))
            .await
    }

    /// The HTML of page `path` with `&amp;` read back as `&`, so its links compare as URLs.
    pub async fn page_html(&self, path: &str, cookie: Option<&str>) -> String {
        let response = self.get(path, cookie).await;
        read_body(response, &format!("GET {path}"))
            .await
            .replace("&amp;", "&")
    }

    /// Waits until every event the run has emitted is stored (at most 30 s).
    pub async fn stored(&self) {
        let runtime = &self.services.runtime;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        loop {
            let status = runtime.status();
            if status.events_persisted >= status.events_total {
                return;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "events not stored after 30 s: {status:?}"
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }

    /// Signs in and returns the `name=value` of the session cookie.
    pub async fn sign_in(&self, username: &str) -> String {
        let response = self
            .post_form(
                "/api/login",
                &format!("username={username}&password={PASSWORD}"),
                None,
            )
            .await;
        assert!(
            response.status().is_success() || response.status().is_redirection(),
            "{}",
            response.status()
        );
        session_cookie(&response).expect("session cookie")
    }
}

/// Sends `request` to `router` and returns the response once its head is there, at most
/// [`RESPONSE_LIMIT`] later (the body may still stream).
pub async fn send_to(router: &Router, request: Request<Body>) -> Response<Body> {
    let what = format!("{} {}", request.method(), request.uri());
    tokio::time::timeout(RESPONSE_LIMIT, router.clone().oneshot(request))
        .await
        .unwrap_or_else(|_| panic!("{what}: no response within {RESPONSE_LIMIT:?}"))
        .expect("response")
}

/// The full `Set-Cookie` value of the session cookie.
pub fn set_cookie(response: &Response<Body>) -> Option<String> {
    response
        .headers()
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("switchyard_session="))
        .map(str::to_owned)
}

/// `name=value` of the session cookie.
pub fn session_cookie(response: &Response<Body>) -> Option<String> {
    set_cookie(response).and_then(|v| v.split(';').next().map(str::to_owned))
}

/// The whole body of `response` as text (at most [`RESPONSE_LIMIT`] to its end).
pub async fn body_text(response: Response<Body>) -> String {
    read_body(response, "a response").await
}

/// The whole body of `response` (`what`, named if it does not end within the limit).
async fn read_body(response: Response<Body>, what: &str) -> String {
    let bytes = tokio::time::timeout(RESPONSE_LIMIT, response.into_body().collect())
        .await
        .unwrap_or_else(|_| panic!("{what}: the body did not end within {RESPONSE_LIMIT:?}"))
        .expect("body")
        .to_bytes();
    String::from_utf8_lossy(&bytes).into_owned()
}
