//! Autoscale events in words (the scale decisions read through their `reason`): the group's
//! hourly samples, its nodes' lifecycle, the distributor's records, the operator's changes.

use serde_json::Value;

use super::fields::{counted, listed, name_and_unit, number, spaced, Fields};
use super::Template;

/// The template of an autoscale kind.
pub(super) fn template(kind: &str) -> Option<Template> {
    Some(match kind {
        "autoscale.sample" => sample,
        "group.started" => started,
        "node.provisioned" => provisioned,
        "node.attached" => attached,
        "node.registered" => registered,
        "node.deregistered" => deregistered,
        "node.detached" => detached,
        "node.deprovisioned" => deprovisioned,
        "records.added" => records_added,
        "records.removed" => records_removed,
        "records.registered" => records_registered,
        "records.unregistered" => records_unregistered,
        "ipset.created" => ipset_created,
        "ipset.deleted" => ipset_deleted,
        "app.deployed" => deployed,
        "app.removed" => removed,
        "evaluation.resumed" => resumed,
        "load.injected" => injected,
        "load.released" => released,
        "distribution.switched" => switched,
        "group.settings" => settings,
        _ => return None,
    })
}

/// `minutes 421–480 · eu-west-1a: 1 node, memory mean 60, max 60` (each zone in turn, its
/// decisions when it took any).
fn sample(f: Fields<'_>) -> Option<String> {
    let zones = f.texts("zones")?;
    let nodes = f.object("nodes")?;
    let now = nodes.0.get("now")?.as_array()?;
    let (low, high) = (
        nodes.0.get("min")?.as_array()?,
        nodes.0.get("max")?.as_array()?,
    );
    let decisions = f.0.get("decisions")?.as_array()?;
    let metrics = f.objects("metrics")?;
    let mut parts = vec![format!(
        "minutes {}–{}",
        f.int("from_minute")?,
        f.int("to_minute")?
    )];
    for (i, zone) in zones.iter().enumerate() {
        let (n, lo, hi) = (now.get(i)?.as_u64()?, low.get(i)?, high.get(i)?);
        let mut line = format!("{zone}: {}", counted(n, "node"));
        if lo != hi {
            line.push_str(&format!(" ({lo}–{hi} in the hour)"));
        }
        for m in &metrics {
            let at = |key: &str| m.0.get(key)?.as_array()?.get(i)?.as_f64().map(number);
            line.push_str(&format!(
                ", {} mean {}, max {}",
                m.text("parameter")?,
                at("mean")?,
                at("max")?
            ));
        }
        match decisions.get(i).and_then(Value::as_u64) {
            Some(0) | None => {}
            Some(d) => line.push_str(&format!(", {}", counted(d, "decision"))),
        }
        parts.push(line);
    }
    Some(parts.join(" · "))
}

/// `asg_web.example.com in NLB mode, 2–6 nodes: eu-west-1a 2 nodes behind 198.19.0.2`.
fn started(f: Fields<'_>) -> Option<String> {
    let zones: Option<Vec<String>> = f
        .objects("zones")?
        .into_iter()
        .map(|z| {
            let mut line = format!(
                "{} {}",
                z.text("zone")?,
                counted(z.texts("nodes")?.len() as u64, "node")
            );
            if let Some(ip) = z.text("nlb_ip") {
                line.push_str(&format!(" behind {ip}"));
            }
            Some(line)
        })
        .collect();
    let mut line = format!(
        "{} in {} mode, {}–{} nodes: {}",
        f.text("domain")?,
        f.text("mode")?.to_uppercase(),
        f.int("min_nodes")?,
        f.int("max_nodes")?,
        zones?.join(" · ")
    );
    if f.flag("deployed") == Some(false) {
        line.push_str(" (application not deployed yet)");
    }
    Some(line)
}

/// The node names of a lifecycle event and its zone: `("n-1, n-2", "eu-west-1a")`.
fn nodes_in(f: Fields<'_>) -> Option<(String, &str)> {
    Some((f.texts("nodes")?.join(", "), f.text("zone")?))
}

/// `n-4 provisioned in eu-west-1b at 10.2.2.13, public IP 198.19.0.11`.
fn provisioned(f: Fields<'_>) -> Option<String> {
    let nodes: Option<Vec<String>> = f
        .objects("nodes")?
        .into_iter()
        .map(|n| {
            let mut line = format!("{} at {}", n.text("node")?, n.text("ip")?);
            if let Some(public) = n.text("public_ip") {
                line.push_str(&format!(", public IP {public}"));
            }
            Some(line)
        })
        .collect();
    Some(format!(
        "provisioned in {}: {}",
        f.text("zone")?,
        nodes?.join("; ")
    ))
}

/// `n-2 joined the cluster in eu-west-1a, configuration synced`.
fn attached(f: Fields<'_>) -> Option<String> {
    let (nodes, zone) = nodes_in(f)?;
    let synced = if f.flag("config_synced")? {
        "configuration synced"
    } else {
        "configuration not synced yet"
    };
    Some(format!("{nodes} joined the cluster in {zone}, {synced}"))
}

/// `n-2 registered with ADM in eu-west-1a`.
fn registered(f: Fields<'_>) -> Option<String> {
    let (nodes, zone) = nodes_in(f)?;
    let with = f.text("registered_with")?;
    Some(format!("{nodes} registered with {with} in {zone}"))
}

/// `n-2 deregistered from ADM in eu-west-1a`.
fn deregistered(f: Fields<'_>) -> Option<String> {
    let (nodes, zone) = nodes_in(f)?;
    let with = f.text("registered_with")?;
    Some(format!("{nodes} deregistered from {with} in {zone}"))
}

/// `n-3 left the cluster in eu-west-1b`.
fn detached(f: Fields<'_>) -> Option<String> {
    let (nodes, zone) = nodes_in(f)?;
    Some(format!("{nodes} left the cluster in {zone}"))
}

/// `n-2 deprovisioned in eu-west-1a, public IP 198.19.0.4 released`.
fn deprovisioned(f: Fields<'_>) -> Option<String> {
    let (nodes, zone) = nodes_in(f)?;
    let released = f.texts("public_ips_released").unwrap_or_default();
    let mut line = format!("{nodes} deprovisioned in {zone}");
    if !released.is_empty() {
        line.push_str(&format!(", public IP {} released", released.join(", ")));
    }
    Some(line)
}

/// Where a records change happened: `asg_web.example.com in eu-west-1b` (DNS mode) or `NLB
/// 198.19.0.3 in eu-west-1b`; and what its entries are called there.
fn records_place(f: Fields<'_>) -> Option<(String, &'static str)> {
    let zone = f.text("zone")?;
    Some(match f.text("nlb_ip") {
        Some(nlb) => (format!("NLB {nlb} in {zone}"), "targets"),
        None => (format!("{} in {zone}", f.text("domain")?), "answers"),
    })
}

/// `, TTL 60 s` in DNS mode.
fn ttl(f: Fields<'_>) -> String {
    f.int("ttl_s")
        .map(|s| format!(", TTL {s} s"))
        .unwrap_or_default()
}

fn records_changed(f: Fields<'_>, what: &str) -> Option<String> {
    let (place, entries) = records_place(f)?;
    let now = listed(&f.texts("records")?, "none");
    Some(format!(
        "{place}: {} {what}, {entries} now {now}{}",
        f.texts("ips")?.join(", "),
        ttl(f)
    ))
}

/// `asg_web.example.com in eu-west-1b: 198.19.0.11 added, answers now 198.19.0.7,
/// 198.19.0.11, TTL 60 s`.
fn records_added(f: Fields<'_>) -> Option<String> {
    records_changed(f, "added")
}

/// `NLB 198.19.0.3 in eu-west-1b: 10.2.2.13 removed, targets now 10.2.2.11`.
fn records_removed(f: Fields<'_>) -> Option<String> {
    records_changed(f, "removed")
}

fn records_whole(f: Fields<'_>, what: &str) -> Option<String> {
    let (place, entries) = records_place(f)?;
    let ips = listed(&f.texts("ips")?, "none");
    Some(format!("{place}: {entries} {ips} {what}{}", ttl(f)))
}

/// `asg_arn.example.com in eu-west-1a: answers 198.19.0.1 registered, TTL 60 s`.
fn records_registered(f: Fields<'_>) -> Option<String> {
    records_whole(f, "registered")
}

/// `asg_arn.example.com in eu-west-1a: answers 198.19.0.1 unregistered, TTL 60 s`.
fn records_unregistered(f: Fields<'_>) -> Option<String> {
    records_whole(f, "unregistered")
}

/// `IPSet asg_arn-ipset created in eu-west-1a`.
fn ipset_created(f: Fields<'_>) -> Option<String> {
    Some(format!(
        "IPSet {} created in {}",
        f.text("ipset")?,
        f.text("zone")?
    ))
}

/// `IPSet asg_arn-ipset deleted in eu-west-1a`.
fn ipset_deleted(f: Fields<'_>) -> Option<String> {
    Some(format!(
        "IPSet {} deleted in {}",
        f.text("ipset")?,
        f.text("zone")?
    ))
}

fn application(f: Fields<'_>, what: &str) -> Option<String> {
    Some(format!(
        "{} {what} (IPSet {}, {} mode, {}) · evaluation {}",
        f.text("domain")?,
        f.text("ipset")?,
        f.text("mode")?.to_uppercase(),
        f.texts("zones")?.join(", "),
        f.text("evaluation")?
    ))
}

/// `asg_arn.example.com deployed (IPSet asg_arn-ipset, DNS mode, eu-west-1a) · evaluation
/// starts`.
fn deployed(f: Fields<'_>) -> Option<String> {
    application(f, "deployed")
}

/// `asg_arn.example.com removed (…) · evaluation stops (clusters idle)`.
fn removed(f: Fields<'_>) -> Option<String> {
    application(f, "removed")
}

/// `evaluation resumes after the cooldown (5 minutes skipped)`.
fn resumed(f: Fields<'_>) -> Option<String> {
    let after = match f.text("after")? {
        "cooldown" => "the cooldown".to_owned(),
        "drain" => "the drain".to_owned(),
        "ttl" => "the DNS TTL".to_owned(),
        "in_progress" => "the scale action in progress".to_owned(),
        other => spaced(other),
    };
    Some(format!(
        "evaluation resumes after {after} ({} skipped)",
        counted(f.int("skipped_minutes")?, "minute")
    ))
}

/// `spike of 180 % in eu-west-1b, minutes 70 to 79` or `step of 20 % in eu-west-1a, from
/// minute 72 until released`.
fn injected(f: Fields<'_>) -> Option<String> {
    let from = f.int("from_minute")?;
    let span = match f.int("until_minute") {
        Some(until) => format!("minutes {from} to {until}"),
        None => format!("from minute {from} until released"),
    };
    Some(format!(
        "{} of {} % in {}, {span}, replacing the workload model",
        f.text("kind")?,
        f.number("level")?,
        f.texts("zones")?.join(", ")
    ))
}

/// `step of 20 % in eu-west-1a ended; the workload model drives the demand from minute 85`.
fn released(f: Fields<'_>) -> Option<String> {
    let ended: Option<Vec<String>> = f
        .objects("released")?
        .into_iter()
        .map(|r| {
            Some(format!(
                "{} of {} % in {}",
                r.text("kind")?,
                r.number("level")?,
                r.text("zone")?
            ))
        })
        .collect();
    Some(format!(
        "{} ended; the workload model drives the demand from minute {}",
        ended?.join("; "),
        f.int("from_minute")?
    ))
}

/// `DNS → NLB: eu-west-1a: NLB static public IP … allocated; …`.
fn switched(f: Fields<'_>) -> Option<String> {
    Some(format!(
        "{} → {}: {}",
        f.text("from")?.to_uppercase(),
        f.text("to")?.to_uppercase(),
        f.texts("consequences")?.join("; ")
    ))
}

/// `max nodes 6 → 8 · watch time 2 → 3 min · thresholds cpu 25–75, throughput 100–800 → cpu
/// 20–70`: each changed setting, before and after.
fn settings(f: Fields<'_>) -> Option<String> {
    let (before, after) = (f.object("previous")?, f.object("params")?);
    let changes: Option<Vec<String>> = f
        .texts("changed")?
        .into_iter()
        .map(|key| {
            let (old, new) = (setting(before, key)?, setting(after, key)?);
            let (name, unit) = name_and_unit(key);
            Some(format!("{name} {old} → {new}{unit}"))
        })
        .collect();
    let changes = changes?;
    if changes.is_empty() {
        return None;
    }
    Some(changes.join(" · "))
}

/// One setting's value: a number, or the thresholds as `cpu 25–75, throughput 100–800`.
fn setting(params: Fields<'_>, key: &str) -> Option<String> {
    if key == "thresholds" {
        let thresholds: Option<Vec<String>> = params
            .objects(key)?
            .into_iter()
            .map(|t| {
                Some(format!(
                    "{} {}–{}",
                    t.text("parameter")?,
                    t.number("min")?,
                    t.number("max")?
                ))
            })
            .collect();
        return thresholds.map(|t| t.join(", "));
    }
    params.number(key)
}

#[cfg(test)]
mod tests {
    use super::super::tests::check;

    #[test]
    fn the_groups_samples_and_start_read_as_words() {
        check(&[
            (
                "autoscale.sample",
                r#"{"decisions":[0],"demand":{"max":[60.0],"mean":[60.0]},"from_minute":421,"metrics":[{"max":[60.0],"mean":[60.0],"parameter":"memory"}],"nodes":{"max":[1],"min":[1],"now":[1]},"to_minute":480,"zones":["eu-west-1a"]}"#,
                "minutes 421–480 · eu-west-1a: 1 node, memory mean 60, max 60",
            ),
            (
                "autoscale.sample",
                r#"{"decisions":[0,2],"demand":{"max":[83.81,83.81],"mean":[82.27,82.27]},"from_minute":721,"metrics":[{"max":[55.87,55.87],"mean":[54.85,54.85],"parameter":"cpu"},{"max":[279.36,279.36],"mean":[274.24,274.24],"parameter":"throughput"}],"nodes":{"max":[3,4],"min":[3,3],"now":[3,4]},"to_minute":780,"zones":["a","b"]}"#,
                "minutes 721–780 · a: 3 nodes, cpu mean 54.85, max 55.87, throughput mean 274.24, max 279.36 · b: 4 nodes (3–4 in the hour), cpu mean 54.85, max 55.87, throughput mean 274.24, max 279.36, 2 decisions",
            ),
            (
                "group.started",
                r#"{"deployed":true,"domain":"web.example.com","max_nodes":6,"min_nodes":2,"mode":"nlb","zones":[{"nlb_ip":"198.19.0.2","nodes":["w-1a-1","w-1a-2"],"zone":"1a"},{"nlb_ip":"198.19.0.3","nodes":["w-1b-1"],"zone":"1b"}]}"#,
                "web.example.com in NLB mode, 2–6 nodes: 1a 2 nodes behind 198.19.0.2 · 1b 1 node behind 198.19.0.3",
            ),
            (
                "group.started",
                r#"{"deployed":false,"domain":"arn.example.com","max_nodes":4,"min_nodes":1,"mode":"dns","zones":[{"nlb_ip":null,"nodes":["a-1"],"zone":"1a"}]}"#,
                "arn.example.com in DNS mode, 1–4 nodes: 1a 1 node (application not deployed yet)",
            ),
        ]);
    }

    #[test]
    fn a_nodes_lifecycle_reads_as_words() {
        check(&[
            (
                "node.provisioned",
                r#"{"nodes":[{"ip":"10.2.2.13","node":"w-1b-4","public_ip":"198.19.0.11"}],"zone":"1b"}"#,
                "provisioned in 1b: w-1b-4 at 10.2.2.13, public IP 198.19.0.11",
            ),
            (
                "node.provisioned",
                r#"{"nodes":[{"ip":"10.2.1.13","node":"w-1a-3","public_ip":null}],"zone":"1a"}"#,
                "provisioned in 1a: w-1a-3 at 10.2.1.13",
            ),
            (
                "node.attached",
                r#"{"config_synced":true,"nodes":["a-2"],"zone":"1a"}"#,
                "a-2 joined the cluster in 1a, configuration synced",
            ),
            (
                "node.registered",
                r#"{"nodes":["a-2"],"registered_with":"ADM","zone":"1a"}"#,
                "a-2 registered with ADM in 1a",
            ),
            (
                "node.deregistered",
                r#"{"nodes":["a-2"],"registered_with":"ADM","zone":"1a"}"#,
                "a-2 deregistered from ADM in 1a",
            ),
            (
                "node.detached",
                r#"{"nodes":["w-1b-3","w-1b-4"],"zone":"1b"}"#,
                "w-1b-3, w-1b-4 left the cluster in 1b",
            ),
            (
                "node.deprovisioned",
                r#"{"nodes":["a-2"],"public_ips_released":["198.19.0.4"],"zone":"1a"}"#,
                "a-2 deprovisioned in 1a, public IP 198.19.0.4 released",
            ),
            (
                "node.deprovisioned",
                r#"{"nodes":["w-1a-3"],"public_ips_released":[],"zone":"1a"}"#,
                "w-1a-3 deprovisioned in 1a",
            ),
        ]);
    }

    #[test]
    fn the_distributors_records_read_as_words() {
        check(&[
            (
                "records.added",
                r#"{"domain":"web.example.com","ips":["198.19.0.11"],"mode":"dns","nlb_ip":null,"records":["198.19.0.7","198.19.0.11"],"ttl_s":60,"zone":"1b"}"#,
                "web.example.com in 1b: 198.19.0.11 added, answers now 198.19.0.7, 198.19.0.11, TTL 60 s",
            ),
            (
                "records.removed",
                r#"{"domain":"web.example.com","ips":["10.2.2.13"],"mode":"nlb","nlb_ip":"198.19.0.3","records":["10.2.2.11"],"ttl_s":null,"zone":"1b"}"#,
                "NLB 198.19.0.3 in 1b: 10.2.2.13 removed, targets now 10.2.2.11",
            ),
            (
                "records.removed",
                r#"{"domain":"arn.example.com","ips":["198.19.0.4"],"mode":"dns","nlb_ip":null,"records":[],"ttl_s":60,"zone":"1a"}"#,
                "arn.example.com in 1a: 198.19.0.4 removed, answers now none, TTL 60 s",
            ),
            (
                "records.registered",
                r#"{"domain":"arn.example.com","ips":["198.19.0.1"],"mode":"dns","nlb_ip":null,"ttl_s":60,"zone":"1a"}"#,
                "arn.example.com in 1a: answers 198.19.0.1 registered, TTL 60 s",
            ),
            (
                "records.unregistered",
                r#"{"domain":"arn.example.com","ips":[],"mode":"nlb","nlb_ip":"198.19.0.5","ttl_s":null,"zone":"1a"}"#,
                "NLB 198.19.0.5 in 1a: targets none unregistered",
            ),
            (
                "ipset.created",
                r#"{"ipset":"arn-ipset","zone":"1a"}"#,
                "IPSet arn-ipset created in 1a",
            ),
            (
                "ipset.deleted",
                r#"{"ipset":"arn-ipset","zone":"1a"}"#,
                "IPSet arn-ipset deleted in 1a",
            ),
        ]);
    }

    #[test]
    fn the_operators_changes_read_as_words() {
        check(&[
            (
                "app.deployed",
                r#"{"domain":"arn.example.com","evaluation":"starts","from_minute":87,"ipset":"arn-ipset","mode":"dns","zones":["1a"]}"#,
                "arn.example.com deployed (IPSet arn-ipset, DNS mode, 1a) · evaluation starts",
            ),
            (
                "app.removed",
                r#"{"domain":"arn.example.com","evaluation":"stops (clusters idle)","from_minute":86,"ipset":"arn-ipset","mode":"dns","zones":["1a"]}"#,
                "arn.example.com removed (IPSet arn-ipset, DNS mode, 1a) · evaluation stops (clusters idle)",
            ),
            (
                "evaluation.resumed",
                r#"{"after":"in_progress","minute":33,"skipped_from_minute":32,"skipped_minutes":1,"zone":"1a"}"#,
                "evaluation resumes after the scale action in progress (1 minute skipped)",
            ),
            (
                "load.injected",
                r#"{"from_minute":70,"kind":"spike","level":180.0,"until_minute":79,"zones":["1b"]}"#,
                "spike of 180 % in 1b, minutes 70 to 79, replacing the workload model",
            ),
            (
                "load.injected",
                r#"{"from_minute":72,"kind":"step","level":20.5,"until_minute":null,"zones":["1a","1b"]}"#,
                "step of 20.5 % in 1a, 1b, from minute 72 until released, replacing the workload model",
            ),
            (
                "load.released",
                r#"{"from_minute":85,"released":[{"kind":"step","level":20.0,"zone":"1a"},{"kind":"step","level":20.0,"zone":"1b"}]}"#,
                "step of 20 % in 1a; step of 20 % in 1b ended; the workload model drives the demand from minute 85",
            ),
            (
                "distribution.switched",
                r#"{"consequences":["1a: NLB IP allocated","scale-ins no longer wait for the TTL"],"deployed":true,"domain":"arn.example.com","from":"dns","from_minute":88,"to":"nlb"}"#,
                "DNS → NLB: 1a: NLB IP allocated; scale-ins no longer wait for the TTL",
            ),
            (
                "group.settings",
                r#"{"changed":["max_nodes","watch_time_min","ttl_s","thresholds"],"from_minute":89,"params":{"cooldown_min":5,"max_nodes":8,"thresholds":[{"max":70.0,"min":20.0,"parameter":"cpu"}],"ttl_s":30,"watch_time_min":3},"previous":{"cooldown_min":5,"max_nodes":6,"thresholds":[{"max":75.0,"min":25.0,"parameter":"cpu"},{"max":800.0,"min":100.0,"parameter":"throughput"}],"ttl_s":60,"watch_time_min":2}}"#,
                "max nodes 6 → 8 · watch time 2 → 3 min · ttl 60 → 30 s · thresholds cpu 25–75, throughput 100–800 → cpu 20–70",
            ),
        ]);
    }
}
