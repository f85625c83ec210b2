//! The browser bundle on the wire. `scripts/build-site.sh` names the bundle after a hash of its
//! content (`pkg/switchyard-<hash>.js`, `…_bg.wasm`, `….css`, each beside a `.br` and a `.gz`
//! compressed once at build time) and writes that name into `<site root>/bundle.txt`. The
//! pages ask for those names, so a `/pkg` file never changes under its name: it is served with
//! `Cache-Control: public, max-age=31536000, immutable`, and a new build is a new name.

use std::path::Path;

use axum::extract::Request;
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use tower_http::services::ServeDir;

/// The file in the site root that names the current bundle.
pub const MANIFEST: &str = "bundle.txt";

/// How long a browser may keep a `/pkg` file: a year, never revalidated (its name changes
/// with its content).
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// The bundle's name in `site_root` (the manifest's one line), or the app's plain name when
/// the site has no manifest (a site built before names carried a hash, or none at all).
pub fn bundle_name(site_root: &Path) -> String {
    std::fs::read_to_string(site_root.join(MANIFEST))
        .ok()
        .map(|text| text.trim().to_owned())
        .filter(|name| {
            !name.is_empty()
                && name.len() <= 64
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
        .unwrap_or_else(|| app::OUTPUT_NAME.to_owned())
}

/// Whether the bundle's wasm file is present (a site that was built).
pub fn is_built(site_root: &Path) -> bool {
    let name = bundle_name(site_root);
    site_root
        .join("pkg")
        .join(format!("{name}_bg.wasm"))
        .is_file()
}

/// The `/pkg` files: the compressed copy the browser accepts (brotli, then gzip) when there is
/// one, else the file as it is.
pub fn pkg_files(site_root: &Path) -> ServeDir {
    ServeDir::new(site_root.join("pkg"))
        .precompressed_br()
        .precompressed_gzip()
}

/// Marks a `/pkg` file found (200, or 304 to a conditional request) as cacheable for a year.
/// A file of a site without hashed names keeps the default (revalidated on each use).
pub async fn cache_forever(request: Request, next: Next) -> Response {
    let hashed = request
        .uri()
        .path()
        .rsplit('/')
        .next()
        .and_then(|file| file.strip_prefix(app::OUTPUT_NAME))
        .is_some_and(|rest| rest.starts_with('-'));
    let mut response = next.run(request).await;
    let found =
        response.status().is_success() || response.status() == axum::http::StatusCode::NOT_MODIFIED;
    if hashed && found {
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static(IMMUTABLE));
    }
    response
}
