//! The `switchyard` binary. See `switchyard --help` and docs/CONFIGURATION.md.

use std::process::ExitCode;

use clap::Parser;
use mimalloc::MiMalloc;
use server::cli::Cli;

/// The engines allocate many small, short-lived values (event details); mimalloc serves them
/// markedly faster than the system allocator (docs/PERFORMANCE.md).
#[global_allocator]
static GLOBAL: MiMalloc = MiMalloc;

fn main() -> ExitCode {
    // Everything runs in the library (`server::main`): the binary stays a thin shell, so the
    // async code is compiled once, with the library, and not again for the binary.
    server::main(Cli::parse())
}
