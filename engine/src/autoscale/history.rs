//! The per-minute history of a cluster, kept in memory for the charts and the what-if: a ring
//! of the last [`HISTORY_MINUTES`] minutes (7 days), 16 bytes a minute (161 KB per cluster
//! when full; the buffer is reserved at the first minute and its pages are touched as it
//! fills). Metrics are not stored: they are recomputed from the demand and the nodes in
//! service, so a record is small and the what-if replays the exact demand.

use serde::{Deserialize, Serialize};

use super::decide::{Core, Direction, Outcome, Phase, Skip, StepResult};
use super::views::{ClusterState, MinuteOutcome};

/// Minutes of history kept per cluster (7 days).
pub const HISTORY_MINUTES: usize = 7 * 1440;

/// One recorded minute: the demand, and the decision state and outcome packed in 56 bits.
///
/// | bits | field |
/// |---|---|
/// | 0..4 | outcome code |
/// | 4..7 | phase after the minute |
/// | 7..13 | nodes in service when the statistics were collected |
/// | 13..19 | nodes in service after the minute |
/// | 19..31 | streak after the minute (sign, then 11 bits of magnitude) |
/// | 31..45 | minutes from this one to the end of the phase |
/// | 45..56 | draining: the TTL wait to follow, in minutes |
///
/// Every field fits the validated ranges (at most 32 nodes, watch time ≤ 1440, cooldown and
/// drain ≤ 10080, TTL ≤ 1440 minutes); larger values saturate. The counts of a scale-out or
/// scale-in are the difference of the two node counts; the streak of a breach is the streak.
///
/// Serialized as the pair `[demand, bits]`: a snapshot holds a week of them per cluster.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "(f64, u64)", into = "(f64, u64)")]
pub(crate) struct Minute {
    /// Demand offered (after load injections and noise).
    pub(crate) demand: f64,
    bits: u64,
}

impl From<Minute> for (f64, u64) {
    fn from(m: Minute) -> (f64, u64) {
        (m.demand, m.bits)
    }
}

impl From<(f64, u64)> for Minute {
    fn from((demand, bits): (f64, u64)) -> Minute {
        Minute { demand, bits }
    }
}

const IDLE: u64 = 11;

/// `v` in `width` bits at `shift`, saturated.
fn field(v: u64, width: u32, shift: u32) -> u64 {
    v.min((1 << width) - 1) << shift
}

fn get(bits: u64, width: u32, shift: u32) -> u64 {
    (bits >> shift) & ((1 << width) - 1)
}

impl Minute {
    /// The record of minute `m`, whose step `r` left the cluster in `core`.
    pub(crate) fn new(m: u64, demand: f64, r: &StepResult, core: &Core) -> Minute {
        let (phase, until, aux) = match core.phase {
            Phase::Evaluating => (0, m, 0),
            Phase::Cooldown { until } => (1, until, 0),
            Phase::Draining { until, ttl } => (2, until, ttl),
            Phase::TtlWait { until } => (3, until, 0),
            Phase::Deprovisioning { at } => (4, at, 0),
        };
        let outcome = match r.outcome {
            Outcome::Inside => 0,
            Outcome::AboveMax(_) => 1,
            Outcome::BelowMin(_) => 2,
            Outcome::ScaleOut(_) => 3,
            Outcome::ScaleIn(_) => 4,
            Outcome::AtLimit(Direction::Out) => 5,
            Outcome::AtLimit(Direction::In) => 6,
            Outcome::Skipped(Skip::Cooldown) => 7,
            Outcome::Skipped(Skip::Drain) => 8,
            Outcome::Skipped(Skip::Ttl) => 9,
            Outcome::Skipped(Skip::InProgress) => 10,
            Outcome::Idle => IDLE,
        };
        let sign = u64::from(core.streak < 0);
        let bits = outcome
            | field(phase, 3, 4)
            | field(u64::from(r.n_eval), 6, 7)
            | field(u64::from(core.in_service), 6, 13)
            | field(sign, 1, 19)
            | field(u64::from(core.streak.unsigned_abs()), 11, 20)
            | field(until.saturating_sub(m), 14, 31)
            | field(aux, 11, 45);
        Minute { demand, bits }
    }

    /// Nodes in service when the statistics were collected.
    pub(crate) fn n_eval(&self) -> u32 {
        get(self.bits, 6, 7) as u32
    }

    /// Nodes in service after this minute.
    pub(crate) fn n_after(&self) -> u32 {
        get(self.bits, 6, 13) as u32
    }

    fn streak(&self) -> i32 {
        let magnitude = get(self.bits, 11, 20) as i32;
        if get(self.bits, 1, 19) == 1 {
            -magnitude
        } else {
            magnitude
        }
    }

    /// The decision state after this minute (`m`, its number).
    pub(crate) fn core(&self, m: u64) -> Core {
        let until = m + get(self.bits, 14, 31);
        let phase = match get(self.bits, 3, 4) {
            1 => Phase::Cooldown { until },
            2 => Phase::Draining {
                until,
                ttl: get(self.bits, 11, 45),
            },
            3 => Phase::TtlWait { until },
            4 => Phase::Deprovisioning { at: until },
            _ => Phase::Evaluating,
        };
        Core {
            in_service: self.n_after(),
            phase,
            streak: self.streak(),
        }
    }

    /// The phase after this minute (its end relative to the minute is not needed).
    pub(crate) fn phase(&self) -> Phase {
        self.core(0).phase
    }

    /// The outcome.
    pub(crate) fn outcome(&self) -> Outcome {
        let streak = self.streak().unsigned_abs();
        let (eval, after) = (self.n_eval(), self.n_after());
        match self.bits & 0xF {
            0 => Outcome::Inside,
            1 => Outcome::AboveMax(streak),
            2 => Outcome::BelowMin(streak),
            3 => Outcome::ScaleOut(after.saturating_sub(eval)),
            4 => Outcome::ScaleIn(eval.saturating_sub(after)),
            5 => Outcome::AtLimit(Direction::Out),
            6 => Outcome::AtLimit(Direction::In),
            7 => Outcome::Skipped(Skip::Cooldown),
            8 => Outcome::Skipped(Skip::Drain),
            9 => Outcome::Skipped(Skip::Ttl),
            10 => Outcome::Skipped(Skip::InProgress),
            _ => Outcome::Idle,
        }
    }

    /// Whether the application was deployed during this minute.
    pub(crate) fn deployed(&self) -> bool {
        self.bits & 0xF != IDLE
    }
}

/// The cluster state shown after a step that left `core` with this outcome.
pub(crate) fn state_of(phase: Phase, idle: bool) -> ClusterState {
    if idle {
        return ClusterState::Idle;
    }
    match phase {
        Phase::Evaluating => ClusterState::Evaluating,
        Phase::Cooldown { .. } => ClusterState::Cooldown,
        Phase::Draining { .. } => ClusterState::Draining,
        Phase::TtlWait { .. } => ClusterState::TtlWait,
        Phase::Deprovisioning { .. } => ClusterState::Scaling,
    }
}

/// The view of an outcome.
pub(crate) fn outcome_view(o: Outcome) -> MinuteOutcome {
    match o {
        Outcome::Inside => MinuteOutcome::Inside,
        Outcome::AboveMax(streak) => MinuteOutcome::AboveMax { streak },
        Outcome::BelowMin(streak) => MinuteOutcome::BelowMin { streak },
        Outcome::ScaleOut(nodes) => MinuteOutcome::ScaleOut { nodes },
        Outcome::ScaleIn(nodes) => MinuteOutcome::ScaleIn { nodes },
        Outcome::AtLimit(_) => MinuteOutcome::AtLimit,
        Outcome::Skipped(s) => MinuteOutcome::Skipped {
            reason: s.as_str().to_owned(),
        },
        Outcome::Idle => MinuteOutcome::Idle,
    }
}

/// Records held: one more than shown, so the state before the oldest minute shown is known
/// without reading the slot being overwritten (which, a week old, is out of the caches).
const CAPACITY: usize = HISTORY_MINUTES + 1;

/// A ring of the last [`HISTORY_MINUTES`] consecutive minutes.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct History {
    buf: Vec<Minute>,
    /// Index of the oldest record held once the ring is full.
    head: usize,
    /// Minute of the oldest record held.
    first: u64,
    /// The decision state at the start of the run (before minute 1).
    initial: Core,
}

impl History {
    /// An empty history of a cluster whose state at the start is `initial`.
    pub(crate) fn new(initial: Core) -> History {
        History {
            buf: Vec::new(),
            head: 0,
            first: 1,
            initial,
        }
    }

    /// Appends minute `m` (the minute after the last one).
    pub(crate) fn push(&mut self, m: u64, rec: Minute) {
        if self.buf.is_empty() {
            self.first = m;
            self.buf.reserve_exact(CAPACITY);
        }
        if self.buf.len() < CAPACITY {
            self.buf.push(rec);
            return;
        }
        self.buf[self.head] = rec;
        self.head = if self.head + 1 == CAPACITY {
            0
        } else {
            self.head + 1
        };
        self.first += 1;
    }

    /// Records shown (at most [`HISTORY_MINUTES`]).
    pub(crate) fn len(&self) -> usize {
        self.buf.len().min(HISTORY_MINUTES)
    }

    /// Records held but not shown (0, or 1 once full).
    fn hidden(&self) -> usize {
        self.buf.len() - self.len()
    }

    fn raw(&self, j: usize) -> &Minute {
        &self.buf[(self.head + j) % self.buf.len()]
    }

    /// The minute of record `i` (0 = oldest shown).
    pub(crate) fn minute(&self, i: usize) -> u64 {
        self.first + (self.hidden() + i) as u64
    }

    /// Record `i` (0 = oldest shown); `i < len()`.
    pub(crate) fn get(&self, i: usize) -> &Minute {
        self.raw(self.hidden() + i)
    }

    /// The latest record.
    pub(crate) fn last(&self) -> Option<&Minute> {
        self.len().checked_sub(1).map(|i| self.get(i))
    }

    /// The decision state before record `i`.
    pub(crate) fn core_before(&self, i: usize) -> Core {
        match (self.hidden() + i).checked_sub(1) {
            Some(j) => self.raw(j).core(self.first + j as u64),
            None => self.initial,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::autoscale::decide::Trigger;

    fn rec(demand: f64) -> Minute {
        let r = StepResult {
            outcome: Outcome::AboveMax(2),
            trigger: Trigger::Threshold,
            streak: 0,
            ttl_started: false,
            deprovisioned: false,
            n_eval: 2,
            values: [0.0; 3],
        };
        let core = Core {
            in_service: 2,
            phase: Phase::Draining { until: 40, ttl: 2 },
            streak: 2,
        };
        Minute::new(30, demand, &r, &core)
    }

    #[test]
    fn a_record_is_small_and_round_trips() {
        assert_eq!(core::mem::size_of::<Minute>(), 16);
        let m = rec(12.5);
        assert_eq!(m.outcome(), Outcome::AboveMax(2));
        assert_eq!((m.n_eval(), m.n_after()), (2, 2));
        assert_eq!(
            m.core(30),
            Core {
                in_service: 2,
                phase: Phase::Draining { until: 40, ttl: 2 },
                streak: 2
            }
        );
    }

    #[test]
    fn the_ring_keeps_the_last_week_and_the_state_before_it() {
        let mut h = History::new(Core::new(1));
        for m in 1..=(HISTORY_MINUTES as u64 + 5) {
            h.push(m, rec(m as f64));
        }
        assert_eq!(h.len(), HISTORY_MINUTES);
        assert_eq!(h.minute(0), 6);
        assert_eq!(h.get(0).demand, 6.0);
        assert_eq!(
            h.last().map(|r| r.demand),
            Some(HISTORY_MINUTES as f64 + 5.0)
        );
        assert_eq!(h.core_before(0).in_service, 2);
        let fresh = History::new(Core::new(3));
        assert_eq!(fresh.core_before(0).in_service, 3);
        assert!(fresh.last().is_none());
    }
}
