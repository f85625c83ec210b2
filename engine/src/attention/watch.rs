//! [`Watch`]: one engine's subjects under flap detection, checked on a grid of the engine's
//! interval.
//!
//! A check at grid instant `g` records each subject's state as it was just before `g`.
//! States change only at the instants the engines process, so the checks are not run one
//! by one. After an instant at which the engine emitted events, the watch asks for the next
//! grid instant; there, before anything else happens, it samples the subjects' states (once,
//! however many instants the interval held) and records the checks passed since. A check
//! that finds a quiet subject (not flapping, no change in its window) in the same state
//! changes nothing and is skipped. Otherwise the watch asks to be woken only for a check
//! that starts or stops flapping if the states stay as sampled: a flapping subject that
//! stays put falls below the stop threshold. An estate at rest adds no instant to the run,
//! and a busy one at most one per interval.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::config::FlapConfig;
use crate::clock::{SimDuration, SimTime};
use crate::event::{EngineId, Event};
use crate::flap::{FlapDetector, FlapSettings};

/// An engine whose subjects can flap.
pub(crate) trait Watched {
    /// Changes whenever the list of subjects does (e.g. a GSLB topology import); the
    /// subjects of most engines are fixed for the run.
    fn subjects_generation(&self) -> u64 {
        0
    }

    /// Calls `visit(kind, name)` for each subject, in a fixed order (for a generation).
    fn subjects(&self, visit: &mut dyn FnMut(&'static str, &str));

    /// Appends each subject's state code, in the order of [`subjects`](Self::subjects).
    fn states(&self, out: &mut Vec<u32>);

    /// The words for state `state` of a subject of `kind` (in the events' details).
    fn state_label(&self, kind: &str, state: u32) -> String;
}

/// One subject: what it is and its detector.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Subject {
    pub(crate) kind: String,
    pub(crate) name: String,
    /// Its state at the latest sample.
    pub(crate) current: u32,
    pub(crate) detector: FlapDetector<u32>,
}

/// A subject flapping now, for the console.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlappingSubject {
    /// The engine it belongs to.
    pub engine: EngineId,
    /// `resource_location`, `connector`, `zone`, `site`, `mep_link`, `child` or `cluster`.
    pub kind: String,
    /// Its name (the subject of its events).
    pub name: String,
    /// State changes in its window.
    pub changes: u32,
    /// The weighted percentage of changes.
    pub percent: f64,
    /// Its latest state, in words.
    pub state: String,
}

/// One engine's watch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Watch {
    engine: EngineId,
    enabled: bool,
    settings: FlapSettings,
    interval: SimDuration,
    /// Every grid check at or before this instant is recorded.
    checked: SimTime,
    subjects: Vec<Subject>,
    /// The engine's subjects generation the list was built for (`None` before the first
    /// sample).
    generation: Option<u64>,
    /// The subjects a check could change (not quiet, or in a new state), in order.
    unsettled: Vec<usize>,
    /// States read at a sample (kept to reuse its allocation).
    #[serde(skip)]
    scratch: Vec<u32>,
    /// The first instant since the latest sample at which the engine emitted events.
    dirty_at: Option<SimTime>,
    wake: Option<SimTime>,
    /// The first instant at which a catch-up has anything to do (a sample, or a check of an
    /// unsettled subject): before it, a catch-up returns at once.
    due: Option<SimTime>,
}

impl Watch {
    /// The watch of `engine` with its `[attention.<engine>]` table.
    pub(crate) fn new(engine: EngineId, config: &FlapConfig) -> Watch {
        Watch {
            engine,
            enabled: config.enabled,
            settings: config.settings(),
            interval: config.interval_for(engine),
            checked: SimTime::ZERO,
            subjects: Vec::new(),
            generation: None,
            unsettled: Vec::new(),
            scratch: Vec::new(),
            dirty_at: None,
            wake: None,
            due: None,
        }
    }

    /// The next check that may start or stop flapping.
    pub(crate) fn next_wakeup(&self) -> Option<SimTime> {
        self.wake
    }

    /// The first instant at which a catch-up has anything to do.
    pub(crate) fn due(&self) -> Option<SimTime> {
        self.due
    }

    /// Before the instant `t` changes anything: samples the states if the engine emitted
    /// events since the latest sample and a grid instant has come since (the checks before
    /// it saw the states sampled before), then records every check up to and including `t`.
    /// Emits a `flapping.started` / `flapping.stopped` event per subject that starts or
    /// stops, stamped at its check.
    pub(crate) fn catch_up(&mut self, t: SimTime, engine: &dyn Watched, out: &mut Vec<Event>) {
        if !self.enabled || self.due.is_none_or(|d| t < d) {
            return;
        }
        let mut moved = false;
        if let Some(first) = self.dirty_at.map(|d| self.grid_after(d)) {
            if first <= t {
                self.record_until(SimTime(first.as_millis() - 1), engine, out);
                self.sample(engine);
                self.dirty_at = None;
                moved = true;
            }
        }
        moved |= self.record_until(t, engine, out);
        if moved {
            self.plan();
        }
    }

    /// Sets [`due`](Self::due) from the pending sample and the unsettled subjects.
    fn schedule(&mut self) {
        let sample = self.dirty_at.map(|d| self.grid_after(d));
        let record = (!self.unsettled.is_empty()).then(|| self.grid_after(self.checked));
        self.due = sample.into_iter().chain(record).min();
    }

    /// The engine emitted events at `t`: its subjects' states may have changed, to be
    /// sampled at the next grid instant.
    pub(crate) fn touch(&mut self, t: SimTime) {
        if !self.enabled || self.dirty_at.is_some() {
            return;
        }
        self.dirty_at = Some(t);
        self.plan();
    }

    /// The first grid instant strictly after `t`.
    fn grid_after(&self, t: SimTime) -> SimTime {
        let step = self.interval.as_millis().max(1);
        SimTime((t.as_millis() / step + 1) * step)
    }

    /// Records the grid checks up to and including `t` with the latest sampled states;
    /// says whether there was any.
    fn record_until(&mut self, t: SimTime, engine: &dyn Watched, out: &mut Vec<Event>) -> bool {
        if t <= self.checked {
            return false;
        }
        let step = self.interval.as_millis().max(1);
        let first = (self.checked.as_millis() / step + 1) * step;
        if first > t.as_millis() {
            return false;
        }
        let due = (t.as_millis() - first) / step + 1;
        self.checked = SimTime(first + (due - 1) * step);
        // Past a full window more checks of one state change nothing.
        let rounds = due.min(self.settings.checks as u64 + 1);
        let mut active = core::mem::take(&mut self.unsettled);
        for round in 0..rounds {
            if active.is_empty() {
                break;
            }
            let at = SimTime(first + round * step);
            for &i in &active {
                let subject = &mut self.subjects[i];
                if let Some(change) = subject.detector.check(subject.current) {
                    let mut details = change.details();
                    if let Value::Object(map) = &mut details {
                        let label = engine.state_label(&subject.kind, subject.current);
                        let window = SimDuration(step * (self.settings.checks as u64 - 1));
                        let reason = map.get("reason").and_then(Value::as_str).map(|r| {
                            format!(
                                "{} {}: {r} (a check every {}); now {label}",
                                subject.kind.replace('_', " "),
                                subject.name,
                                self.interval
                            )
                        });
                        if let Some(reason) = reason {
                            map.insert("reason".into(), Value::from(reason));
                        }
                        map.insert("subject_kind".into(), Value::from(subject.kind.clone()));
                        map.insert("state".into(), Value::from(label));
                        map.insert("interval".into(), Value::from(self.interval.to_string()));
                        map.insert("window".into(), Value::from(window.to_string()));
                    }
                    let kind = change.transition.kind();
                    out.push(Event::new(at, self.engine, &subject.name, kind, details));
                }
            }
            active.retain(|&i| !self.is_settled(i));
        }
        self.unsettled = active;
        true
    }

    /// Reads the subjects' states now.
    fn sample(&mut self, engine: &dyn Watched) {
        let generation = engine.subjects_generation();
        if self.generation != Some(generation) {
            self.resubscribe(engine);
            self.generation = Some(generation);
        }
        self.scratch.clear();
        engine.states(&mut self.scratch);
        for (subject, state) in self.subjects.iter_mut().zip(&self.scratch) {
            subject.current = *state;
        }
        self.unsettled = (0..self.subjects.len())
            .filter(|&i| !self.is_settled(i))
            .collect();
    }

    /// The subjects flapping now.
    pub(crate) fn flapping(&self, engine: &dyn Watched) -> Vec<FlappingSubject> {
        self.subjects
            .iter()
            .filter(|s| s.detector.is_flapping())
            .map(|s| FlappingSubject {
                engine: self.engine,
                kind: s.kind.clone(),
                name: s.name.clone(),
                changes: s.detector.changes(),
                percent: (s.detector.percent() * 10.0).round() / 10.0,
                state: engine.state_label(&s.kind, s.current),
            })
            .collect()
    }

    /// The subjects changed (the first sample, a topology import): keep the detectors of
    /// those still there, in the engine's new order; new ones start with an empty window.
    fn resubscribe(&mut self, engine: &dyn Watched) {
        let mut old: BTreeMap<(String, String), Subject> = self
            .subjects
            .drain(..)
            .map(|s| ((s.kind.clone(), s.name.clone()), s))
            .collect();
        let settings = self.settings;
        let mut fresh = Vec::new();
        engine.subjects(&mut |kind, name| {
            let subject = old
                .remove(&(kind.to_owned(), name.to_owned()))
                .unwrap_or_else(|| Subject {
                    kind: kind.to_owned(),
                    name: name.to_owned(),
                    current: 0,
                    detector: FlapDetector::new(settings),
                });
            fresh.push(subject);
        });
        self.subjects = fresh;
    }

    /// Nothing a check of subject `i` in its current state could change.
    fn is_settled(&self, i: usize) -> bool {
        let s = &self.subjects[i];
        s.detector.is_quiet() && s.detector.last() == Some(&s.current)
    }

    /// The next instant the watch needs: the grid instant that samples the states after
    /// the engine emitted events, or the check that starts or stops flapping if the states
    /// stay as sampled (checks before it change nothing that shows, so they are recorded
    /// lazily).
    fn plan(&mut self) {
        let step = self.interval.as_millis().max(1);
        let transition = self
            .unsettled
            .iter()
            .map(|&i| &self.subjects[i])
            .filter_map(|s| s.detector.checks_until_transition(&s.current))
            .min()
            .map(|n| SimTime(self.checked.as_millis() + n as u64 * step));
        let sample = self.dirty_at.map(|d| self.grid_after(d));
        self.wake = transition.into_iter().chain(sample).min();
        self.schedule();
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    const NAMES: [&str; 3] = ["a", "b", "c"];

    /// Three subjects whose states the test sets.
    struct Fake([u32; 3]);

    impl Watched for Fake {
        fn subjects(&self, visit: &mut dyn FnMut(&'static str, &str)) {
            for name in NAMES {
                visit("thing", name);
            }
        }

        fn states(&self, out: &mut Vec<u32>) {
            out.extend(self.0);
        }

        fn state_label(&self, _kind: &str, state: u32) -> String {
            state.to_string()
        }
    }

    const STEP: u64 = 10_000;

    fn config() -> FlapConfig {
        FlapConfig {
            checks: 7,
            interval: Some(SimDuration(STEP)),
            ..FlapConfig::default()
        }
    }

    /// (time, subject, kind) of the events.
    fn summary(events: &[Event]) -> Vec<(u64, String, String)> {
        events
            .iter()
            .map(|e| (e.t_ms, e.subject.clone(), e.kind.clone()))
            .collect()
    }

    /// Runs the watch as the simulation does: instants at the changes and at its wakeups.
    fn lazy(changes: &[(u64, usize, u32)], end: u64) -> Vec<Event> {
        let mut watch = Watch::new(EngineId::Lhc, &config());
        let mut fake = Fake([0; 3]);
        let mut out = Vec::new();
        let wake_until = |watch: &mut Watch, fake: &Fake, t: u64, out: &mut Vec<Event>| {
            while let Some(w) = watch.next_wakeup().filter(|w| w.as_millis() < t) {
                watch.catch_up(w, fake, out);
            }
            watch.catch_up(SimTime(t), fake, out);
        };
        for &(t, subject, state) in changes {
            wake_until(&mut watch, &fake, t, &mut out);
            fake.0[subject] = state;
            watch.touch(SimTime(t));
        }
        wake_until(&mut watch, &fake, end, &mut out);
        out
    }

    /// Every grid check run one by one, each seeing the state before its instant.
    fn eager(changes: &[(u64, usize, u32)], end: u64) -> Vec<(u64, String, String)> {
        let Some(&(start, _, _)) = changes.first() else {
            return Vec::new();
        };
        let mut detectors: Vec<FlapDetector<u32>> = (0..3)
            .map(|_| FlapDetector::new(config().settings()))
            .collect();
        let mut out = Vec::new();
        let mut g = (start / STEP + 1) * STEP;
        while g <= end {
            let mut states = [0; 3];
            for &(t, subject, state) in changes.iter().take_while(|(t, _, _)| *t < g) {
                let _ = t;
                states[subject] = state;
            }
            for (i, d) in detectors.iter_mut().enumerate() {
                if let Some(change) = d.check(states[i]) {
                    let kind = change.transition.kind().to_owned();
                    out.push((g, NAMES[i].to_owned(), kind));
                }
            }
            g += STEP;
        }
        out
    }

    proptest! {
        #[test]
        fn skipping_checks_changes_no_event(
            steps in prop::collection::vec((0u64..40_000, 0usize..3, 0u32..3), 1..60),
        ) {
            let mut t = 0;
            let changes: Vec<(u64, usize, u32)> = steps
                .into_iter()
                .map(|(dt, s, state)| {
                    t += dt;
                    (t, s, state)
                })
                .collect();
            let end = t + 20 * STEP;
            let got = lazy(&changes, end);
            prop_assert_eq!(summary(&got), eager(&changes, end));
            prop_assert!(got.windows(2).all(|w| w[0].t_ms <= w[1].t_ms));
        }
    }

    #[test]
    fn a_watch_asks_for_one_instant_per_interval_of_activity_and_none_at_rest() {
        let mut watch = Watch::new(EngineId::Lhc, &config());
        let mut fake = Fake([0; 3]);
        let mut out = Vec::new();
        // Events at 3 s and 7 s: one sample, at the next grid instant.
        watch.touch(SimTime(3_000));
        watch.touch(SimTime(7_000));
        assert_eq!(watch.next_wakeup(), Some(SimTime(STEP)));
        watch.catch_up(SimTime(STEP), &fake, &mut out);
        assert_eq!(watch.next_wakeup(), None, "at rest: nothing asked");
        // One change cannot start flapping in a window of 7; back and forth can.
        for (i, state) in [1, 0, 1].into_iter().enumerate() {
            let t = STEP * (2 + i as u64);
            watch.catch_up(SimTime(t + 1), &fake, &mut out);
            fake.0[0] = state;
            watch.touch(SimTime(t + 1));
            assert_eq!(watch.next_wakeup(), Some(SimTime(t + STEP)));
        }
        watch.catch_up(SimTime(STEP * 5), &fake, &mut out);
        assert_eq!(
            summary(&out),
            vec![(STEP * 4, "a".into(), "flapping.started".into())]
        );
        // Left alone, it is woken once more, when it stops.
        let stop = watch.next_wakeup();
        assert!(stop.is_some_and(|t| t > SimTime(STEP * 5)));
        watch.catch_up(stop.unwrap_or(SimTime::ZERO), &fake, &mut out);
        assert_eq!(
            out.last().map(|e| e.kind.as_str()),
            Some("flapping.stopped")
        );
        assert_eq!(watch.next_wakeup(), None);
    }
}
