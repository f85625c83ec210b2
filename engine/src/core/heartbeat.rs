//! One heartbeat: its schedule and its own random stream.

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::config::HeartbeatConfig;
use crate::clock::{SimDuration, SimTime};
use crate::event::{EngineId, Event};
use crate::rng::Rng;

/// The state of one heartbeat.
///
/// Each gap between two beats (or from the start, a resume or an interval change to the next
/// beat) is `interval + j`, with `j` drawn uniformly in `[-jitter, +jitter]` from the
/// heartbeat's own stream. As `jitter < interval`, gaps are always positive.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Heartbeat {
    id: String,
    interval: SimDuration,
    jitter: SimDuration,
    rng: Rng,
    beats: u64,
    next: Option<SimTime>,
    next_jitter_ms: i64,
    last_beat: Option<SimTime>,
}

impl Heartbeat {
    /// A running heartbeat whose first beat is one gap after `start`.
    pub(crate) fn new(config: &HeartbeatConfig, rng: Rng, start: SimTime) -> Heartbeat {
        let mut hb = Heartbeat {
            id: config.id.clone(),
            interval: config.interval,
            jitter: config.jitter,
            rng,
            beats: 0,
            next: None,
            next_jitter_ms: 0,
            last_beat: None,
        };
        hb.schedule_from(start);
        hb
    }

    /// The heartbeat's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The current interval.
    pub fn interval(&self) -> SimDuration {
        self.interval
    }

    /// The configured jitter.
    pub fn jitter(&self) -> SimDuration {
        self.jitter
    }

    /// Whether an operator paused it.
    pub fn is_paused(&self) -> bool {
        self.next.is_none()
    }

    /// Beats emitted so far (the `seq` of the last one).
    pub fn beats(&self) -> u64 {
        self.beats
    }

    /// When the next beat is due (`None` while paused).
    pub fn next_due(&self) -> Option<SimTime> {
        self.next
    }

    /// When the last beat happened.
    pub fn last_beat(&self) -> Option<SimTime> {
        self.last_beat
    }

    /// Draws the next gap and schedules the next beat after `anchor`.
    pub(crate) fn schedule_from(&mut self, anchor: SimTime) {
        let max = i64::try_from(self.jitter.as_millis()).unwrap_or(i64::MAX);
        let j = self.rng.range_inclusive(-max, max);
        let gap = i128::from(self.interval.as_millis()) + i128::from(j);
        let gap = u64::try_from(gap.max(1)).unwrap_or(u64::MAX);
        self.next_jitter_ms = j;
        self.next = Some(anchor.saturating_add(SimDuration::from_millis(gap)));
    }

    /// Stops the beats.
    pub(crate) fn pause(&mut self) {
        self.next = None;
    }

    /// Sets a new interval (already checked).
    pub(crate) fn set_interval(&mut self, interval: SimDuration) {
        self.interval = interval;
    }

    /// If a beat is due at or before `now`, emits it and schedules the next one.
    pub(crate) fn fire_if_due(&mut self, now: SimTime) -> Option<Event> {
        let due = self.next.filter(|t| *t <= now)?;
        self.beats += 1;
        self.last_beat = Some(due);
        let details = json!({
            "interval_ms": self.interval.as_millis(),
            "jitter_ms": self.next_jitter_ms,
            "seq": self.beats,
        });
        self.schedule_from(due);
        Some(Event::new(
            due,
            EngineId::Core,
            self.id.clone(),
            "heartbeat",
            details,
        ))
    }
}
