//! The server's integration tests, one module per area, built as one test binary: the router
//! embeds the whole UI's view types, so each separate binary would compile and link them
//! again (minutes each in release). The library has no unit tests of its own for the same reason
//! (`test = false` in its manifest): a test build of the library is one more full compile.
//!
//! `cli` and `scenario_file` check the command line and scenario files, `origin` the same-origin rules; `common` starts the router on a temp SQLite file; `router` (sign-in, gate, roles, audit,
//! export, health, metrics, the LHC and LMS actions), `time_travel`, `live` (the stream's budget), `activity` (the sparklines' counts), `gslb`, `autoscale` and `dns` (the
//! ADNS responder over real sockets) drive it; `simulate`, `simulate_pinned`, `shutdown` (SIGTERM
//! with live streams open) and `durable` (kill -9, then resume) and `postgres` (the same on PostgreSQL, and the refusals of an unusable database) run the real binary;
//! `replicas` runs two consoles on one PostgreSQL database (a follower, then kill -9 of the leader).

// The router embeds the whole UI's view types (as in the binary, see server/src/main.rs).
#![recursion_limit = "512"]

mod common;

mod activity;
mod alerts;
mod attention;
mod autoscale;
mod bundle;
mod cli;
mod dns;
mod durable;
mod estate_lists;
mod gslb;
mod history_pages;
mod lists;
mod live;
mod nav;
mod origin;
mod overview;
mod postgres;
mod replicas;
mod router;
mod scenario_file;
mod server_page;
mod shutdown;
mod simulate;
mod simulate_pinned;
mod time_travel;
