# Switchyard — the two commands of the README are `make run` and `make test`.
# Each installs what it needs and is missing (scripts/ensure-tools.sh) and builds what changed.

SHELL := /bin/bash
CARGO_TEST_PACKAGES := -p engine -p adns -p services -p app -p server --features app/ssr

.PHONY: run run-full test build site tools tools-browser cargo-test e2e screenshots fmt lint clean

## Build in release mode and serve the console at http://127.0.0.1:3000 (demo estate, data/switchyard.db).
run: build
	./target/release/switchyard serve

## The full-scale estate (docs/SCENARIOS.md): generated, then served at 600x on its own database.
run-full: build
	mkdir -p data
	./target/release/switchyard scenario generate --size full --out data/full-scale.toml
	./target/release/switchyard serve --scenario data/full-scale.toml --database-url sqlite://data/full-scale.db

## Every test: the crates' tests, then the browser suite against a fresh release server, all
## beside a throwaway PostgreSQL cluster (scripts/with-postgres.sh) for the PostgreSQL store.
## The server binary the browser suite runs is the one `cargo-test` builds for the server's
## integration tests (target/release/switchyard): building it again with `cargo build` would
## compile the app and the server a second time (dev-dependencies change the feature set).
test: tools-browser cargo-test site e2e

build: tools site
	cargo build --release -p server

site: tools
	scripts/build-site.sh release

tools:
	scripts/ensure-tools.sh

tools-browser:
	scripts/ensure-tools.sh --browser --postgres --clients

# One cargo invocation for every crate (never `--workspace`: it would merge ssr and hydrate).
# Release profile, so the test build shares its compiled dependencies with the server build.
cargo-test:
	scripts/with-postgres.sh cargo test --release $(CARGO_TEST_PACKAGES)

# The browser suite beside a throwaway PostgreSQL cluster too (the replicas journey).
e2e:
	scripts/with-postgres.sh bash -c 'cd end2end && npx playwright test'

## The README's two pictures (docs/images/), taken again by the browser suite's accessibility
## journey; run after `make test` (it uses the binary and the site that built).
screenshots:
	cd end2end && E2E_DOCS_IMAGES=1 npx playwright test a11y.spec.ts

fmt:
	cargo fmt --all

lint:
	cargo clippy --all-targets -p engine -p adns -p services -p server -p app --features app/ssr -- -D warnings
	cargo clippy -p app --features hydrate --target wasm32-unknown-unknown -- -D warnings

clean:
	cargo clean
	rm -rf end2end/node_modules end2end/test-results end2end/artifacts
