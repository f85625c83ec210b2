//! The `switchyard` server: command line, start-up, the axum router and the few plain HTTP
//! routes that are not server functions (live stream, export, health, metrics).
//!
//! Reading order: [`cli`] (every flag and its environment variable) → [`serve`] (start-up:
//! database, first admin, scenario, runtime, listener, shutdown) → [`router`] (routes and
//! layers; [`router::build`] is what the tests drive with `oneshot`; [`state`] what its
//! handlers share) → [`origin`] (state-changing requests from the console's own origins only) → [`gate`] (sign-in
//! required) → [`live`], [`export`], [`health`] → [`dns`] (the ADNS responder) → [`simulate`], [`users`] and [`generate`]
//! (the other sub-commands).

// The route tree of the whole UI is one deep type.
#![recursion_limit = "512"]

pub mod bundle;
pub mod cli;
pub mod dns;
pub mod export;
pub mod gate;
pub mod generate;
pub mod health;
pub mod live;
pub mod origin;
pub mod router;
pub mod scenario_file;
pub mod serve;
pub mod simulate;
pub mod state;
pub mod users;

use std::process::ExitCode;

use cli::{Cli, Command, ScenarioCommand, UserCommand};

/// Runs the command line `cli` (what the `switchyard` binary does); returns the exit status.
pub fn main(cli: Cli) -> ExitCode {
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
        Some(Command::Simulate(args)) => simulate::run(&args),
        Some(Command::User(UserCommand::Add(args))) => runtime.block_on(users::add(args)),
        Some(Command::Scenario(ScenarioCommand::Generate(args))) => generate::write(&args),
        Some(Command::Serve(args)) => runtime.block_on(serve::run(args)),
        None => runtime.block_on(serve::run(cli.serve)),
    }
}
