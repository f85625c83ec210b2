//! What can flap in the LHC engine: each resource location's HA state and each connector's
//! health (its power and components; the cloud link shows in the HA state).

use super::connector::{ConnectorState, Power};
use super::engine::LhcEngine;
use super::ha_state::HaState;
use crate::attention::watch::Watched;

/// A connector's health, as the flap detector's state code.
fn health(c: &ConnectorState) -> u32 {
    match c.power {
        Power::Down => 3,
        Power::Restarting { .. } => 2,
        Power::Up if !(c.css_ok && c.ha_ok && c.rbp_ok) => 1,
        Power::Up => 0,
    }
}

const HEALTH: [&str; 4] = ["healthy", "a component failed", "restarting", "down"];

impl Watched for LhcEngine {
    fn subjects(&self, visit: &mut dyn FnMut(&'static str, &str)) {
        for rl in &self.rls {
            visit("resource_location", &rl.id);
        }
        for c in &self.connectors {
            visit("connector", &c.fqdn);
        }
    }

    fn states(&self, out: &mut Vec<u32>) {
        out.extend(self.rls.iter().map(|rl| rl.ha as u32));
        out.extend(self.connectors.iter().map(health));
    }

    fn state_label(&self, kind: &str, state: u32) -> String {
        let label = match kind {
            "resource_location" => HaState::ALL.get(state as usize).map(|s| s.label()),
            _ => HEALTH.get(state as usize).copied(),
        };
        label.unwrap_or("unknown").to_owned()
    }
}
