//! `switchyard scenario generate`: writes a scenario too large to ship as a file.
//!
//! `--size full` is the full-scale estate, all four engines at their benchmark sizes in one
//! scenario (docs/SCENARIOS.md, "The full-scale estate"):
//!
//! - 100 resource locations × 3 Cloud Connectors × 10,000 VDAs (1 M VDAs); three of them have
//!   an outage forced from the fifth simulated minute to the tenth hour, so the estate has
//!   "the three resource locations in trouble" to find;
//! - 100 zones × 100 servers (10,000) publishing five applications, a logon storm of 20,834
//!   users every hour (500,016 sessions a day);
//! - 32 GSLB parents and 1,024 children, with 100 faults (sites down, MEP links cut) over the
//!   day;
//! - 50 autoscale groups × 3 zones, with diurnal, constant, spike and trace workloads.
//!
//! The text is a pure function of the size: the faults and workloads are drawn from the
//! engine's seeded generator, so every `generate` writes the same bytes.

use std::fmt::Write;

use engine::rng::Rng;

/// The sizes `generate` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Size {
    /// All four engines at their benchmark sizes (about 1.5 MB of TOML).
    Full,
}

/// Resource locations of the full-scale estate.
pub const RESOURCE_LOCATIONS: usize = 100;
/// VDAs per resource location.
pub const VDAS_PER_RL: usize = 10_000;
/// Zones of the load-management farm.
pub const ZONES: usize = 100;
/// Servers per zone.
pub const SERVERS_PER_ZONE: usize = 100;
/// GSLB parent sites.
pub const GSLB_PARENTS: usize = 32;
/// GSLB child sites.
pub const GSLB_CHILDREN: usize = 1024;
/// GSLB faults over the day.
pub const GSLB_FAULTS: usize = 100;
/// Autoscale groups (three zones each).
pub const AUTOSCALE_GROUPS: usize = 50;
/// The resource locations with an outage forced from 5 minutes to 10 hours.
pub const RLS_IN_OUTAGE: [usize; 3] = [17, 42, 73];

const APPS: [&str; 5] = ["Word", "Excel", "Outlook", "SAP GUI", "Browser"];

/// `scenario generate`: writes the scenario to `--out` (or standard output).
pub fn write(args: &crate::cli::GenerateArgs) -> std::process::ExitCode {
    let text = scenario(args.size);
    let written = match &args.out {
        Some(path) => std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display())),
        None => std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes())
            .map_err(|e| format!("standard output: {e}")),
    };
    match written {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("switchyard: cannot write the scenario: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// The scenario of `size`, as TOML.
pub fn scenario(size: Size) -> String {
    match size {
        Size::Full => full_scale(),
    }
}

fn full_scale() -> String {
    let mut out = String::with_capacity(2 << 20);
    out.push_str(
        "# The full-scale estate, written by `switchyard scenario generate --size full`.\n\
         # All four engines at their benchmark sizes (docs/SCENARIOS.md, \"The full-scale estate\").\n\
         [scenario]\n\
         name = \"Full-scale estate\"\n\
         description = \"100 resource locations with 1 M VDAs (three in a forced outage), 100 zones x 100 servers with hourly logon storms, 32 GSLB parents + 1,024 children with 100 faults, 50 autoscale groups x 3 zones.\"\n\
         seed = 7\n\n\
         [clock]\n\
         start_speed = \"x600\"\n\n",
    );
    let mut actions = String::new();
    lhc(&mut out, &mut actions);
    lms(&mut out);
    gslb(&mut out, &mut actions, &mut Rng::new(11));
    autoscale(&mut out, &mut Rng::new(2024));
    out.push_str(&actions);
    out
}

fn lhc(out: &mut String, actions: &mut String) {
    out.push_str("[[lhc.delivery_groups]]\nid = \"dg\"\n\n");
    for r in 0..RESOURCE_LOCATIONS {
        let _ = write!(
            out,
            "[[lhc.resource_locations]]\nid = \"rl-{r:03}\"\nname = \"Resource location {r:03}\"\n"
        );
        for c in 0..3 {
            let _ = writeln!(
                out,
                "[[lhc.resource_locations.connectors]]\nfqdn = \"cc{c}.rl-{r:03}.example.com\""
            );
        }
        let _ = write!(
            out,
            "[[lhc.resource_locations.vda_pools]]\nprefix = \"R{r:03}-\"\ncount = {VDAS_PER_RL}\n\
             kind = \"multi_session\"\ndelivery_group = \"dg\"\nresources = [\"Desktop\"]\n\n"
        );
    }
    for r in RLS_IN_OUTAGE {
        let _ = write!(
            actions,
            "[[actions]]\nat = \"5m\"\nkind = \"force_outage\"\nresource_location = \"rl-{r:03}\"\n\n\
             [[actions]]\nat = \"10h\"\nkind = \"clear_outage\"\nresource_location = \"rl-{r:03}\"\n\n"
        );
    }
}

fn lms(out: &mut String) {
    // 500,016 sessions a day: 24 storms of 20,834 users.
    out.push_str(
        "[lms]\n\n[lms.workload.recurring_storm]\nevery = \"1h\"\nusers = 20834\nover = \"10m\"\n\n",
    );
    for app in APPS {
        let _ = write!(out, "[[lms.applications]]\nname = \"{app}\"\n\n");
    }
    for z in 0..ZONES {
        let _ = write!(
            out,
            "[[lms.zones]]\nid = \"z{z:03}\"\nname = \"Zone {z:03}\"\n\n"
        );
    }
    let apps = APPS.map(|a| format!("\"{a}\"")).join(", ");
    for z in 0..ZONES {
        for s in 0..SERVERS_PER_ZONE {
            let evaluator = if s % 4 == 3 { "Advanced" } else { "Default" };
            let _ = write!(
                out,
                "[[lms.servers]]\nhost = \"XA-{z:03}-{s:03}\"\nzone = \"z{z:03}\"\n\
                 evaluator = \"{evaluator}\"\napps = [{apps}]\n\n"
            );
        }
    }
}

fn gslb(out: &mut String, actions: &mut String, rng: &mut Rng) {
    let parents: Vec<String> = (0..GSLB_PARENTS).map(|i| format!("P{i:02}")).collect();
    for (i, p) in parents.iter().enumerate() {
        let backups = (1..6)
            .map(|k| format!("\"{}\"", parents[(i + k) % GSLB_PARENTS]))
            .collect::<Vec<_>>()
            .join(", ");
        let _ = write!(
            out,
            "[[gslb.sites]]\nname = \"{p}\"\nip = \"10.{i}.0.1\"\nrole = \"parent\"\n\
             backup_parents = [{backups}]\n\n"
        );
    }
    for c in 0..GSLB_CHILDREN {
        let p = c % GSLB_PARENTS;
        let _ = write!(
            out,
            "[[gslb.sites]]\nname = \"C{c:04}\"\nip = \"10.{p}.{}.1\"\nrole = \"child\"\n\
             parent = \"{}\"\n\n",
            1 + c / GSLB_PARENTS,
            parents[p]
        );
    }
    out.push_str(
        "[[gslb.domains]]\nname = \"apps.example.com\"\nmethod = \"least_connections\"\n\n",
    );
    let pick = |rng: &mut Rng, n: usize| rng.below(n as u64) as usize;
    for _ in 0..GSLB_FAULTS {
        let at = 60 + rng.below(24 * 3600 - 1960);
        let back = at + 60 + rng.below(1740);
        if rng.unit_f64() < 0.4 {
            let site = if rng.unit_f64() < 0.5 {
                parents[pick(rng, GSLB_PARENTS)].clone()
            } else {
                format!("C{:04}", pick(rng, GSLB_CHILDREN))
            };
            let _ = write!(
                actions,
                "[[actions]]\nat = \"{at}s\"\nkind = \"site_down\"\nsite = \"{site}\"\n\n\
                 [[actions]]\nat = \"{back}s\"\nkind = \"site_up\"\nsite = \"{site}\"\n\n"
            );
        } else {
            let (from, to) = if rng.unit_f64() < 0.5 {
                let c = pick(rng, GSLB_CHILDREN);
                (parents[c % GSLB_PARENTS].clone(), format!("C{c:04}"))
            } else {
                let a = pick(rng, GSLB_PARENTS);
                let b = (a + 1 + pick(rng, GSLB_PARENTS - 1)) % GSLB_PARENTS;
                (parents[a].clone(), parents[b].clone())
            };
            let one_way = rng.unit_f64() < 0.3;
            for (when, kind) in [(at, "mep_cut"), (back, "mep_restore")] {
                let _ = write!(
                    actions,
                    "[[actions]]\nat = \"{when}s\"\nkind = \"{kind}\"\nfrom = \"{from}\"\nto = \"{to}\"\n\
                     one_way = {one_way}\n\n"
                );
            }
        }
    }
}

fn autoscale(out: &mut String, rng: &mut Rng) {
    let uniform = |rng: &mut Rng, lo: f64, hi: f64| lo + (hi - lo) * rng.unit_f64();
    for i in 0..AUTOSCALE_GROUPS {
        let mode = if i % 2 == 0 { "dns" } else { "nlb" };
        let noise = if i % 5 == 4 { 0 } else { 2 };
        let _ = write!(
            out,
            "[[autoscale.groups]]\nname = \"asg{i:02}\"\nmode = \"{mode}\"\nzones = [\"1a\", \"1b\", \"1c\"]\n\
             min_nodes = 2\nmax_nodes = 8\nwatch_time_min = 3\ncooldown_min = 10\n\
             drain_timeout_min = 10\nttl_s = 60\nnoise = {noise}\n\n"
        );
        let limits: &[(&str, u32, u32)] = match i % 3 {
            0 => &[("cpu", 25, 75)],
            1 => &[("memory", 40, 85)],
            _ => &[("cpu", 25, 75), ("throughput", 100, 400)],
        };
        for (parameter, min, max) in limits {
            let _ = write!(
                out,
                "[[autoscale.groups.thresholds]]\nparameter = \"{parameter}\"\nmin = {min}\nmax = {max}\n\n"
            );
        }
        out.push_str("[autoscale.groups.workload]\n");
        match i % 5 {
            0 | 1 => {
                let _ = write!(
                    out,
                    "profile = \"diurnal\"\nbase = {:.1}\namplitude = {:.1}\nperiod_min = 1440\npeak_at_min = {}\n\n",
                    uniform(rng, 40.0, 60.0),
                    uniform(rng, 20.0, 45.0),
                    rng.below(1440)
                );
            }
            2 => {
                let _ = write!(
                    out,
                    "profile = \"constant\"\nlevel = {:.1}\n\n",
                    uniform(rng, 30.0, 70.0)
                );
            }
            3 => {
                let _ = write!(
                    out,
                    "profile = \"spike\"\nbase = {:.1}\npeak = {:.1}\nat_min = {}\nduration_min = 120\n\n",
                    uniform(rng, 30.0, 50.0),
                    uniform(rng, 120.0, 200.0),
                    rng.below(20 * 1440)
                );
            }
            _ => {
                let mut v = 50.0_f64;
                let values: Vec<String> = (0..1440)
                    .map(|_| {
                        v = (v + uniform(rng, -3.0, 3.0)).clamp(5.0, 150.0);
                        format!("{v:.1}")
                    })
                    .collect();
                let _ = write!(
                    out,
                    "profile = \"trace\"\nvalues = [{}]\n\n",
                    values.join(", ")
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::scenario::Scenario;

    #[test]
    fn the_full_scale_estate_loads_with_every_engine_at_its_size() {
        let text = scenario(Size::Full);
        let s = Scenario::from_toml_str(&text, "full-scale").expect("the generated scenario loads");
        s.validate()
            .expect("within every limit of docs/SCENARIOS.md");
        let lhc = &s.lhc;
        assert_eq!(lhc.resource_locations.len(), RESOURCE_LOCATIONS);
        let vdas: usize = lhc
            .resource_locations
            .iter()
            .flat_map(|rl| rl.vda_pools.iter().map(|p| p.count as usize))
            .sum();
        assert_eq!(vdas, RESOURCE_LOCATIONS * VDAS_PER_RL);
        assert_eq!(s.lms.zones.len(), ZONES);
        assert_eq!(s.lms.servers.len(), ZONES * SERVERS_PER_ZONE);
        assert_eq!(s.gslb.sites.len(), GSLB_PARENTS + GSLB_CHILDREN);
        assert_eq!(s.autoscale.groups.len(), AUTOSCALE_GROUPS);
        // Three outages (forced and cleared) and a cut or a site down with its repair per fault.
        assert_eq!(s.actions.len(), 2 * RLS_IN_OUTAGE.len() + 2 * GSLB_FAULTS);
    }

    #[test]
    fn generating_twice_writes_the_same_bytes() {
        assert_eq!(scenario(Size::Full), scenario(Size::Full));
    }
}
