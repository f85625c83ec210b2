//! How busy each engine has been lately: its changes (events other than heartbeats) counted
//! per [`BUCKET_MS`] of simulated time over the last [`BUCKETS`] buckets, for the overview's
//! sparklines. Counted in memory as the runtime publishes events, exactly (nothing sampled);
//! a console that resumes a run starts counting again from the resume.

use std::sync::{Arc, Mutex};

use engine::{EngineId, Event};

/// Simulated milliseconds per bucket (10 minutes).
pub const BUCKET_MS: u64 = 10 * 60_000;
/// Buckets kept per engine (4 simulated hours).
pub const BUCKETS: usize = 24;

/// Whether an event kind is a liveness signal (not a change).
fn is_heartbeat(kind: &str) -> bool {
    kind.contains("heartbeat")
}

/// The tag of a slot that holds no bucket yet.
const EMPTY: u64 = u64::MAX;

/// The counts: one ring of [`BUCKETS`] per engine, each slot tagged with the bucket it holds.
#[derive(Debug, Clone)]
pub struct Activity {
    counts: [[u32; BUCKETS]; EngineId::ALL.len()],
    tags: [[u64; BUCKETS]; EngineId::ALL.len()],
}

impl Default for Activity {
    fn default() -> Self {
        Activity {
            counts: [[0; BUCKETS]; EngineId::ALL.len()],
            tags: [[EMPTY; BUCKETS]; EngineId::ALL.len()],
        }
    }
}

/// One engine's recent changes, oldest bucket first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Series {
    /// The engine.
    pub engine: EngineId,
    /// Simulated instant at which the oldest bucket starts.
    pub from_ms: u64,
    /// Changes per bucket, the last one being the current bucket: [`BUCKETS`] of them, or
    /// fewer while the run is younger than the window.
    pub counts: Vec<u32>,
}

impl Activity {
    /// Counts the changes among `events`.
    pub fn record(&mut self, events: &[Event]) {
        for e in events.iter().filter(|e| !is_heartbeat(&e.kind)) {
            let engine = slot_of(e.engine);
            let bucket = e.t_ms / BUCKET_MS;
            let slot = (bucket % BUCKETS as u64) as usize;
            let tag = self.tags[engine][slot];
            if tag != EMPTY && bucket < tag {
                // Older than the window (its slot already holds a later bucket).
                continue;
            }
            if tag != bucket {
                self.tags[engine][slot] = bucket;
                self.counts[engine][slot] = 0;
            }
            self.counts[engine][slot] = self.counts[engine][slot].saturating_add(1);
        }
    }

    /// `engine`'s counts for the [`BUCKETS`] buckets up to the one holding `now_ms` (fewer
    /// when the run started less than [`BUCKETS`] buckets ago).
    pub fn series(&self, engine: EngineId, now_ms: u64) -> Series {
        let newest = now_ms / BUCKET_MS;
        let oldest = newest.saturating_sub(BUCKETS as u64 - 1);
        let e = slot_of(engine);
        let counts = (oldest..=newest)
            .map(|bucket| {
                let slot = (bucket % BUCKETS as u64) as usize;
                if self.tags[e][slot] == bucket {
                    self.counts[e][slot]
                } else {
                    0
                }
            })
            .collect();
        Series {
            engine,
            from_ms: oldest * BUCKET_MS,
            counts,
        }
    }
}

/// The index of `engine` in [`EngineId::ALL`].
fn slot_of(engine: EngineId) -> usize {
    EngineId::ALL
        .iter()
        .position(|e| *e == engine)
        .unwrap_or_default()
}

/// The counts shared between the runtime task (which records) and request handlers (which
/// read). Cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct SharedActivity(Arc<Mutex<Activity>>);

impl SharedActivity {
    /// Counts the changes among `events` (one lock per batch).
    pub fn record(&self, events: &[Event]) {
        // A poisoned lock only means a reader panicked mid-read; the counts are still whole.
        let mut activity = self.0.lock().unwrap_or_else(|p| p.into_inner());
        activity.record(events);
    }

    /// `engine`'s recent changes up to `now_ms`.
    pub fn series(&self, engine: EngineId, now_ms: u64) -> Series {
        let activity = self.0.lock().unwrap_or_else(|p| p.into_inner());
        activity.series(engine, now_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(engine: EngineId, t_ms: u64, kind: &str) -> Event {
        Event {
            t_ms,
            engine,
            subject: "s".into(),
            kind: kind.into(),
            details: serde_json::json!({}).into(),
            actor: None,
        }
    }

    #[test]
    fn changes_are_counted_per_engine_and_bucket_and_heartbeats_are_not() {
        let mut activity = Activity::default();
        activity.record(&[
            event(EngineId::Lhc, 0, "ha.state_changed"),
            event(EngineId::Lhc, BUCKET_MS - 1, "vda.registered"),
            event(EngineId::Lhc, BUCKET_MS, "vda.registered"),
            event(EngineId::Lhc, BUCKET_MS, "heartbeat"),
            event(EngineId::Gslb, 0, "site.down"),
        ]);
        let lhc = activity.series(EngineId::Lhc, BUCKET_MS + 5);
        assert_eq!(lhc.from_ms, 0);
        assert_eq!(
            lhc.counts,
            vec![2, 1],
            "the run's two buckets, the current one last"
        );
        assert_eq!(activity.series(EngineId::Gslb, 0).counts, vec![1]);
        assert!(activity
            .series(EngineId::Lms, 0)
            .counts
            .iter()
            .all(|c| *c == 0));
    }

    #[test]
    fn buckets_older_than_the_window_fall_out_and_their_slots_are_reused() {
        let mut activity = Activity::default();
        activity.record(&[event(EngineId::Lms, 0, "session.placed")]);
        let later = BUCKETS as u64 * BUCKET_MS; // the slot of bucket 0 again
        activity.record(&[event(EngineId::Lms, later, "session.placed")]);
        let series = activity.series(EngineId::Lms, later);
        assert_eq!(series.from_ms, BUCKET_MS);
        assert_eq!(series.counts.len(), BUCKETS);
        assert_eq!(series.counts.iter().sum::<u32>(), 1, "bucket 0 is gone");
        assert_eq!(series.counts[BUCKETS - 1], 1);
        // Seen from long after, nothing recent remains.
        let idle = activity.series(EngineId::Lms, later * 10);
        assert!(idle.counts.iter().all(|c| *c == 0));
    }
}
