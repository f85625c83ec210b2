//! The cost of flap detection on a scenario, engines only: the run up to `UNTIL` with
//! `[attention]` as the scenario has it (by default every engine watched) and with every
//! engine's watch disabled, best of `REPEAT` runs each, in the same process.
//!
//! ```text
//! cargo run --release -p engine --example flap_overhead -- LABEL SCENARIO.toml UNTIL [REPEAT]
//! ```
//!
//! `UNTIL` is a duration (`24h`, `30d`). Prints one line: both wall times, the overhead in
//! percent, the events of each run and the flapping events.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use engine::duration::parse_duration;
use engine::{Scenario, SimTime, Simulation};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [label, path, until, rest @ ..] = args.as_slice() else {
        eprintln!("usage: flap_overhead LABEL SCENARIO.toml UNTIL [REPEAT]");
        return ExitCode::from(2);
    };
    let repeat: usize = rest
        .first()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3)
        .max(1);
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let with = match Scenario::from_toml_str(&text, path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let until = match parse_duration(until) {
        Ok(d) => SimTime(d.as_millis()),
        Err(e) => {
            eprintln!("{until}: {e}");
            return ExitCode::from(2);
        }
    };
    let mut without = with.clone();
    for config in [
        &mut without.attention.lhc,
        &mut without.attention.lms,
        &mut without.attention.gslb,
        &mut without.attention.autoscale,
    ] {
        config.enabled = false;
    }
    let run = |scenario: &Scenario| -> (Duration, usize, usize) {
        let mut best = Duration::MAX;
        let mut counts = (0, 0);
        for _ in 0..repeat {
            let mut sim = Simulation::new(scenario, scenario.seed());
            let start = Instant::now();
            let events = sim.advance_to(until);
            best = best.min(start.elapsed());
            let flaps = events
                .iter()
                .filter(|e| e.kind.starts_with("flapping."))
                .count();
            counts = (events.len(), flaps);
        }
        (best, counts.0, counts.1)
    };
    let (t_with, events_with, flaps) = run(&with);
    let (t_without, events_without, _) = run(&without);
    let overhead = (t_with.as_secs_f64() / t_without.as_secs_f64().max(1e-9) - 1.0) * 100.0;
    println!(
        "{label}, flap detection (engines only, best of {repeat}): {:.3} s with, {:.3} s without: {overhead:+.1} % ({events_with} and {events_without} events, {flaps} flapping)",
        t_with.as_secs_f64(),
        t_without.as_secs_f64(),
    );
    ExitCode::SUCCESS
}
