//! Helpers for the LHC engine tests: a small estate, and short-hands to read the views.

use engine::lhc::{ConnectorView, RlView};
use engine::{Event, LhcAction, Scenario, ScenarioError, SimTime, Simulation, TimedAction};

/// Two resource locations: `paris` (three connectors, the third not in StoreFront; 60
/// multi-session + 40 pooled VDI) and `tokyo` (two connectors; 30 multi-session publishing the
/// Japanese app). `extra` is appended (more settings or actions).
pub fn estate(advanced_health_check: bool, tokyo_in_storefront: bool, extra: &str) -> String {
    format!(
        r#"[scenario]
name = "lhc"
seed = 11

[lhc.storefront]
advanced_health_check = {advanced_health_check}

[[lhc.delivery_groups]]
id = "dg-office"

[[lhc.delivery_groups]]
id = "dg-pooled"

[[lhc.delivery_groups]]
id = "dg-reset"
pooled_reset_in_ha = true

[[lhc.resource_locations]]
id = "paris"
name = "Paris"

[[lhc.resource_locations.connectors]]
fqdn = "cc02.paris.example.com"

[[lhc.resource_locations.connectors]]
fqdn = "CC01.paris.example.com"

[[lhc.resource_locations.connectors]]
fqdn = "cc03.paris.example.com"
storefront_configured = false

[[lhc.resource_locations.vda_pools]]
prefix = "PAR-MS-"
count = 60
kind = "multi_session"
delivery_group = "dg-office"
resources = ["Word"]
initial_load = 30

[[lhc.resource_locations.vda_pools]]
prefix = "PAR-VDI-"
count = 40
kind = "pooled_vdi"
delivery_group = "dg-pooled"
resources = ["Desktop"]
initial_load = 100

[[lhc.resource_locations]]
id = "tokyo"
name = "Tokyo"

[[lhc.resource_locations.connectors]]
fqdn = "cc01.tokyo.example.com"
storefront_configured = {tokyo_in_storefront}

[[lhc.resource_locations.connectors]]
fqdn = "cc02.tokyo.example.com"
storefront_configured = {tokyo_in_storefront}

[[lhc.resource_locations.vda_pools]]
prefix = "TYO-MS-"
count = 30
kind = "multi_session"
delivery_group = "dg-office"
resources = ["Word", "Kaikei"]

[[lhc.resource_locations.vda_pools]]
prefix = "TYO-VDI-"
count = 10
kind = "pooled_vdi"
delivery_group = "dg-reset"
resources = ["Desktop"]
initial_load = 100
{extra}"#
    )
}

pub fn parse(src: &str) -> Result<Scenario, ScenarioError> {
    Scenario::from_toml_str(src, "lhc.toml")
}

pub fn rl(sim: &Simulation, id: &str) -> RlView {
    sim.lhc()
        .resource_location(id)
        .unwrap_or_else(|| panic!("no resource location {id}"))
}

pub fn connector(sim: &Simulation, fqdn: &str) -> ConnectorView {
    sim.lhc()
        .connector(fqdn)
        .unwrap_or_else(|| panic!("no connector {fqdn}"))
}

/// Applies an action now, panicking on a rejection.
pub fn act(sim: &mut Simulation, action: impl Into<engine::Action>) -> Vec<Event> {
    match sim.apply_now(action, Some("tester".into())) {
        Ok(events) => events,
        Err(e) => panic!("action rejected: {e}"),
    }
}

pub fn force(rl: &str) -> LhcAction {
    LhcAction::ForceOutage {
        resource_location: rl.into(),
        connector: None,
    }
}

pub fn clear(rl: &str) -> LhcAction {
    LhcAction::ClearOutage {
        resource_location: rl.into(),
        connector: None,
    }
}

pub fn at(t: SimTime, action: impl Into<engine::Action>) -> TimedAction {
    TimedAction {
        at: t,
        actor: None,
        action: action.into(),
    }
}

/// Events of `kind` about `subject`.
pub fn of<'a>(events: &'a [Event], subject: &str, kind: &str) -> Vec<&'a Event> {
    events
        .iter()
        .filter(|e| e.subject == subject && e.kind == kind)
        .collect()
}

/// The first `rl.ha_state` event of `rl` reaching `to`, its time.
pub fn reached(events: &[Event], rl: &str, to: &str) -> Option<u64> {
    of(events, rl, "rl.ha_state")
        .into_iter()
        .find(|e| e.details["to"] == to)
        .map(|e| e.t_ms)
}

pub fn secs(s: u64) -> SimTime {
    SimTime::from_secs(s)
}
