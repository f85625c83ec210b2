//! Helpers for the load-management tests: a small farm, and short-hands to act and read.

use engine::lms::views::ServerView;
use engine::{Event, LmsAction, Scenario, SimTime, Simulation};

/// Two zones: `z1` (s1 most preferred, s2 preferred, s3 default) and `z2` (s4, s5 with the
/// Advanced evaluator, s6 with `Secure`). Apps: Word (s1..s5), Excel (s1, s4), Secure (s6,
/// its own evaluator with an IP range). Counter noise off. `extra` goes into `[lms]` first
/// (settings), `tail` at the end (more tables or actions).
pub fn farm(extra: &str, tail: &str) -> String {
    format!(
        r#"[scenario]
name = "lms"
seed = 3

[lms]
{extra}

[lms.workload.counters]
noise = 0.0

[[lms.zones]]
id = "z1"
name = "Zone one"

[[lms.zones]]
id = "z2"
name = "Zone two"

[[lms.applications]]
name = "Word"

[[lms.applications]]
name = "Excel"

[[lms.applications]]
name = "Secure"
evaluator = "Lab"

[[lms.evaluators]]
name = "Lab"

[[lms.evaluators.rules]]
rule = "ip_range"
ranges = ["192.168.0.0-192.168.0.255"]

[[lms.evaluators.rules]]
rule = "server_user_load"
users = 2

[[lms.servers]]
host = "s1"
zone = "z1"
election_preference = "most_preferred"
apps = ["Word", "Excel"]

[[lms.servers]]
host = "s2"
zone = "z1"
election_preference = "preferred"
apps = ["Word"]

[[lms.servers]]
host = "s3"
zone = "z1"
apps = ["Word"]

[[lms.servers]]
host = "s4"
zone = "z2"
apps = ["Word", "Excel"]

[[lms.servers]]
host = "s5"
zone = "z2"
evaluator = "Advanced"
apps = ["Word"]

[[lms.servers]]
host = "s6"
zone = "z2"
apps = ["Secure"]
{tail}
"#
    )
}

pub fn scenario(src: &str) -> Scenario {
    match Scenario::from_toml_str(src, "lms.toml") {
        Ok(s) => s,
        Err(e) => panic!("{e}"),
    }
}

pub fn sim(extra: &str, tail: &str) -> Simulation {
    Simulation::new(&scenario(&farm(extra, tail)), 7)
}

pub fn at_secs(s: u64) -> SimTime {
    SimTime::from_secs(s)
}

/// Applies `action` now, panicking on error.
pub fn act(sim: &mut Simulation, action: impl Into<engine::Action>) -> Vec<Event> {
    match sim.apply_now(action, Some("tester".into())) {
        Ok(e) => e,
        Err(e) => panic!("{e}"),
    }
}

pub fn launch(user: &str, app: &str, ip: Option<&str>) -> LmsAction {
    LmsAction::AppLaunch {
        user: user.into(),
        app: app.into(),
        client_ip: ip.map(|i| i.parse().unwrap_or(core::net::Ipv4Addr::UNSPECIFIED)),
    }
}

pub fn server(sim: &Simulation, host: &str) -> ServerView {
    match sim.lms().server(host) {
        Some(s) => s,
        None => panic!("no server {host}"),
    }
}

pub fn of_kind<'a>(events: &'a [Event], kind: &str) -> Vec<&'a Event> {
    events.iter().filter(|e| e.kind == kind).collect()
}

/// The per-server entries of the zone-level events of `kind` (`load.pushed`: `pushes`;
/// `load.sample`, `sessions.ended`: `servers`) for `host`, with the event's time and zone.
pub fn entries_of<'a>(
    events: &'a [Event],
    kind: &str,
    host: &str,
) -> Vec<(u64, &'a str, &'a serde_json::Value)> {
    let key = if kind == "load.pushed" {
        "pushes"
    } else {
        "servers"
    };
    events
        .iter()
        .filter(|e| e.kind == kind)
        .filter_map(|e| {
            let entry = e.details.get(key)?.get(host)?;
            Some((e.t_ms, e.subject.as_str(), entry))
        })
        .collect()
}
