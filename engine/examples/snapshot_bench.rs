//! Snapshot figures: size, encode time and restore time of [`Simulation::snapshot`] and
//! [`Simulation::restore`], for the demo estate after 24 simulated hours and for the large
//! LHC estate of `bench/lhc.sh` (100 resource locations × 3 Cloud Connectors × 10,000 VDAs,
//! 1 M VDAs; outage forced on every resource location from 6 h to 8 h) mid-outage and after
//! 24 hours; and 50 autoscale groups × 3 availability zones after 7 days (each cluster then
//! holds its full week of per-minute history, the largest state of any engine). Each time is the median of `runs` (default 7). Each restore is also checked: the
//! restored simulation's next simulated hour is the original's, event for event.
//!
//! `cargo run --release -p engine --example snapshot_bench [runs]`

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use engine::{Scenario, ScenarioError, SimTime, Simulation};

const DEMO: &str = include_str!("../../scenarios/demo.toml");
const HOUR_MS: u64 = 3_600_000;

/// The estate of `bench/lhc.sh`.
const LHC_ESTATE: &str = include_str!("../../bench/scenarios/lhc-1m.toml");

/// 50 autoscale groups × 3 zones, diurnal demand, as a scenario file.
fn autoscale_estate() -> String {
    let mut s = String::from("[scenario]\nname = \"Autoscale: 50 groups x 3 zones\"\nseed = 7\n");
    for i in 0..50 {
        let _ = write!(
            s,
            "\n[[autoscale.groups]]\nname = \"asg{i:02}\"\nmode = \"{}\"\nzones = [\"1a\", \"1b\", \"1c\"]\nmin_nodes = 2\nmax_nodes = 8\nwatch_time_min = 3\ncooldown_min = 10\ndrain_timeout_min = 10\nttl_s = 60\n[[autoscale.groups.thresholds]]\nparameter = \"cpu\"\nmin = 25\nmax = 75\n[autoscale.groups.workload]\nprofile = \"diurnal\"\nbase = 50\namplitude = {}\nperiod_min = 1440\npeak_at_min = {}\n",
            if i % 2 == 0 { "dns" } else { "nlb" },
            20 + i % 25,
            (i * 97) % 1440
        );
    }
    s
}

fn median(mut times: Vec<Duration>) -> f64 {
    times.sort_unstable();
    times
        .get(times.len() / 2)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// Prints the figures of `sim` at its current instant.
fn measure(label: &str, sim: &Simulation, runs: usize) -> Result<(), Box<dyn std::error::Error>> {
    let mut encode = Vec::with_capacity(runs);
    let mut restore = Vec::with_capacity(runs);
    let mut size = 0;
    let mut restored = None;
    for _ in 0..runs {
        let t0 = Instant::now();
        let snapshot = sim.snapshot();
        encode.push(t0.elapsed());
        size = snapshot.len();
        let t0 = Instant::now();
        let back = Simulation::restore(snapshot.as_bytes())?;
        restore.push(t0.elapsed());
        restored = Some(back);
    }
    let same = match restored {
        Some(mut back) => {
            let mut original = sim.clone();
            let until = SimTime(sim.now().as_millis() + HOUR_MS);
            let lines = |events: Vec<engine::Event>| -> Vec<String> {
                events.iter().map(engine::Event::to_json_line).collect()
            };
            lines(back.advance_to(until)) == lines(original.advance_to(until))
        }
        None => false,
    };
    println!(
        "{label}: {size} bytes ({:.1} MiB), encode {:.1} ms, restore {:.1} ms (median of {runs}); next hour identical: {}",
        size as f64 / (1024.0 * 1024.0),
        median(encode),
        median(restore),
        if same { "yes" } else { "NO" }
    );
    if !same {
        return Err("a restored simulation diverged".into());
    }
    Ok(())
}

fn run(
    label: &str,
    scenario: &Scenario,
    at_ms: &[u64],
    runs: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut sim = Simulation::new(scenario, scenario.seed());
    for &t in at_ms {
        sim.advance_to(SimTime(t));
        let hours = t as f64 / HOUR_MS as f64;
        measure(&format!("{label} at {hours} h"), &sim, runs)?;
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let runs = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(7usize)
        .max(1);
    let demo = Scenario::from_toml_str(DEMO, "scenarios/demo.toml")?;
    run("demo estate (seed 42)", &demo, &[24 * HOUR_MS], runs)?;
    let lhc = Scenario::from_toml_str(LHC_ESTATE, "bench/scenarios/lhc-1m.toml")
        .map_err(|e: ScenarioError| e.to_string())?;
    run(
        "LHC estate, 1 M VDAs",
        &lhc,
        &[7 * HOUR_MS, 24 * HOUR_MS],
        runs,
    )?;
    let asg = Scenario::from_toml_str(&autoscale_estate(), "autoscale-estate.toml")
        .map_err(|e: ScenarioError| e.to_string())?;
    run(
        "autoscale 50 groups x 3 zones",
        &asg,
        &[7 * 24 * HOUR_MS],
        runs,
    )?;
    Ok(())
}
