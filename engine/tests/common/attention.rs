//! Helpers for the flap-detection and alert tests: timelines of repeated actions, and a
//! one-cluster autoscale group.

/// `[[actions]]` of `kind` with `fields`, at each of `minutes`.
pub fn actions(minutes: impl IntoIterator<Item = u64>, kind: &str, fields: &str) -> String {
    minutes
        .into_iter()
        .map(|m| format!("\n[[actions]]\nat = \"{m}m\"\nkind = \"{kind}\"\n{fields}\n"))
        .collect()
}

/// The cloud link of resource location `rl` cut `cycles` times, every 10 minutes from
/// minute 1, each time restored 5 minutes later.
pub fn flapping_cloud_link(rl: &str, cycles: u64) -> String {
    let link = |up: bool| format!("resource_location = \"{rl}\"\nup = {up}");
    let mut out = actions((0..cycles).map(|i| 1 + 10 * i), "cloud_link", &link(false));
    out += &actions((0..cycles).map(|i| 6 + 10 * i), "cloud_link", &link(true));
    out
}

/// A scenario with one autoscale group `g` of one zone `a` (2 to `max_nodes` nodes, watch
/// 2 min, cooldown 3 min, drain 2 min, cpu `cpu_min`..75, constant demand 50), then `tail`.
pub fn one_cluster(max_nodes: u32, cpu_min: u32, tail: &str) -> String {
    format!(
        r#"
[scenario]
name = "autoscale"

[[autoscale.groups]]
name = "g"
mode = "dns"
zones = ["a"]
min_nodes = 2
max_nodes = {max_nodes}
watch_time_min = 2
cooldown_min = 3
drain_timeout_min = 2

[[autoscale.groups.thresholds]]
parameter = "cpu"
min = {cpu_min}
max = 75

[autoscale.groups.workload]
profile = "constant"
level = 50
{tail}"#
    )
}
