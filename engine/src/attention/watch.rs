//! [`Watch`]: one engine's subjects under flap detection, checked on a grid of the engine's
//! interval.
//!
//! A check at grid instant `g` records each subject's state as it was just before `g`.
//! States change only at the instants the engines process, so the checks are not run one
//! by one: after each instant at which the engine emitted events, the watch samples the
//! subjects' states; at the next instant it records every grid check passed since with
//! that state. A check that finds a quiet subject (not flapping, no change in its window)
//! in the same state changes nothing and is skipped. The watch asks to be woken only for a
//! check that starts or stops flapping if the states stay as sampled: the first one after
//! a state changed, when that change is enough to start, and the one at which a flapping
//! subject that stays put falls below the stop threshold. An estate at rest, or one whose
//! changes are too few to flap, adds no instant to the run.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::config::FlapConfig;
use crate::clock::{SimDuration, SimTime};
use crate::event::{EngineId, Event};
use crate::flap::{FlapDetector, FlapSettings};

/// An engine whose subjects can flap.
pub(crate) trait Watched {
    /// Calls `visit(kind, name, state)` for each subject, in an order that stays the same
    /// while the subjects do. `state` is a code of the subject's state for its kind.
    fn watch(&self, visit: &mut dyn FnMut(&'static str, &str, u32));

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
    wake: Option<SimTime>,
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
            wake: None,
        }
    }

    /// The next check that may start or stop flapping.
    pub(crate) fn next_wakeup(&self) -> Option<SimTime> {
        self.wake
    }

    /// Records the grid checks up to and including `t` with the latest sampled states.
    /// Emits a `flapping.started` / `flapping.stopped` event per subject that starts or
    /// stops, stamped at its check.
    pub(crate) fn catch_up(&mut self, t: SimTime, engine: &dyn Watched, out: &mut Vec<Event>) {
        if !self.enabled || t <= self.checked {
            return;
        }
        let step = self.interval.as_millis().max(1);
        let first = (self.checked.as_millis() / step + 1) * step;
        if first > t.as_millis() {
            return;
        }
        let due = (t.as_millis() - first) / step + 1;
        self.checked = SimTime(first + (due - 1) * step);
        // Past a full window more checks of one state change nothing.
        let rounds = due.min(self.settings.checks as u64 + 1);
        let mut active: Vec<usize> = (0..self.subjects.len())
            .filter(|&i| !self.is_settled(i))
            .collect();
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
        self.plan();
    }

    /// Samples the subjects' states after an instant at `t` at which the engine emitted
    /// events (every grid check up to `t` must already be recorded).
    pub(crate) fn sample(&mut self, engine: &dyn Watched) {
        if !self.enabled {
            return;
        }
        let mut n = 0;
        let mut same_subjects = true;
        let subjects = &mut self.subjects;
        engine.watch(&mut |kind, name, state| {
            match subjects.get_mut(n) {
                Some(s) if same_subjects && s.kind == kind && s.name == name => s.current = state,
                _ => same_subjects = false,
            }
            n += 1;
        });
        if !same_subjects || n != self.subjects.len() {
            self.resubscribe(engine);
        }
        self.plan();
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

    /// The subjects changed (a topology import): keep the detectors of those still there,
    /// in the engine's new order; new ones start with an empty window.
    fn resubscribe(&mut self, engine: &dyn Watched) {
        let mut old: BTreeMap<(String, String), Subject> = self
            .subjects
            .drain(..)
            .map(|s| ((s.kind.clone(), s.name.clone()), s))
            .collect();
        let settings = self.settings;
        let mut fresh = Vec::new();
        engine.watch(&mut |kind, name, state| {
            let mut subject = old
                .remove(&(kind.to_owned(), name.to_owned()))
                .unwrap_or_else(|| Subject {
                    kind: kind.to_owned(),
                    name: name.to_owned(),
                    current: state,
                    detector: FlapDetector::new(settings),
                });
            subject.current = state;
            fresh.push(subject);
        });
        self.subjects = fresh;
    }

    /// Nothing a check of subject `i` in its current state could change.
    fn is_settled(&self, i: usize) -> bool {
        let s = &self.subjects[i];
        s.detector.is_quiet() && s.detector.last() == Some(&s.current)
    }

    /// The next check that can start or stop flapping if the states stay as sampled
    /// (checks before it change nothing that shows, so they are recorded lazily).
    fn plan(&mut self) {
        let step = self.interval.as_millis().max(1);
        self.wake = self
            .subjects
            .iter()
            .filter_map(|s| s.detector.checks_until_transition(&s.current))
            .min()
            .map(|n| SimTime(self.checked.as_millis() + n as u64 * step));
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
        fn watch(&self, visit: &mut dyn FnMut(&'static str, &str, u32)) {
            for (name, state) in NAMES.iter().zip(self.0) {
                visit("thing", name, state);
            }
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
            watch.sample(&fake);
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
    fn a_quiet_watch_asks_for_no_instant() {
        let mut watch = Watch::new(EngineId::Lhc, &config());
        let mut fake = Fake([0; 3]);
        watch.sample(&fake);
        assert_eq!(
            watch.next_wakeup(),
            None,
            "first sample: nothing to compare"
        );
        // One change cannot start flapping in a window of 7: no wakeup either.
        watch.catch_up(SimTime(STEP * 10), &fake, &mut Vec::new());
        fake.0[0] = 1;
        watch.sample(&fake);
        assert_eq!(watch.next_wakeup(), None);
        // Back: the next check would start flapping (two changes, 40 %), so it is asked for.
        let mut out = Vec::new();
        watch.catch_up(SimTime(STEP * 11), &fake, &mut out);
        fake.0[0] = 0;
        watch.sample(&fake);
        assert_eq!(watch.next_wakeup(), Some(SimTime(STEP * 12)));
        watch.catch_up(SimTime(STEP * 12), &fake, &mut out);
        assert_eq!(
            summary(&out),
            vec![(STEP * 12, "a".into(), "flapping.started".into())]
        );
        // Left alone, it is woken once more, when it stops.
        let stop = watch.next_wakeup();
        assert!(stop.is_some_and(|t| t > SimTime(STEP * 14)));
        watch.catch_up(stop.unwrap_or(SimTime::ZERO), &fake, &mut out);
        assert_eq!(
            out.last().map(|e| e.kind.as_str()),
            Some("flapping.stopped")
        );
        assert_eq!(watch.next_wakeup(), None);
    }
}
