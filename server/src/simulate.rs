//! `switchyard simulate`: the engines headless, as fast as possible, one JSON object per event
//! on standard output. Exit status 2 for bad input (scenario, actions, duration).

use std::io::{BufWriter, Write};
use std::process::ExitCode;

use engine::{parse_duration, SimTime, Simulation};

use crate::cli::SimulateArgs;
use crate::scenario_file::{load_actions, load_scenario};

/// Simulated time advanced per chunk, so output streams instead of piling up in memory.
const CHUNK_MS: u64 = 3_600_000;

/// Runs the command; returns the process exit status.
pub fn run(args: &SimulateArgs) -> ExitCode {
    match run_inner(args, &mut std::io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(message)) => {
            eprintln!("switchyard simulate: {message}");
            ExitCode::from(2)
        }
        Err(Failure::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Output(e)) => {
            eprintln!("switchyard simulate: cannot write the output: {e}");
            ExitCode::FAILURE
        }
    }
}

/// What stopped a run.
#[derive(Debug)]
pub enum Failure {
    /// Bad input (exit 2); the message names the file, line and field.
    Input(String),
    /// The output could not be written.
    Output(std::io::Error),
}

/// Runs the simulation described by `args`, writing JSON lines to `out`.
pub fn run_inner(args: &SimulateArgs, out: &mut impl Write) -> Result<(), Failure> {
    let (scenario, _) =
        load_scenario(Some(&args.scenario)).map_err(|e| Failure::Input(e.to_string()))?;
    let until = parse_duration(&args.until)
        .map_err(|e| Failure::Input(format!("--until: {e}")))?
        .0;
    let actions = match &args.actions {
        Some(path) => load_actions(path, &scenario).map_err(|e| Failure::Input(e.to_string()))?,
        None => Vec::new(),
    };
    let seed = args.seed.unwrap_or(scenario.scenario.seed);
    let mut sim = Simulation::new(&scenario, seed);
    sim.schedule(actions);
    let mut out = BufWriter::new(out);
    let mut t = 0;
    loop {
        t = (t + CHUNK_MS).min(until);
        for event in sim.advance_to(SimTime(t)) {
            writeln!(out, "{}", event.to_json_line()).map_err(Failure::Output)?;
        }
        if t >= until {
            break;
        }
    }
    out.flush().map_err(Failure::Output)
}
