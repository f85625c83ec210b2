//! `splitter <app.wasm> <out dir> <main module>`: cuts the compiled browser bundle (built with
//! `-Clink-args=--emit-relocs`) at the split points of its lazy routes (`app/src/routes.rs`).
//!
//! Writes into `<out dir>`:
//! - `main.wasm`, the main module, still to go through wasm-bindgen;
//! - one `.wasm` per split point, a section of the console (and one per piece of code several
//!   sections share);
//! - the loader the main module imports, under the name the framework expects
//!   (`__wasm_split.______________________.js`), which imports `initSync` from
//!   `<main module>` (the path of wasm-bindgen's JavaScript, as the browser asks for it);
//! - `section_modules.json` ([`MANIFEST`]): for each split point, the modules it needs,
//!   which the server names in `<link rel="preload">` when it renders that page.
//!
//! Run by `scripts/build-site.sh`; it prints one line per module with its size.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use wasm_split_cli_support::{transform, Options};

/// The loader's name: the framework looks for this exact name beside the bundle.
const LOADER: &str = "./__wasm_split.______________________.js";

/// The manifest's name in the bundle's folder, which the server reads to preload a page's
/// modules (the app's `components::section_preloads::MANIFEST`). Not the framework's name: it
/// would write links of its own from it, outside the page being rendered.
const MANIFEST: &str = "section_modules.json";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, out_dir, main_module] = args.as_slice() else {
        eprintln!("usage: splitter <app.wasm> <out dir> <main module path>");
        return ExitCode::from(2);
    };
    match split(Path::new(input), Path::new(out_dir), main_module) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("splitter: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Splits `input` into `out_dir` and writes the manifest beside the modules.
fn split(input: &Path, out_dir: &Path, main_module: &str) -> Result<(), String> {
    let wasm = std::fs::read(input).map_err(|e| format!("reading {}: {e}", input.display()))?;
    let main_out: PathBuf = out_dir.join("main.wasm");
    let mut options = Options::new(&wasm);
    options.output_dir = out_dir;
    options.main_out_path = &main_out;
    options.main_module = main_module;
    options.link_name = LOADER;
    let result = transform(options).map_err(|e| format!("splitting {}: {e:#}", input.display()))?;

    let manifest = serde_json::to_string_pretty(&result.prefetch_map)
        .map_err(|e| format!("writing the manifest: {e}"))?;
    let manifest_path = out_dir.join(MANIFEST);
    std::fs::write(&manifest_path, manifest)
        .map_err(|e| format!("writing {}: {e}", manifest_path.display()))?;

    for module in std::iter::once(&main_out).chain(result.split_modules.iter()) {
        let size = std::fs::metadata(module).map(|m| m.len()).unwrap_or(0);
        println!("{} {size}", module.display());
    }
    Ok(())
}
