//! Placement benchmark of the load-management engine: 10,000 servers publishing one
//! application with seeded random loads; N placements through the per-application index,
//! then placements by a naive full scan over the same server structs (checking every
//! condition). Each placement raises the chosen server's load like a logon push.
//!
//! `cargo run --release -p engine --example lms_placement [placements]`

use std::time::Instant;

use engine::lms::config::{ApplicationConfig, LmsConfig, ServerConfig, ZoneConfig};
use engine::{Engine, LmsEngine, Rng, SimTime};

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2_000_000);
    let servers = 10_000usize;
    let mut cfg = LmsConfig {
        applications: vec![ApplicationConfig {
            name: "App".into(),
            evaluator: None,
        }],
        ..LmsConfig::default()
    };
    for z in 0..100 {
        cfg.zones.push(ZoneConfig {
            id: format!("z{z:03}"),
            name: format!("Zone {z}"),
        });
    }
    for i in 0..servers {
        cfg.servers.push(ServerConfig {
            host: format!("xa{i:05}"),
            zone: format!("z{:03}", i / 100),
            evaluator: "Default".into(),
            apps: vec!["App".into()],
            election_preference: Default::default(),
        });
    }
    let mut base = LmsEngine::new(&cfg, &Rng::new(1));
    let mut sink = Vec::new();
    base.advance(SimTime::ZERO, &mut sink);
    let mut rng = Rng::new(42);
    for s in 0..servers {
        base.probe_set_dc_load(s, u32::try_from(rng.below(5000)).unwrap_or(0));
    }
    let ips: Vec<u32> = (0..4096)
        .map(|_| 0x0A01_0000 + u32::try_from(rng.below(65_536)).unwrap_or(0))
        .collect();
    let bump = 1;

    let mut indexed = base.clone();
    let start = Instant::now();
    let mut placed = 0u64;
    for i in 0..n {
        if indexed
            .probe_place(0, ips[(i % 4096) as usize], false, bump)
            .is_some()
        {
            placed += 1;
        }
    }
    let t_indexed = start.elapsed().as_secs_f64();
    let rate_indexed = n as f64 / t_indexed;

    let m = (n / 100).clamp(1000, 50_000);
    let mut naive = base.clone();
    let start = Instant::now();
    let mut placed_naive = 0u64;
    for i in 0..m {
        if naive
            .probe_place(0, ips[(i % 4096) as usize], true, bump)
            .is_some()
        {
            placed_naive += 1;
        }
    }
    let t_naive = start.elapsed().as_secs_f64();
    let rate_naive = m as f64 / t_naive;

    // Same choices: replay the first m placements on both and compare.
    let mut a = base.clone();
    let mut b = base;
    let agree = (0..m.min(5000)).all(|i| {
        let ip = ips[(i % 4096) as usize];
        a.probe_place(0, ip, false, bump) == b.probe_place(0, ip, true, bump)
    });

    println!("servers: {servers}");
    println!("indexed: {n} placements ({placed} placed) in {t_indexed:.3}s = {rate_indexed:.0}/s");
    println!(
        "naive:   {m} placements ({placed_naive} placed) in {t_naive:.3}s = {rate_naive:.0}/s"
    );
    println!("ratio:   {:.1}x", rate_indexed / rate_naive);
    println!(
        "same choices on the first {} placements: {agree}",
        m.min(5000)
    );
}
