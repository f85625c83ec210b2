#!/usr/bin/env bash
# Builds the browser bundle into target/site (what `switchyard serve --site-root` serves):
#   1. the app crate with `hydrate` for wasm32, as a cdylib (cargo: nothing to do when nothing
#      changed): the islands of the console, one module;
#   2. when the compiled wasm, the stylesheet, public/ or this script changed since the last
#      build (a key in target/site/.built), and only then:
#      a. wasm-bindgen (exact version, on PATH): switchyard.js + switchyard_bg.wasm;
#      b. release only: wasm-opt (binaryen from npm, end2end/node_modules/.bin) on the module,
#         never Debian's older binaryen, which breaks hydration;
#      c. the stylesheet beside them, and the whole folder named after a hash of its content
#         (pkg/switchyard-<hash>/) so that browsers may keep its files for a year, each file
#         with a brotli (.br) and a gzip (.gz) copy made once here;
#      d. the folder's name into target/site/bundle.txt (read by the server) and public/ to
#         the site root.
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
wasm="target/wasm32-unknown-unknown/$out/app.wasm"
key=$(
  {
    echo "$mode"
    sha256sum "$wasm" style/main.css "$0"
    find public -type f -print0 | sort -z | xargs -0 -r sha256sum
  } | sha256sum | cut -c1-32
)
if [ -f "$site/.built" ] && [ "$(cat "$site/.built")" = "$key" ] \
  && [ -f "$site/bundle.txt" ] && [ -f "$site/pkg/$(cat "$site/bundle.txt")/switchyard_bg.wasm" ]; then
  echo "site up to date in $site ($mode): $(cat "$site/bundle.txt")"
  exit 0
fi

mkdir -p "$site"
next="$site/pkg.next"
rm -rf "$next"
mkdir -p "$next"
wasm-bindgen --target web --no-typescript --out-dir "$next" --out-name switchyard "$wasm"
if [ "$mode" = release ]; then
  module="$next/switchyard_bg.wasm"
  end2end/node_modules/.bin/wasm-opt -Oz --enable-bulk-memory \
    --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
    --enable-reference-types --enable-multivalue "$module" -o "$module"
fi
cp style/main.css "$next/switchyard.css"
hash=$(find "$next" -type f -print0 | sort -z | xargs -0 cat | sha256sum | cut -c1-16)
name="switchyard-$hash"
find "$next" -type f -print0 | sort -z | xargs -0 node scripts/precompress.mjs
rm -rf "$site/pkg"
mkdir -p "$site/pkg"
mv "$next" "$site/pkg/$name"
cp -R public/. "$site/"
echo "$name" > "$site/bundle.txt"
echo "$key" > "$site/.built"
wasm_file="$site/pkg/$name/switchyard_bg.wasm"
echo "site built in $site ($mode): $name, wasm $(stat -c %s "$wasm_file") bytes," \
  "$(stat -c %s "$wasm_file.br") brotli, $(stat -c %s "$wasm_file.gz") gzip"
