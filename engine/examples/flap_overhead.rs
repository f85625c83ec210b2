//! The cost of flap detection on a scenario, engines only: the run up to `UNTIL` with
//! `[attention]` as the scenario has it (by default every engine watched) and with every
//! engine's watch disabled, best of `REPEAT` runs each, in the same process.
//!
//! ```text
//! cargo run --release -p engine --example flap_overhead -- LABEL SCENARIO.toml UNTIL [REPEAT]
//! ```
//!
//! `UNTIL` is a duration (`24h`, `30d`). Prints two lines: both wall times, the overhead in
//! percent, the events of each run and the flapping events; then the cost of evaluating the
//! six example alert rules (docs/ALERTS.md), once every simulated hour of the same run, and
//! what that costs at the console's fastest cadence (4 evaluations per second of wall time).

use std::process::ExitCode;
use std::time::{Duration, Instant};

use engine::alerts::{AlertBook, AlertRule, AlertSeverity, Condition};
use engine::duration::parse_duration;
use engine::lhc::HaState;
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
    let (mean, max, evaluations, fired) = rule_cost(&with, until);
    println!(
        "{label}, alert rules (6 example rules, {evaluations} evaluations, one per simulated hour): {:.1} µs mean, {:.1} µs max per evaluation, {fired} alerts fired; at 4 evaluations a second: {:.3} % of wall time",
        mean.as_secs_f64() * 1e6,
        max.as_secs_f64() * 1e6,
        mean.as_secs_f64() * 4.0 * 100.0,
    );
    ExitCode::SUCCESS
}

/// The six example rules of docs/ALERTS.md.
fn example_rules() -> Vec<AlertRule> {
    let rule = |name: &str, condition| AlertRule {
        name: name.to_owned(),
        severity: AlertSeverity::Warning,
        condition,
    };
    vec![
        rule(
            "extended",
            Condition::HaState {
                state: HaState::ExtendedHa,
                for_min: 10,
            },
        ),
        rule("vdas", Condition::VdasUnregistered { pct: 5.0 }),
        rule("orphaned", Condition::ChildOrphaned {}),
        rule(
            "full",
            Condition::ServerLoad {
                load: 10_000,
                samples: 2,
            },
        ),
        rule("max", Condition::AtMaxNodes {}),
        rule("flapping", Condition::Flapping { engine: None }),
    ]
}

/// Runs `scenario` to `until`, evaluating the example rules every simulated hour: the mean
/// and longest evaluation, how many, and the alerts fired.
fn rule_cost(scenario: &Scenario, until: SimTime) -> (Duration, Duration, u32, usize) {
    let rules = example_rules();
    let mut sim = Simulation::new(scenario, scenario.seed());
    let mut book = AlertBook::default();
    let (mut total, mut max, mut n, mut fired) = (Duration::ZERO, Duration::ZERO, 0u32, 0);
    let mut t = SimTime::from_mins(60);
    while t <= until {
        sim.advance_to(t);
        let start = Instant::now();
        let changes = book.evaluate(&sim, &rules);
        let took = start.elapsed();
        fired += changes
            .iter()
            .filter(|c| matches!(c, engine::alerts::AlertChange::Fired(_)))
            .count();
        total += took;
        max = max.max(took);
        n += 1;
        t = SimTime(t.as_millis() + 3_600_000);
    }
    (total / n.max(1), max, n, fired)
}
