//! Compact per-VDA state (structure of arrays, no string per VDA) and the pools that give VDAs
//! their names, kinds and resources.
//!
//! A VDA is a global index. Pools are contiguous ranges of indexes, and the pools of one
//! resource location are contiguous too, so a VDA's pool and resource location are found by
//! binary search; names are derived on demand (`{prefix}{n:03}`).

use serde::{Deserialize, Serialize};

use super::config::{VdaKind, VdaPool};
use crate::rng::Rng;

/// Broker code: not registered.
pub(crate) const UNREGISTERED: u16 = 0;
/// Broker code: registered with the cloud broker (through some connector's RBP).
pub(crate) const CLOUD: u16 = 1;
/// Flag on a broker code: the registration with that secondary was lost or rejected; the VDA
/// is unregistered but remembers which broker it last used.
pub(crate) const STALE: u16 = 0x8000;

/// Broker code of the secondary broker on connector `local` of the VDA's resource location.
pub(crate) fn secondary_code(local: usize) -> u16 {
    u16::try_from(local + 2).unwrap_or(STALE - 1)
}

/// The connector index of a secondary broker code, if it is one (stale or not).
pub(crate) fn code_connector(code: u16) -> Option<usize> {
    let plain = code & !STALE;
    (plain >= 2).then(|| usize::from(plain - 2))
}

/// A pool, resolved.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Pool {
    pub prefix: String,
    /// Index of the resource location.
    pub rl: usize,
    /// First global VDA index.
    pub start: u32,
    pub count: u32,
    pub kind: VdaKind,
    /// Index of the delivery group.
    pub group: usize,
    /// Sessions one VDA can host.
    pub capacity: u16,
    pub resources: Vec<String>,
}

impl Pool {
    /// Whether the pool publishes `resource`.
    pub fn publishes(&self, resource: &str) -> bool {
        self.resources.iter().any(|r| r == resource)
    }

    /// Name of global VDA `v` (which must be in the pool).
    pub fn name(&self, v: u32) -> String {
        format!("{}{:03}", self.prefix, v - self.start + 1)
    }
}

/// Every VDA of the estate.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct Vdas {
    /// Heartbeat phase in whole seconds, in `[0, vda_heartbeat_max)`.
    pub phase_s: Vec<u32>,
    /// Broker code (see the constants).
    pub broker: Vec<u16>,
    pub sessions: Vec<u16>,
    pub maintenance: Vec<bool>,
    pub pools: Vec<Pool>,
}

impl Vdas {
    /// Number of VDAs.
    pub fn len(&self) -> usize {
        self.broker.len()
    }

    /// Adds the VDAs of one pool: phases drawn uniformly in whole seconds below
    /// `period_ms`, then starting sessions around `initial_load` percent of the capacity (one
    /// draw each, in VDA order, from the pool's own stream).
    pub fn add_pool(
        &mut self,
        cfg: &VdaPool,
        rl: usize,
        group: usize,
        period_ms: u64,
        rng: &mut Rng,
    ) {
        let start = u32::try_from(self.len()).unwrap_or(u32::MAX);
        let capacity = cfg.session_capacity();
        let slots = period_ms.div_ceil(1_000).max(1);
        let expected = f64::from(capacity) * f64::from(cfg.initial_load) / 100.0;
        for _ in 0..cfg.count {
            let phase = u32::try_from(rng.below(slots)).unwrap_or(u32::MAX);
            let draw = rng.unit_f64();
            // Randomised rounding: the mean is `expected`; the cast saturates and is clamped.
            let sessions = ((expected + draw).floor() as u16).min(capacity);
            self.phase_s.push(phase);
            self.broker.push(CLOUD);
            self.sessions.push(sessions);
            self.maintenance.push(false);
        }
        self.pools.push(Pool {
            prefix: cfg.prefix.clone(),
            rl,
            start,
            count: cfg.count,
            kind: cfg.kind,
            group,
            capacity,
            resources: cfg.resources.clone(),
        });
    }

    /// The pool of global VDA `v`.
    pub fn pool_of(&self, v: u32) -> Option<&Pool> {
        let i = self
            .pools
            .partition_point(|p| p.start <= v)
            .checked_sub(1)?;
        self.pools.get(i).filter(|p| v < p.start + p.count)
    }

    /// The name of global VDA `v`.
    pub fn name(&self, v: u32) -> String {
        self.pool_of(v)
            .map_or_else(|| format!("vda-{v}"), |p| p.name(v))
    }

    /// Phase of VDA `v` in milliseconds.
    pub fn phase_ms(&self, v: u32) -> u64 {
        self.phase_s
            .get(v as usize)
            .map_or(0, |p| u64::from(*p) * 1_000)
    }
}

/// The first contact of a VDA with phase `phase_ms` strictly after `start` (its contacts are
/// at `phase + k * period`).
pub(crate) fn contact_after(start: u64, phase_ms: u64, period_ms: u64) -> u64 {
    let period = period_ms.max(1);
    let r = start % period;
    if phase_ms > r {
        start + (phase_ms - r)
    } else {
        start + (period - r) + phase_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contacts_come_within_one_period() {
        let p = 300_000;
        assert_eq!(contact_after(0, 5_000, p), 5_000);
        assert_eq!(contact_after(0, 0, p), 300_000);
        assert_eq!(contact_after(610_000, 5_000, p), 605_000 + p);
        assert_eq!(contact_after(610_000, 20_000, p), 620_000);
        assert_eq!(contact_after(610_000, 10_000, p), 910_000);
        for start in [0, 1, 299_999, 300_000, 1_234_567] {
            for phase in [0, 1_000, 150_000, 299_000] {
                let t = contact_after(start, phase, p);
                assert!(t > start && t <= start + p);
                assert_eq!(t % p, phase);
            }
        }
    }

    #[test]
    fn codes_round_trip() {
        assert_eq!(code_connector(secondary_code(0)), Some(0));
        assert_eq!(code_connector(secondary_code(3) | STALE), Some(3));
        assert_eq!(code_connector(CLOUD), None);
        assert_eq!(code_connector(UNREGISTERED), None);
    }

    #[test]
    fn pools_name_and_find_vdas() {
        let mut vdas = Vdas::default();
        let cfg = |prefix: &str, count, kind| VdaPool {
            prefix: prefix.into(),
            count,
            kind,
            delivery_group: "dg".into(),
            resources: vec!["Word".into()],
            max_sessions: None,
            initial_load: 50,
        };
        let mut rng = Rng::new(1);
        vdas.add_pool(
            &cfg("A-", 3, VdaKind::MultiSession),
            0,
            0,
            300_000,
            &mut rng,
        );
        vdas.add_pool(&cfg("B-", 1500, VdaKind::PooledVdi), 1, 0, 2_500, &mut rng);
        assert_eq!(vdas.len(), 1503);
        assert_eq!(vdas.name(0), "A-001");
        assert_eq!(vdas.name(3), "B-001");
        assert_eq!(vdas.name(1502), "B-1500");
        assert_eq!(vdas.pool_of(2).map(|p| p.rl), Some(0));
        assert!(vdas.pool_of(1503).is_none());
        assert!(vdas.phase_s[..3].iter().all(|p| *p < 300));
        assert!(vdas.phase_s[3..].iter().all(|p| *p < 3));
        assert!(vdas.sessions[..3].iter().all(|s| (9..=11).contains(s)));
        assert!(vdas.sessions[3..].iter().all(|s| *s <= 1));
        let busy = vdas.sessions[3..].iter().filter(|s| **s == 1).count();
        assert!((600..900).contains(&busy), "{busy}");
    }
}
