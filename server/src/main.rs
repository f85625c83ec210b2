//! The `switchyard` binary. See `switchyard --help` and docs/CONFIGURATION.md.

// The route tree of the whole UI is one deep type.
#![recursion_limit = "512"]

use std::process::ExitCode;

use clap::Parser;
use mimalloc::MiMalloc;
use server::cli::{Cli, Command, UserCommand};

/// The engines allocate many small, short-lived values (event details); mimalloc serves them
/// markedly faster than the system allocator (docs/PERFORMANCE.md).
#[global_allocator]
static GLOBAL: MiMalloc = MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("switchyard: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match cli.command {
        // `simulate` prints events only: no logging set-up, so stdout stays pure JSON lines.
        Some(Command::Simulate(args)) => server::simulate::run(&args),
        Some(Command::User(UserCommand::Add(args))) => runtime.block_on(server::users::add(args)),
        Some(Command::Serve(args)) => runtime.block_on(server::serve::run(args)),
        None => runtime.block_on(server::serve::run(cli.serve)),
    }
}
