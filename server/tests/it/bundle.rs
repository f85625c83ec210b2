//! The browser bundle on the wire: its hashed folder read from the site's manifest, the files
//! compressed at build time served to browsers that accept them, a year of caching for
//! `/pkg` files, pages compressed on the fly, and each page's preload links.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use server::bundle::{bundle_name, pkg_dir, IMMUTABLE, MANIFEST};
use server::router::{build, leptos_options};

use crate::common::{app, body_text, send_to, TestApp};

const NAME: &str = "switchyard-0123456789abcdef";

/// The files of a built bundle, in its folder: wasm-bindgen's script, the module and the
/// stylesheet.
const FILES: [&str; 3] = ["switchyard.js", "switchyard_bg.wasm", "switchyard.css"];

/// A site root as `scripts/build-site.sh` leaves it: the manifest, the files and their
/// compressed copies (marked so the test sees which one was served).
fn site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("site");
    let pkg = dir.path().join("pkg").join(NAME);
    std::fs::create_dir_all(&pkg).expect("pkg");
    std::fs::write(dir.path().join(MANIFEST), format!("{NAME}\n")).expect("manifest");
    for file in FILES {
        std::fs::write(pkg.join(file), format!("plain {file}")).expect("file");
        std::fs::write(pkg.join(format!("{file}.br")), "brotli").expect("br");
        std::fs::write(pkg.join(format!("{file}.gz")), "gzip").expect("gz");
    }
    dir
}

/// The test app's router serving the bundle in `site`.
async fn router_over(test: &TestApp, site: &tempfile::TempDir) -> Router {
    let root = site.path().to_str().expect("utf-8 path");
    build(
        test.services.clone(),
        leptos_options(root, "127.0.0.1:0".parse().expect("addr")),
    )
    .await
    .expect("router")
}

#[test]
fn the_manifest_names_the_bundle_when_it_is_sane() {
    let dir = tempfile::tempdir().expect("dir");
    assert_eq!(bundle_name(dir.path()), None);
    assert_eq!(pkg_dir(dir.path()), "pkg");
    let cases = [
        (
            "switchyard-0123456789abcdef\n",
            Some("switchyard-0123456789abcdef"),
        ),
        ("  switchyard-ab  ", Some("switchyard-ab")),
        ("", None),
        ("../../etc/passwd", None),
        ("a b", None),
    ];
    for (text, want) in cases {
        std::fs::write(dir.path().join(MANIFEST), text).expect("write");
        assert_eq!(bundle_name(dir.path()).as_deref(), want, "{text:?}");
        let folder = want.map_or_else(|| "pkg".to_owned(), |name| format!("pkg/{name}"));
        assert_eq!(pkg_dir(dir.path()), folder, "{text:?}");
    }
}

#[tokio::test]
async fn pages_link_the_hashed_bundle_and_its_files_are_cached_for_a_year() {
    let test = app().await;
    let site = site();
    let router = router_over(&test, &site).await;
    let get = |path: &str, encodings: &str| {
        Request::get(path)
            .header(header::ACCEPT_ENCODING, encodings)
            .body(Body::empty())
            .expect("request")
    };

    // The sign-in page links the bundle in its hashed folder.
    let page = send_to(&router, get("/login", "identity")).await;
    assert_eq!(page.status(), StatusCode::OK);
    let html = body_text(page).await;
    for file in ["switchyard.js", "switchyard_bg.wasm", "switchyard.css"] {
        let path = format!("/pkg/{NAME}/{file}");
        assert!(html.contains(&path), "{path} in {html}");
    }

    // Each file: the build's brotli copy, else its gzip copy, else as it is; a year of caching.
    let cases = [
        ("br, gzip", Some("br"), "brotli"),
        ("gzip", Some("gzip"), "gzip"),
        ("identity", None, "plain"),
    ];
    for file in FILES {
        for (accepts, encoding, body) in cases {
            let response = send_to(&router, get(&format!("/pkg/{NAME}/{file}"), accepts)).await;
            assert_eq!(response.status(), StatusCode::OK, "{file} {accepts}");
            assert_eq!(
                response
                    .headers()
                    .get(header::CACHE_CONTROL)
                    .and_then(|v| v.to_str().ok()),
                Some(IMMUTABLE),
                "{file} {accepts}"
            );
            assert_eq!(
                response
                    .headers()
                    .get(header::CONTENT_ENCODING)
                    .and_then(|v| v.to_str().ok()),
                encoding,
                "{file} {accepts}"
            );
            assert!(
                body_text(response).await.starts_with(body),
                "{file} {accepts}"
            );
        }
    }

    // A missing file is not cached.
    let missing = send_to(&router, get(&format!("/pkg/{NAME}/old.js"), "gzip")).await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    assert!(missing.headers().get(header::CACHE_CONTROL).is_none());

    // Pages are compressed for browsers that accept it.
    for (accepts, want) in [("br", "br"), ("gzip", "gzip")] {
        let page = send_to(&router, get("/login", accepts)).await;
        assert_eq!(
            page.headers()
                .get(header::CONTENT_ENCODING)
                .and_then(|v| v.to_str().ok()),
            Some(want)
        );
    }
}

/// The `href`s of a page's `<link>`s with `rel` (in any attribute order), in page order.
fn linked(html: &str, rel: &str) -> Vec<String> {
    html.split("<link ")
        .skip(1)
        .filter_map(|tag| tag.split('>').next())
        .filter(|tag| tag.contains(&format!("rel=\"{rel}\"")))
        .filter_map(|tag| tag.split("href=\"").nth(1)?.split('"').next())
        .map(str::to_owned)
        .collect()
}

/// Under concurrent requests for several pages, each page names the bundle's module once in
/// its preload links, and nothing else. (The framework's own links, written outside the
/// page's owner, once landed in other requests' pages: one overview carried 581.)
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn each_page_preloads_the_module_once_under_concurrent_requests() {
    let test = app().await;
    let site = site();
    let router = router_over(&test, &site).await;
    let cookie = test.sign_in("viewer").await;
    let pages = ["/", "/lms", "/gslb/links", "/login"];

    let mut renders = tokio::task::JoinSet::new();
    for _ in 0..12 {
        for path in pages {
            let router = router.clone();
            let request = Request::get(path)
                .header(header::COOKIE, &cookie)
                .body(Body::empty())
                .expect("request");
            renders.spawn(async move {
                let response = send_to(&router, request).await;
                assert_eq!(response.status(), StatusCode::OK, "{path}");
                (path, body_text(response).await)
            });
        }
    }
    while let Some(render) = renders.join_next().await {
        let (path, html) = render.expect("render");
        let wasm: Vec<String> = linked(&html, "preload")
            .into_iter()
            .filter(|href| href.ends_with(".wasm"))
            .collect();
        assert_eq!(wasm, [format!("/pkg/{NAME}/switchyard_bg.wasm")], "{path}");
    }
}
