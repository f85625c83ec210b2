//! The browser bundle on the wire. `scripts/build-site.sh` puts the bundle in a folder named
//! after a hash of its content (`pkg/switchyard-<hash>/`: `switchyard.js`, the main module
//! `switchyard_bg.wasm`, one module per section of the console and per piece of code they
//! share, their loader, `switchyard.css`, each beside a `.br` and a `.gz` compressed once at
//! build time) and writes that name into `<site root>/bundle.txt`. The pages ask for files in
//! that folder, so a `/pkg` file never changes under its path: it is served with
//! `Cache-Control: public, max-age=31536000, immutable`, and a new build is a new folder.

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

/// The bundle's folder under `pkg/` (the manifest's one line), or `None` when the site has no
/// manifest (a site not built): the files are then asked for straight under `pkg/`.
pub fn bundle_name(site_root: &Path) -> Option<String> {
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
}

/// The folder the pages ask the bundle's files from, relative to the site root: `pkg/<bundle>`,
/// or `pkg` for a site without a manifest.
pub fn pkg_dir(site_root: &Path) -> String {
    match bundle_name(site_root) {
        Some(name) => format!("pkg/{name}"),
        None => "pkg".to_owned(),
    }
}

/// Whether the bundle's main wasm module is present (a site that was built).
pub fn is_built(site_root: &Path) -> bool {
    site_root
        .join(pkg_dir(site_root))
        .join(format!("{}_bg.wasm", app::OUTPUT_NAME))
        .is_file()
}

/// The `/pkg` files: the compressed copy the browser accepts (brotli, then gzip) when there is
/// one, else the file as it is.
pub fn pkg_files(site_root: &Path) -> ServeDir {
    ServeDir::new(site_root.join("pkg"))
        .precompressed_br()
        .precompressed_gzip()
}

/// Marks a `/pkg` file found (200, or 304 to a conditional request) as cacheable for a year
/// when it lies in a bundle folder named after its content (`switchyard-<hash>/`). A file of a
/// site without that folder keeps the default (revalidated on each use).
pub async fn cache_forever(request: Request, next: Next) -> Response {
    let hashed = request.uri().path().split('/').any(|segment| {
        segment
            .strip_prefix(app::OUTPUT_NAME)
            .is_some_and(|rest| rest.starts_with('-'))
    });
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
