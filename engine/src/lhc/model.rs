//! The runtime state of a resource location, the engine's settings, and the per-instant
//! aggregation of registration moves.

use serde::{Deserialize, Serialize};

use super::config::LhcConfig;
use super::election::Election;
use super::ha_state::{HaDurations, HaState};
use crate::clock::{SimDuration, SimTime};

/// The durations and switches of `[lhc]`, copied once.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Settings {
    pub ha: HaDurations,
    pub health_check: SimDuration,
    pub cloud_lost_after: SimDuration,
    pub css_poll: SimDuration,
    pub storefront_heartbeat: SimDuration,
    pub vda_period: SimDuration,
    pub restart: SimDuration,
    pub localdb_import: SimDuration,
    pub advanced_health_check: bool,
}

impl Settings {
    pub fn new(c: &LhcConfig) -> Settings {
        Settings {
            ha: HaDurations {
                pending_ha: c.pending_ha,
                ha_initial: c.ha_initial,
                pending_recovery: c.pending_recovery,
            },
            health_check: c.health_check_interval,
            cloud_lost_after: c.cloud_lost_after,
            css_poll: c.css_poll,
            storefront_heartbeat: c.storefront_heartbeat,
            vda_period: c.vda_heartbeat_max,
            restart: c.connector_restart,
            localdb_import: c.localdb_import,
            advanced_health_check: c.storefront.advanced_health_check,
        }
    }
}

/// The first instant of the grid `offset + k * step` strictly after `t`.
pub(crate) fn grid_after(t: SimTime, step: SimDuration, offset: SimDuration) -> SimTime {
    let step = step.as_millis().max(1);
    let offset = offset.as_millis() % step;
    let t = t.as_millis();
    if t < offset {
        return SimTime(offset);
    }
    let k = (t - offset) / step + 1;
    SimTime(offset + k * step)
}

/// The first instant of the grid `k * step` at or after `t`.
pub(crate) fn grid_at_or_after(t: SimTime, step: SimDuration) -> SimTime {
    let step = step.as_millis().max(1);
    SimTime(t.as_millis().div_ceil(step) * step)
}

/// Which broker the VDAs of a resource location should register with at their next contact.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Target {
    /// Stay where they are (the cloud is unreachable but HA detection will decide).
    Hold,
    /// No broker is reachable.
    Unregistered,
    /// The cloud broker, through an RBP.
    Cloud,
    /// The elected secondary broker (connector index in the RL).
    Secondary(usize),
}

/// VDAs re-registering at their next contact, from `start`, in phase order.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Sweep {
    pub start: SimTime,
    /// Position in the RL's phase order of the first VDA to contact.
    pub first: usize,
    /// How many VDAs have contacted so far.
    pub done: usize,
    /// Why the VDAs move (the `reason` of `registrations.moved`).
    pub reason: String,
}

/// Registration moves of one resource location at the current instant.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct MoveLog {
    /// (from code, to code, count).
    pub flows: Vec<(u16, u16, u32)>,
    /// Up to three VDAs that moved (global indexes).
    pub sample: Vec<u32>,
    /// Sessions learned by secondary brokers from the VDAs that registered with them.
    pub sessions_learned: u64,
    /// Registrations rejected, per connector index.
    pub rejected: Vec<(usize, u32)>,
    /// Why the VDAs moved (from the sweep).
    pub reason: String,
    /// A sweep back to the cloud completed: secondaries purge their leftover registrations.
    pub purge: bool,
}

impl MoveLog {
    pub fn record(&mut self, from: u16, to: u16, vda: u32) {
        match self.flows.iter_mut().find(|f| f.0 == from && f.1 == to) {
            Some(f) => f.2 += 1,
            None => self.flows.push((from, to, 1)),
        }
        if self.sample.len() < 3 {
            self.sample.push(vda);
        }
    }

    pub fn reject(&mut self, connector: usize) {
        match self.rejected.iter_mut().find(|r| r.0 == connector) {
            Some(r) => r.1 += 1,
            None => self.rejected.push((connector, 1)),
        }
    }
}

/// Registration counts of a resource location, as last published.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Counts {
    pub cloud: u32,
    pub unregistered: u32,
    /// Per connector index.
    pub secondary: Vec<u32>,
}

/// One resource location.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct RlState {
    pub id: String,
    pub name: String,
    /// Global connector indexes, in file order.
    pub connectors: Vec<usize>,
    /// Some connector is configured in StoreFront.
    pub ha_ready: bool,
    /// Aggregated HA state and since when.
    pub ha: HaState,
    pub ha_since: SimTime,
    pub election: Election,
    /// First global VDA index and number of VDAs.
    pub vda_start: u32,
    pub vda_count: u32,
    /// Local VDA offsets sorted by (phase, offset).
    pub order: Vec<u32>,
    pub target: Target,
    pub sweep: Option<Sweep>,
    pub cloud: u32,
    pub unregistered: u32,
    /// Next health check between the connectors.
    pub check_due: Option<SimTime>,
    /// Next instant with work for this RL.
    pub next_due: Option<SimTime>,
    pub moves: MoveLog,
    pub published: Option<Counts>,
    /// Was the forced-outage set partial after the last force/clear action.
    pub partial_forced: bool,
}

impl RlState {
    /// Asks for a health check at the next grid instant after `now`.
    pub fn want_check(&mut self, now: SimTime, interval: SimDuration) {
        let t = grid_after(now, interval, SimDuration::ZERO);
        self.check_due = Some(self.check_due.map_or(t, |c| c.min(t)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids() {
        let ten = SimDuration::from_secs(10);
        assert_eq!(
            grid_after(SimTime(0), ten, SimDuration::ZERO),
            SimTime(10_000)
        );
        assert_eq!(
            grid_after(SimTime(10_000), ten, SimDuration::ZERO),
            SimTime(20_000)
        );
        assert_eq!(
            grid_after(SimTime(10_001), ten, SimDuration::ZERO),
            SimTime(20_000)
        );
        let off = SimDuration::from_secs(3);
        assert_eq!(grid_after(SimTime(0), ten, off), SimTime(3_000));
        assert_eq!(grid_after(SimTime(3_000), ten, off), SimTime(13_000));
        assert_eq!(grid_at_or_after(SimTime(10_000), ten), SimTime(10_000));
        assert_eq!(grid_at_or_after(SimTime(10_001), ten), SimTime(20_000));
        let mut log = MoveLog::default();
        log.record(1, 2, 7);
        log.record(1, 2, 8);
        log.reject(0);
        assert_eq!(log.flows, vec![(1, 2, 2)]);
        assert_eq!(log.rejected, vec![(0, 1)]);
    }
}
