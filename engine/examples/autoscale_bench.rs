//! Benchmark of the autoscale engine: 50 groups × 3 availability zones (mixed workload
//! profiles and modes, drawn from a seed), 30 simulated days, then the what-if of the last
//! 24 hours of one group.
//!
//! `cargo run --release -p engine --example autoscale_bench [groups] [days]`
//! `cargo run --release -p engine --example autoscale_bench -- --toml > /tmp/asg50.toml`
//! writes the scenario instead (for `switchyard simulate`, to time the events persisted).

use std::collections::BTreeMap;
use std::time::Instant;

use engine::autoscale::config::{DistributionMode, GroupConfig, Metric, ThresholdConfig, Workload};
use engine::{Rng, Scenario, ScenarioError, SimTime, Simulation};

fn threshold(parameter: Metric, min: f64, max: f64) -> ThresholdConfig {
    ThresholdConfig {
        parameter,
        min,
        max,
    }
}

/// Group `i` of the estate, its shape drawn from `rng`.
fn group(i: usize, rng: &mut Rng) -> GroupConfig {
    let pick = |rng: &mut Rng, lo: f64, hi: f64| lo + (hi - lo) * rng.unit_f64();
    let workload = match i % 5 {
        0 | 1 => Workload::Diurnal {
            base: pick(rng, 40.0, 60.0),
            amplitude: pick(rng, 20.0, 45.0),
            period_min: 1440,
            peak_at_min: u32::try_from(rng.below(1440)).unwrap_or(0),
        },
        2 => Workload::Constant {
            level: pick(rng, 30.0, 70.0),
        },
        3 => Workload::Spike {
            base: pick(rng, 30.0, 50.0),
            peak: pick(rng, 120.0, 200.0),
            at_min: u32::try_from(rng.below(20 * 1440)).unwrap_or(0),
            duration_min: 120,
        },
        _ => {
            // A random walk of one day, then held.
            let mut v = 50.0;
            let values = (0..1440)
                .map(|_| {
                    v = (v + pick(rng, -3.0, 3.0)).clamp(5.0, 150.0);
                    (v * 10.0f64).round() / 10.0
                })
                .collect();
            Workload::Trace { values }
        }
    };
    let thresholds = match i % 3 {
        0 => vec![threshold(Metric::Cpu, 25.0, 75.0)],
        1 => vec![threshold(Metric::Memory, 40.0, 85.0)],
        _ => vec![
            threshold(Metric::Cpu, 25.0, 75.0),
            threshold(Metric::Throughput, 100.0, 400.0),
        ],
    };
    GroupConfig {
        name: format!("asg{i:02}"),
        mode: if i.is_multiple_of(2) {
            DistributionMode::Dns
        } else {
            DistributionMode::Nlb
        },
        domain: None,
        deployed: true,
        zones: vec!["1a".into(), "1b".into(), "1c".into()],
        min_nodes: 2,
        max_nodes: 8,
        watch_time_min: 3,
        cooldown_min: 10,
        drain_timeout_min: 10,
        ttl_s: 60,
        thresholds,
        workload,
        noise: if i % 5 == 4 { 0.0 } else { 2.0 },
        node_mbps: 500.0,
    }
}

fn estate(groups: usize) -> Result<Scenario, ScenarioError> {
    let mut s = Scenario::from_toml_str(
        "[scenario]\nname = \"autoscale bench\"\nseed = 7\n",
        "bench.toml",
    )?;
    let mut rng = Rng::new(2024);
    s.autoscale.groups = (0..groups).map(|i| group(i, &mut rng)).collect();
    s.validate().map_err(|e| ScenarioError {
        origin: "bench".into(),
        line: 0,
        column: 0,
        field: e.path.to_string(),
        message: e.message,
    })?;
    Ok(s)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let toml_out = args.iter().any(|a| a == "--toml");
    let nums: Vec<u64> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let groups = nums.first().copied().unwrap_or(50) as usize;
    let days = nums.get(1).copied().unwrap_or(30);
    let s = estate(groups)?;
    if toml_out {
        print!("{}", toml::to_string(&s)?);
        return Ok(());
    }
    let mut sim = Simulation::new(&s, s.seed());
    let mut kinds: BTreeMap<String, u64> = BTreeMap::new();
    let mut total = 0u64;
    // Only the engine is timed: counting (and dropping) the events is left out.
    let mut took = std::time::Duration::ZERO;
    for hour in 1..=days * 24 {
        let start = Instant::now();
        let events = sim.advance_to(SimTime::from_mins(hour * 60));
        took += start.elapsed();
        total += events.len() as u64;
        for e in events {
            *kinds.entry(e.kind).or_default() += 1;
        }
    }
    let cluster_minutes = groups as u64 * 3 * days * 1440;
    println!(
        "{groups} groups × 3 zones × {days} days = {cluster_minutes} cluster-minutes: {:.3} s \
         ({:.1} ns per cluster-minute), {total} events",
        took.as_secs_f64(),
        took.as_nanos() as f64 / cluster_minutes as f64
    );
    for (k, n) in &kinds {
        println!("  {k:24} {n}");
    }
    // The what-if of the last 24 hours of one group, with a tighter maximum.
    let name = "asg00";
    let mut params = sim
        .autoscale()
        .group(name)
        .map(|g| g.params)
        .ok_or("no group")?;
    params.thresholds[0].max -= 10.0;
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..21 {
        let t = Instant::now();
        let w = sim.autoscale().what_if(name, &params, 24)?;
        times.push(t.elapsed().as_micros());
        last = Some(w);
    }
    times.sort_unstable();
    if let Some(w) = last {
        let real: u32 = w.zones.iter().map(|z| z.real_summary.scale_outs).sum();
        let edited: u32 = w.zones.iter().map(|z| z.edited_summary.scale_outs).sum();
        println!(
            "what-if {name}, 24 h × 3 zones ({} minutes each): median {} µs (min {} µs, max {} µs); \
             scale-outs real {real}, edited {edited}",
            w.zones[0].edited.len(),
            times[times.len() / 2],
            times[0],
            times[times.len() - 1]
        );
    }
    Ok(())
}
