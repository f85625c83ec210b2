#!/usr/bin/env bash
# Installs what the build and the tests need and is missing; does nothing when all is there.
#   scripts/ensure-tools.sh           wasm target, wasm-bindgen CLI, npm packages (wasm-opt)
#   scripts/ensure-tools.sh --browser also Debian's chromium, for the browser tests
#   scripts/ensure-tools.sh --postgres also Debian's postgresql, for the PostgreSQL tests
#                                      (its server tools; no cluster is created or started)
#   scripts/ensure-tools.sh --clients  also the real clients the tests hold our interfaces to:
#                                      Debian's prometheus (`promtool check metrics` on
#                                      /metrics) and bind9-dnsutils (`dig` against the ADNS)
# Everything comes from the package registries (rustup's target, crates.io, npm, Debian apt):
# nothing downloads a binary from elsewhere, and Playwright never downloads a browser.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '==> %s\n' "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# The wasm-bindgen CLI must be exactly the version of the wasm-bindgen crate in Cargo.lock.
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  say "installing wasm-bindgen-cli $want (found: ${have:-none})"
  # Not --locked: one crate pinned by the CLI's own lock file is no longer on crates.io.
  cargo install wasm-bindgen-cli --version "$want"
fi

# npm packages of end2end/: Playwright (no browser download) and binaryen's wasm-opt.
if [ ! -f end2end/node_modules/.package-lock.json ] \
   || [ end2end/package-lock.json -nt end2end/node_modules/.package-lock.json ]; then
  say "installing the npm packages of end2end/"
  (cd end2end && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
fi

want_browser=no; want_postgres=no; want_clients=no
for arg in "$@"; do
  case "$arg" in
    --browser) want_browser=yes ;;
    --postgres) want_postgres=yes ;;
    --clients) want_clients=yes ;;
    *) echo "ensure-tools: unknown option $arg (--browser, --postgres, --clients)" >&2; exit 2 ;;
  esac
done

packages=()
if [ "$want_browser" = yes ] && [ ! -x /usr/bin/chromium ]; then
  packages+=(chromium)
fi
if [ "$want_postgres" = yes ] && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  packages+=(postgresql)
fi
# Installed without recommends: prometheus would bring its node exporter and web libraries.
lean=()
if [ "$want_clients" = yes ] && ! command -v promtool >/dev/null; then
  lean+=(prometheus)
fi
if [ "$want_clients" = yes ] && ! command -v dig >/dev/null; then
  lean+=(bind9-dnsutils)
fi
if [ "${#packages[@]}" -gt 0 ] || [ "${#lean[@]}" -gt 0 ]; then
  say "installing Debian's ${packages[*]} ${lean[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update
  if [ "${#packages[@]}" -gt 0 ]; then
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y "${packages[@]}"
  fi
  if [ "${#lean[@]}" -gt 0 ]; then
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${lean[@]}"
  fi
fi
