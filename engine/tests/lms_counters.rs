//! Performance counters of the workload model (`[lms.workload.counters]`, docs/LMS.md
//! *Workload*): recomputed every `counter_interval` from the sessions, the logons in progress,
//! the operator's spikes and the seeded noise.

mod common;

use common::lms::{act, at_secs, launch, scenario, server};
use engine::lms::views::CountersView;
use engine::{LmsAction, SimDuration, Simulation, SpikeCounter};

/// One zone, one server `A` with the Default evaluator, and a counter model whose terms
/// are all distinct. `noise` is the noise amplitude.
fn model(noise: f64, extra: &str) -> Simulation {
    let src = format!(
        r#"[scenario]
name = "counters"

[lms]
{extra}

[lms.workload.counters]
noise = {noise}
cpu_base_min = 5.0
cpu_base_max = 5.0
cpu_per_session = 2.0
cpu_per_disconnected = 0.5
cpu_per_logon = 10.0
memory_base = 30.0
memory_per_session = 3.0
page_faults_base = 100.0
page_faults_per_session = 7.0
context_switches_base = 1000.0
context_switches_per_session = 11.0
disk_io_base = 50.0
disk_io_per_session = 13.0
disk_ops_base = 10.0
disk_ops_per_session = 17.0
page_swaps_per_pct = 5.0

[[lms.zones]]
id = "z"
name = "Z"

[[lms.applications]]
name = "Word"

[[lms.evaluators]]
name = "Users"

[[lms.evaluators.rules]]
rule = "server_user_load"
users = 100

[[lms.servers]]
host = "A"
zone = "z"
evaluator = "Users"
apps = ["Word"]
"#
    );
    Simulation::new(&scenario(&src), 1)
}

fn counters(sim: &Simulation) -> CountersView {
    server(sim, "A").counters
}

/// The model's counters for `c` connected, `d` disconnected sessions and `l` logons in
/// progress (no spike, no noise).
fn expected(c: f64, d: f64, l: f64) -> CountersView {
    CountersView {
        cpu: 5.0 + 2.0 * c + 0.5 * d + 10.0 * l,
        memory: 30.0 + 3.0 * (c + d),
        page_swaps: 0.0,
        page_faults: 100.0 + 7.0 * c,
        context_switches: 1000.0 + 11.0 * c,
        disk_data_io: 50.0 + 13.0 * c,
        disk_operations: 10.0 + 17.0 * c,
    }
}

fn spike(sim: &mut Simulation, counter: SpikeCounter, percent: u8, secs: u64) {
    act(
        sim,
        LmsAction::CounterSpike {
            server: "A".into(),
            counter,
            percent,
            duration: SimDuration::from_secs(secs),
        },
    );
}

#[test]
fn counters_follow_sessions_and_logons_in_progress() {
    let mut sim = model(0.0, "logon_duration = \"45s\"");
    sim.advance_to(at_secs(0));
    assert_eq!(counters(&sim), expected(0.0, 0.0, 0.0));
    sim.advance_to(at_secs(5));
    for u in ["alice", "bob", "carol"] {
        act(&mut sim, launch(u, "Word", None));
    }
    act(
        &mut sim,
        LmsAction::DisconnectSessions {
            user: Some("carol".into()),
            server: None,
            count: 1,
        },
    );
    // At the 30 s tick: 2 connected, 1 disconnected, 3 logons until 50 s.
    sim.advance_to(at_secs(30));
    assert_eq!(counters(&sim), expected(2.0, 1.0, 3.0));
    sim.advance_to(at_secs(60));
    assert_eq!(counters(&sim), expected(2.0, 1.0, 0.0));
}

#[test]
fn a_logon_ending_now_is_no_longer_in_progress() {
    // A logon from 15 s to 40 s; a spike at 40 s recomputes the counters off the tick grid.
    let mut sim = model(0.0, "logon_duration = \"25s\"");
    sim.advance_to(at_secs(15));
    act(&mut sim, launch("alice", "Word", None));
    sim.advance_to(at_secs(39));
    spike(&mut sim, SpikeCounter::Memory, 50, 600);
    assert_eq!(counters(&sim).cpu, expected(1.0, 0.0, 1.0).cpu);
    sim.advance_to(at_secs(40));
    spike(&mut sim, SpikeCounter::Memory, 50, 600);
    assert_eq!(counters(&sim).cpu, expected(1.0, 0.0, 0.0).cpu);
}

#[test]
fn a_spike_holds_its_counter_until_it_ends_and_memory_above_80_swaps_pages() {
    let mut sim = model(0.0, "");
    sim.advance_to(at_secs(40));
    // Memory 90 % until 90 s: 10 points above 80 at 5 swaps per point.
    spike(&mut sim, SpikeCounter::Memory, 90, 50);
    let c = counters(&sim);
    assert_eq!((c.memory, c.page_swaps), (90.0, 50.0));
    assert_eq!(c.cpu, 5.0);
    spike(&mut sim, SpikeCounter::Cpu, 70, 20);
    assert_eq!(counters(&sim).cpu, 70.0);
    sim.advance_to(at_secs(59));
    assert_eq!(counters(&sim).cpu, 70.0);
    // The CPU spike ended at 60 s, the memory one at 90 s: each counter is back to the
    // model at the first tick at or after its end.
    sim.advance_to(at_secs(60));
    let c = counters(&sim);
    assert_eq!((c.cpu, c.memory, c.page_swaps), (5.0, 90.0, 50.0));
    sim.advance_to(at_secs(90));
    assert_eq!(counters(&sim), expected(0.0, 0.0, 0.0));
}

#[test]
fn a_down_server_has_no_counters() {
    let mut sim = model(0.0, "");
    sim.advance_to(at_secs(10));
    act(&mut sim, LmsAction::ServerReboot { server: "A".into() });
    let zero = CountersView {
        cpu: 0.0,
        memory: 0.0,
        page_swaps: 0.0,
        page_faults: 0.0,
        context_switches: 0.0,
        disk_data_io: 0.0,
        disk_operations: 0.0,
    };
    assert_eq!(counters(&sim), zero);
    sim.advance_to(at_secs(60));
    assert_eq!(counters(&sim), zero);
    // Booted at 70 s: the model again.
    sim.advance_to(at_secs(90));
    assert_eq!(counters(&sim), expected(0.0, 0.0, 0.0));
}

/// Reads one counter.
type Read = fn(&CountersView) -> f64;

#[test]
fn noise_spreads_each_counter_within_plus_or_minus_its_amplitude() {
    // Noise 0.5: each counter in model x [0.5, 1.5], and over many ticks both halves of the
    // range are reached.
    let mut sim = model(0.5, "");
    let want = expected(0.0, 0.0, 0.0);
    let get: [(&str, Read); 6] = [
        ("cpu", |c| c.cpu),
        ("memory", |c| c.memory),
        ("page_faults", |c| c.page_faults),
        ("context_switches", |c| c.context_switches),
        ("disk_data_io", |c| c.disk_data_io),
        ("disk_operations", |c| c.disk_operations),
    ];
    let mut seen: Vec<Vec<f64>> = vec![Vec::new(); get.len()];
    for tick in 1..=200 {
        sim.advance_to(at_secs(30 * tick));
        let c = counters(&sim);
        for (i, (_, f)) in get.iter().enumerate() {
            seen[i].push(f(&c) / f(&want));
        }
    }
    for (i, (name, _)) in get.iter().enumerate() {
        let min = seen[i].iter().copied().fold(f64::INFINITY, f64::min);
        let max = seen[i].iter().copied().fold(0.0, f64::max);
        assert!(min >= 0.5 && max <= 1.5, "{name}: {min}..{max}");
        assert!(min < 0.75 && max > 1.25, "{name}: {min}..{max}");
        let distinct = seen[i].windows(2).filter(|w| w[0] != w[1]).count();
        assert!(distinct > 150, "{name}: a new draw each tick");
    }
}

#[test]
fn page_swaps_carry_their_own_noise() {
    // Memory held at 90 %: page swaps 10 x 5 = 50 in the model, x [0.5, 1.5] with noise.
    let mut sim = model(0.5, "");
    sim.advance_to(at_secs(1));
    spike(&mut sim, SpikeCounter::Memory, 90, 86_400);
    let mut seen = Vec::new();
    for tick in 1..=200 {
        sim.advance_to(at_secs(30 * tick));
        let c = counters(&sim);
        assert_eq!(c.memory, 90.0);
        seen.push(c.page_swaps / 50.0);
    }
    let min = seen.iter().copied().fold(f64::INFINITY, f64::min);
    let max = seen.iter().copied().fold(0.0, f64::max);
    assert!(min >= 0.5 && max <= 1.5, "{min}..{max}");
    assert!(min < 0.75 && max > 1.25, "{min}..{max}");
}

#[test]
fn the_noise_of_a_seed_is_pinned() {
    // A run is reproducible across versions (recorded histories replay to the same
    // values): the first tick's draws of server A for seed 1, as factors of the model.
    let mut sim = model(0.5, "");
    sim.advance_to(at_secs(30));
    let c = counters(&sim);
    let want = expected(0.0, 0.0, 0.0);
    let factors: Vec<f64> = [
        c.cpu / want.cpu,
        c.memory / want.memory,
        c.page_faults / want.page_faults,
        c.context_switches / want.context_switches,
        c.disk_data_io / want.disk_data_io,
        c.disk_operations / want.disk_operations,
    ]
    .iter()
    .map(|f| (f * 1000.0).round() / 1000.0)
    .collect();
    assert_eq!(factors, [1.132, 0.802, 1.289, 1.04, 0.751, 1.312]);
}
