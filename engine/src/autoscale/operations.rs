//! What a checked autoscale action does to a group: injected or released demand, the
//! application deployed or removed, the distribution switched, the parameters replaced.
//! Each change takes effect from minute `from` and is announced by one event with its reason.

use serde_json::{json, Value};

use super::config::{DistributionMode, GroupParams};
use super::decide::Limits;
use super::events::{changed_fields, ev, params_json};
use super::model::{ip_text, Group, PublicIps};
use super::views::NodeState;
use crate::event::Event;

/// A spike (`duration` minutes from `from`) or a lasting step replaces the workload's demand
/// on one zone or all; a new step ends any spike in progress.
pub(crate) fn load_inject(
    g: &mut Group,
    zone: Option<&str>,
    level: f64,
    duration: Option<u32>,
    from: u64,
    now: u64,
    out: &mut Vec<Event>,
) {
    let until = duration.map(|d| from + u64::from(d) - 1);
    let mut zones = Vec::new();
    for c in g
        .clusters
        .iter_mut()
        .filter(|c| zone.is_none_or(|z| z == c.zone))
    {
        match until {
            Some(u) => c.spike = Some((level, from, u)),
            None => {
                c.step = Some((level, from));
                c.spike = None;
            }
        }
        zones.push(c.zone.clone());
    }
    let details = json!({
        "from_minute": from,
        "kind": if until.is_some() { "spike" } else { "step" },
        "level": level,
        "until_minute": until,
        "zones": zones,
    });
    out.push(ev(now, &g.name, "load.injected", details));
}

/// Ends any spike or step on one zone or all, from minute `from`: the demand follows the
/// workload model again. Only zones that had an injection in force or to come are named.
pub(crate) fn load_release(
    g: &mut Group,
    zone: Option<&str>,
    from: u64,
    now: u64,
    out: &mut Vec<Event>,
) {
    let mut zones = Vec::new();
    for c in g
        .clusters
        .iter_mut()
        .filter(|c| zone.is_none_or(|z| z == c.zone))
    {
        if let Some(was) = c.injection(from) {
            c.spike = None;
            c.step = None;
            zones.push(json!({"kind": was.kind, "level": was.level, "zone": c.zone}));
        }
    }
    let details = json!({
        "from_minute": from,
        "released": zones,
    });
    out.push(ev(now, &g.name, "load.released", details));
}

/// The records of a cluster as details.
fn records_of(g: &Group, z: usize) -> Value {
    let c = &g.clusters[z];
    json!({
        "domain": g.domain,
        "ips": c.service_ips(g.dns()),
        "mode": g.mode.as_str(),
        "nlb_ip": c.nlb_ip.map(ip_text),
        "ttl_s": g.dns().then_some(g.params.ttl_s),
        "zone": c.zone,
    })
}

/// Deploys (IPSet per cluster, domain and IPs registered) or removes (records unregistered,
/// IPSets deleted) the group's application.
pub(crate) fn deploy(g: &mut Group, on: bool, from: u64, now: u64, out: &mut Vec<Event>) {
    g.deployed = on;
    let zones: Vec<&str> = g.clusters.iter().map(|c| c.zone.as_str()).collect();
    let kind = if on { "app.deployed" } else { "app.removed" };
    let details = json!({
        "domain": g.domain,
        "evaluation": if on { "starts" } else { "stops (clusters idle)" },
        "from_minute": from,
        "ipset": g.ipset(),
        "mode": g.mode.as_str(),
        "zones": zones,
    });
    out.push(ev(now, &g.name, kind, details));
    for z in 0..g.clusters.len() {
        let zone = g.clusters[z].zone.clone();
        let ipset = json!({ "ipset": g.ipset(), "zone": zone });
        if on {
            out.push(ev(now, &g.name, "ipset.created", ipset));
            out.push(ev(now, &g.name, "records.registered", records_of(g, z)));
        } else {
            out.push(ev(now, &g.name, "records.unregistered", records_of(g, z)));
            out.push(ev(now, &g.name, "ipset.deleted", ipset));
        }
    }
}

/// DNS → NLB: one static public IP per zone is allocated, the nodes' public IPs are released
/// and the domain points at the NLB. NLB → DNS: every node gets a public IP, the domain maps
/// to them, the NLB IPs are released.
pub(crate) fn switch(
    g: &mut Group,
    mode: DistributionMode,
    ips: &mut PublicIps,
    from: u64,
    now: u64,
    out: &mut Vec<Event>,
) {
    let previous = g.mode;
    let mut allocated = Vec::new();
    let mut released = Vec::new();
    let mut consequences = Vec::new();
    let to_nlb = mode == DistributionMode::Nlb;
    for c in &mut g.clusters {
        if to_nlb {
            let ip = ips.allocate();
            c.nlb_ip = Some(ip);
            allocated.push(ip_text(ip));
            consequences.push(format!(
                "{}: NLB static public IP {} allocated; {} node IP(s) registered as its targets",
                c.zone,
                ip_text(ip),
                c.nodes
                    .iter()
                    .filter(|n| n.state == NodeState::InService)
                    .count()
            ));
            for n in &mut c.nodes {
                if let Some(p) = n.public_ip.take() {
                    released.push(ip_text(p));
                }
            }
        } else {
            if let Some(ip) = c.nlb_ip.take() {
                released.push(ip_text(ip));
            }
            let mut count = 0;
            for n in c
                .nodes
                .iter_mut()
                .filter(|n| n.state == NodeState::InService)
            {
                let ip = ips.allocate();
                n.public_ip = Some(ip);
                allocated.push(ip_text(ip));
                count += 1;
            }
            consequences.push(format!(
                "{}: a public IP allocated for each of the {count} node(s) in service; the NLB IP \
                 released",
                c.zone
            ));
        }
    }
    if to_nlb {
        consequences.push(format!(
            "domain {} now resolves to the NLB IP of each zone; node public IPs released, new \
             nodes need none (NLB mode suits TCP traffic)",
            g.domain
        ));
        consequences.push("scale-ins no longer wait for the DNS TTL after the drain".to_owned());
    } else {
        consequences.push(format!(
            "domain {} now maps to the node public IPs (A records, TTL {} s); every new node \
             gets a public IP (DNS mode suits UDP traffic)",
            g.domain, g.params.ttl_s
        ));
        consequences.push(format!(
            "scale-ins now wait for the DNS TTL ({} s) after the drain",
            g.params.ttl_s
        ));
    }
    if !g.deployed {
        consequences
            .push("the application is not deployed: no record changes until it is".to_owned());
    }
    g.mode = mode;
    g.limits = Limits::new(&g.params, g.dns());
    let details = json!({
        "consequences": consequences,
        "deployed": g.deployed,
        "domain": g.domain,
        "from": previous.as_str(),
        "from_minute": from,
        "public_ips_allocated": allocated,
        "public_ips_released": released,
        "to": mode.as_str(),
    });
    out.push(ev(now, &g.name, "distribution.switched", details));
}

/// New parameters, in force from the next minute. Breach streaks restart; a cooldown, drain
/// or TTL wait in progress keeps the end it was given; node bounds are restored at the next
/// evaluation.
pub(crate) fn settings_change(
    g: &mut Group,
    p: &GroupParams,
    from: u64,
    now: u64,
    out: &mut Vec<Event>,
) {
    let changed = changed_fields(&g.params, p);
    let details = json!({
        "changed": changed,
        "from_minute": from,
        "params": params_json(p),
        "previous": params_json(&g.params),
    });
    g.params = p.clone();
    g.limits = Limits::new(p, g.dns());
    for c in &mut g.clusters {
        c.core.streak = 0;
        c.limit_reported = None;
    }
    out.push(ev(now, &g.name, "group.settings", details));
}
