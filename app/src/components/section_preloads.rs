//! The `<link rel="preload">` of the modules a page's section needs, written into the page's
//! `<head>` by the server, so that the browser downloads them beside the main module instead
//! of after it.
//!
//! The framework would write these links itself from a manifest of its own name, but it looks
//! that manifest and the page's meta context up after the page is rendered, outside the
//! page's reactive owner: under concurrent requests one page got none and another the links
//! of twenty other renders (581 links), and a clean build's overview never got its own. So
//! the splitter writes the manifest under a name the framework does not read ([`MANIFEST`])
//! and the shell writes the links from the request's path ([`crate::routes::section_of`]):
//! each page names its own section's modules, once.

use leptos::prelude::*;

/// The split manifest's name in the bundle's folder, as the workspace's splitter writes it:
/// not the framework's name (`__wasm_split_manifest.json`), so the framework writes no links
/// of its own (see the module's doc).
pub const MANIFEST: &str = "section_modules.json";

/// The loader of the split modules (its name as the splitter writes it).
#[cfg(feature = "ssr")]
const LOADER: &str = "__wasm_split.______________________.js";

/// The preload links of the section of the page being rendered (server only; nothing for a
/// page outside the sections or a site without a split bundle).
#[component]
pub fn SectionPreloads(
    /// The site's options: where the bundle's folder is.
    options: LeptosOptions,
) -> impl IntoView {
    #[cfg(feature = "ssr")]
    {
        let path = use_context::<http::request::Parts>().map(|parts| parts.uri.path().to_owned());
        let section = path.as_deref().and_then(crate::routes::section_of);
        let pkg = format!("/{}", options.site_pkg_dir);
        let modules = section
            .map(|section| manifest::modules_of(&options, section))
            .unwrap_or_default();
        (!modules.is_empty()).then(|| {
            view! {
                {modules
                    .iter()
                    .map(|module| view! {
                        <link rel="preload" href=format!("{pkg}/{module}.wasm") r#as="fetch" r#type="application/wasm" crossorigin="anonymous"/>
                    })
                    .collect_view()}
                <link rel="modulepreload" href=format!("{pkg}/{LOADER}") crossorigin="anonymous"/>
            }
        })
    }
    #[cfg(not(feature = "ssr"))]
    {
        let _ = options;
    }
}

/// The bundle's split manifest, read once per bundle folder.
#[cfg(feature = "ssr")]
mod manifest {
    use std::collections::HashMap;
    use std::path::PathBuf;
    use std::sync::{Arc, Mutex};

    use leptos::config::LeptosOptions;

    /// Modules by `#[lazy]` function (`show_lms_<hash>` → `["chunk_10", …]`).
    type Manifest = HashMap<String, Vec<String>>;

    /// The manifest last read, and the file it was read from.
    static READ: Mutex<Option<(PathBuf, Arc<Manifest>)>> = Mutex::new(None);

    /// The modules `section`'s function needs (its key is `section` then `_` and a hash);
    /// empty when the bundle has no manifest or no such key.
    pub fn modules_of(options: &LeptosOptions, section: &str) -> Vec<String> {
        let file = PathBuf::from(options.site_root.as_ref())
            .join(options.site_pkg_dir.as_ref())
            .join(super::MANIFEST);
        let manifest = {
            let mut read = READ.lock().unwrap_or_else(|e| e.into_inner());
            match read.as_ref() {
                Some((from, manifest)) if *from == file => Arc::clone(manifest),
                _ => {
                    let manifest = Arc::new(load(&file));
                    *read = Some((file, Arc::clone(&manifest)));
                    manifest
                }
            }
        };
        manifest
            .iter()
            .find(|(key, _)| {
                key.strip_prefix(section)
                    .and_then(|rest| rest.strip_prefix('_'))
                    .is_some_and(|hash| hash.bytes().all(|b| b.is_ascii_digit()))
            })
            .map(|(_, modules)| modules.clone())
            .unwrap_or_default()
    }

    /// The manifest in `file`, or nothing (a site built without splitting, or not built).
    fn load(file: &std::path::Path) -> Manifest {
        std::fs::read_to_string(file)
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default()
    }
}
