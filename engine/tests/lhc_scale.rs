//! Scale check (ignored by default): 100 resource locations x 3 connectors x 10,000 VDAs
//! (1 M VDAs), 24 simulated hours with a 2-hour forced outage in every resource location.
//! Prints the wall time and the event count; asserts only that every VDA is back on the
//! cloud. Run with `cargo test -p engine --release --test lhc_scale -- --ignored --nocapture`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Instant;

use engine::{Scenario, SimTime, Simulation};

/// The estate as a scenario file.
fn estate(rls: usize, vdas_per_rl: u32) -> String {
    let mut s = String::from(
        "[scenario]\nname = \"scale\"\nseed = 7\n\n[[lhc.delivery_groups]]\nid = \"dg-ms\"\n\n[[lhc.delivery_groups]]\nid = \"dg-vdi\"\n",
    );
    for i in 0..rls {
        let _ = write!(
            s,
            "\n[[lhc.resource_locations]]\nid = \"rl-{i:03}\"\nname = \"Resource location {i}\"\n"
        );
        for c in 1..=3 {
            let _ = write!(
                s,
                "[[lhc.resource_locations.connectors]]\nfqdn = \"cc{c:02}.rl{i:03}.example.com\"\n"
            );
        }
        let half = vdas_per_rl / 2;
        let _ = write!(
            s,
            "[[lhc.resource_locations.vda_pools]]\nprefix = \"R{i:03}-MS-\"\ncount = {half}\nkind = \"multi_session\"\ndelivery_group = \"dg-ms\"\nresources = [\"Office\"]\ninitial_load = 40\n"
        );
        let _ = write!(
            s,
            "[[lhc.resource_locations.vda_pools]]\nprefix = \"R{i:03}-VDI-\"\ncount = {}\nkind = \"pooled_vdi\"\ndelivery_group = \"dg-vdi\"\nresources = [\"Desktop\"]\ninitial_load = 60\n",
            vdas_per_rl - half
        );
    }
    for i in 0..rls {
        let _ = write!(
            s,
            "\n[[actions]]\nat = \"6h\"\nactor = \"bench\"\nkind = \"force_outage\"\nresource_location = \"rl-{i:03}\"\n"
        );
        let _ = write!(
            s,
            "\n[[actions]]\nat = \"8h\"\nactor = \"bench\"\nkind = \"clear_outage\"\nresource_location = \"rl-{i:03}\"\n"
        );
    }
    s
}

#[test]
#[ignore = "scale benchmark: run in release with --ignored"]
fn one_million_vdas_for_a_day() -> Result<(), Box<dyn std::error::Error>> {
    let t0 = Instant::now();
    let src = estate(100, 10_000);
    let scenario = Scenario::from_toml_str(&src, "scale.toml")?;
    let parsed = t0.elapsed();
    let mut sim = Simulation::new(&scenario, scenario.seed());
    let built = t0.elapsed();
    let mut events = 0usize;
    let mut bytes = 0usize;
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    // Advance like the runtime does, in slices, and serialise every event (as persisting would).
    let slice = 60_000u64;
    let end = SimTime::from_mins(24 * 60).as_millis();
    let mut t = 0;
    while t < end {
        t = (t + slice).min(end);
        for e in sim.advance_to(SimTime(t)) {
            events += 1;
            bytes += e.to_json_line().len() + 1;
            *kinds.entry(e.kind).or_default() += 1;
        }
    }
    let ran = t0.elapsed();
    let rls = sim.lhc().resource_locations();
    let on_cloud: u64 = rls.iter().map(|r| u64::from(r.on_cloud)).sum();
    println!(
        "1M VDAs, 24h, outage 6h-8h in 100 RLs: parse {:.2?}, build {:.2?}, run {:.2?} (total {:.2?}); {events} events, {:.1} MiB of JSON lines",
        parsed,
        built - parsed,
        ran - built,
        ran,
        bytes as f64 / (1024.0 * 1024.0)
    );
    println!("events by kind: {kinds:?}");
    assert_eq!(on_cloud, 1_000_000);
    sim.lhc().consistency_check()?;
    Ok(())
}
