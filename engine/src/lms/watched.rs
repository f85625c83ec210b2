//! What can flap in load management: each zone's data collector (which server holds the
//! role; re-elections back and forth flap).

use super::engine::LmsEngine;
use crate::attention::watch::Watched;

impl Watched for LmsEngine {
    fn subjects(&self, visit: &mut dyn FnMut(&'static str, &str)) {
        for zone in &self.zones {
            visit("zone", &zone.id);
        }
    }

    fn states(&self, out: &mut Vec<u32>) {
        out.extend(self.zones.iter().map(|z| z.collector.map_or(0, |s| s + 1)));
    }

    fn state_label(&self, _kind: &str, state: u32) -> String {
        match state.checked_sub(1) {
            Some(s) => match self.servers.get(s as usize) {
                Some(server) => format!("data collector {}", server.host),
                None => "unknown".to_owned(),
            },
            None => "no data collector".to_owned(),
        }
    }
}
