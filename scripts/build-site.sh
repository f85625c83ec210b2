#!/usr/bin/env bash
# Builds the browser bundle into target/site (what `switchyard serve --site-root` serves):
#   1. the app crate with `hydrate` for wasm32, as a cdylib;
#   2. wasm-bindgen (exact version, on PATH) into target/site/pkg as switchyard.js + switchyard_bg.wasm;
#   3. release only: wasm-opt (binaryen from npm, end2end/node_modules/.bin), never Debian's
#      older binaryen, which breaks hydration;
#   4. the stylesheet to pkg/switchyard.css and public/ to the site root.
# Usage: scripts/build-site.sh [release|debug]
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-release}
case "$mode" in
  release) profile=wasm-release; out=wasm-release ;;
  debug)   profile=dev;          out=debug ;;
  *) echo "usage: $0 [release|debug]" >&2; exit 2 ;;
esac

cargo rustc -p app --lib --target wasm32-unknown-unknown --profile "$profile" \
  --features hydrate --crate-type cdylib

site=target/site
rm -rf "$site/pkg"
mkdir -p "$site/pkg"
wasm-bindgen --target web --no-typescript --out-dir "$site/pkg" --out-name switchyard \
  "target/wasm32-unknown-unknown/$out/app.wasm"
if [ "$mode" = release ]; then
  end2end/node_modules/.bin/wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "$site/pkg/switchyard_bg.wasm" -o "$site/pkg/switchyard_bg.wasm"
fi
cp style/main.css "$site/pkg/switchyard.css"
cp -R public/. "$site/"
echo "site built in $site ($mode): $(du -h "$site/pkg/switchyard_bg.wasm" | cut -f1) of wasm"
