//! The same-origin check's rules (`server/src/origin.rs`): which public URLs are origins, and
//! which requests pass; the router test in `router.rs` drives the middleware itself.

use axum::http::{HeaderMap, Method};
use server::origin::{refusal, Origins};

fn origins() -> Origins {
    Origins::from_urls(&["https://Console.Example.com:443/", "http://127.0.0.1:3000"])
        .expect("origins")
}

fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
    let mut map = HeaderMap::new();
    for (name, value) in pairs {
        map.insert(*name, value.parse().expect("header value"));
    }
    map
}

const FORM: (&str, &str) = ("content-type", "application/x-www-form-urlencoded");

#[test]
fn public_urls_become_origins() {
    assert_eq!(
        origins().as_slice(),
        ["https://console.example.com", "http://127.0.0.1:3000"]
    );
    assert!(origins().any_https());
    for bad in [
        "console.example.com",
        "ftp://x",
        "https://x/path",
        "https://u@x",
        "https://",
    ] {
        assert!(Origins::from_urls(&[bad]).is_err(), "{bad}");
    }
    let local = Origins::of_listen_addr("127.0.0.1:4000".parse().expect("addr"));
    assert_eq!(
        local.as_slice(),
        ["http://127.0.0.1:4000", "http://localhost:4000"]
    );
    assert!(!local.any_https());
}

#[test]
fn requests_are_judged_by_where_they_come_from() {
    use Method as M;
    type Case = (
        Method,
        &'static str,
        &'static [(&'static str, &'static str)],
        bool,
    );
    let cases: &[Case] = &[
        // Reads always pass.
        (
            M::GET,
            "/api/estate",
            &[("origin", "https://evil.example")],
            true,
        ),
        // The console's own pages.
        (
            M::POST,
            "/api/add_note",
            &[
                ("origin", "https://console.example.com"),
                ("sec-fetch-site", "same-origin"),
                FORM,
            ],
            true,
        ),
        (
            M::POST,
            "/api/add_note",
            &[("origin", "HTTPS://console.example.com:443"), FORM],
            true,
        ),
        (
            M::POST,
            "/api/add_note",
            &[("origin", "http://127.0.0.1:3000"), FORM],
            true,
        ),
        (
            M::POST,
            "/api/add_note",
            &[(
                "content-type",
                "application/x-www-form-urlencoded; charset=UTF-8",
            )],
            true,
        ),
        // Scripts without browser headers.
        (M::POST, "/api/login", &[FORM], true),
        // Another site.
        (
            M::POST,
            "/api/add_note",
            &[
                ("origin", "https://evil.example"),
                ("sec-fetch-site", "cross-site"),
                FORM,
            ],
            false,
        ),
        (
            M::POST,
            "/api/add_note",
            &[("origin", "https://evil.example"), FORM],
            false,
        ),
        (
            M::POST,
            "/api/add_note",
            &[("sec-fetch-site", "cross-site"), FORM],
            false,
        ),
        (M::POST, "/api/add_note", &[("origin", "null"), FORM], false),
        // Another port of the same host: same site, not same origin.
        (
            M::POST,
            "/api/add_note",
            &[
                ("origin", "http://127.0.0.1:3001"),
                ("sec-fetch-site", "same-site"),
                FORM,
            ],
            false,
        ),
        (
            M::POST,
            "/api/add_note",
            &[("origin", "http://127.0.0.1:3001"), FORM],
            false,
        ),
        (
            M::DELETE,
            "/api/anything",
            &[("origin", "https://evil.example")],
            false,
        ),
        // A body a page elsewhere could send without a preflight.
        (
            M::POST,
            "/api/add_note",
            &[
                ("origin", "http://127.0.0.1:3000"),
                ("content-type", "text/plain"),
            ],
            false,
        ),
        (
            M::POST,
            "/api/add_note",
            &[("content-type", "application/json")],
            false,
        ),
        (M::POST, "/api/add_note", &[], false),
    ];
    for (method, path, pairs, passes) in cases {
        let got = refusal(method, path, &headers(pairs), &origins());
        assert_eq!(got.is_none(), *passes, "{method} {path} {pairs:?}: {got:?}");
    }
}
