//! Helpers shared by the integration tests.

#![allow(dead_code, reason = "each test file uses a different subset")]

use engine::{Event, Scenario, ScenarioError, SimTime, Simulation};

/// Two heartbeats with jitter, and a small timeline touching every core action.
pub const HEARTBEATS: &str = r#"
[scenario]
name = "heartbeats"
seed = 5

[[core.heartbeats]]
id = "fast"
interval = "10s"
jitter = "3s"

[[core.heartbeats]]
id = "slow"
interval = "1m"
jitter = "20s"

[[actions]]
at = "2m"
actor = "alice"
kind = "heartbeat_pause"
heartbeat = "fast"

[[actions]]
at = "3m"
actor = "alice"
kind = "note"
text = "fast is paused"

[[actions]]
at = "4m"
actor = "bob"
kind = "heartbeat_resume"
heartbeat = "fast"

[[actions]]
at = "5m"
kind = "heartbeat_interval"
heartbeat = "slow"
interval = "30s"
"#;

pub fn scenario(src: &str) -> Result<Scenario, ScenarioError> {
    Scenario::from_toml_str(src, "test.toml")
}

/// Every event of a run from 0 to `until`, as JSON lines.
pub fn run_lines(scenario: &Scenario, seed: u64, until: SimTime) -> Vec<String> {
    lines(&Simulation::new(scenario, seed).advance_to(until))
}

pub fn lines(events: &[Event]) -> Vec<String> {
    events.iter().map(Event::to_json_line).collect()
}

pub fn kinds(events: &[Event]) -> Vec<(u64, String, String)> {
    events
        .iter()
        .map(|e| (e.t_ms, e.subject.clone(), e.kind.clone()))
        .collect()
}

pub mod attention;
pub mod lhc;
pub mod lms;
