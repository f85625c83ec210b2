//! Flap detection, one detector for every engine: a subject whose state changes back and
//! forth too often is *flapping*.
//!
//! The method is the one Nagios and Icinga use for hosts and services. Each check records the
//! subject's state in a window of the last [`FlapSettings::checks`] states. A state change
//! between two neighbouring checks counts with a weight from 0.75 (the oldest pair) to 1.25
//! (the newest), so recent changes count more. The weighted changes over the possible ones
//! give a percentage. A subject starts flapping when the percentage rises above
//! [`FlapSettings::high_pct`], and stops when it falls below [`FlapSettings::low_pct`]: the
//! gap between the two thresholds (hysteresis) keeps a subject near one threshold from
//! starting and stopping at every check.
//!
//! Defaults (all assumed, none is documented for the products simulated): a window of 21
//! checks as in Nagios, and Icinga 2's thresholds of 30 % to start and 25 % to stop. With
//! them one outage and its recovery (two changes) never flaps; three in a window do.
//!
//! The detector is pure data (serializable with the engine's snapshot) and deterministic.

use std::collections::{BTreeMap, VecDeque};

use serde::{Deserialize, Serialize};

/// Weight of a change between the two oldest checks of a full window.
const OLDEST_WEIGHT: f64 = 0.75;
/// Weight of a change between the two newest checks.
const NEWEST_WEIGHT: f64 = 1.25;

/// Fewest checks in a window (two changes at least).
pub const MIN_CHECKS: usize = 3;
/// Most checks in a window.
pub const MAX_CHECKS: usize = 100;

/// The detector's settings (an engine's `[attention]` flapping settings).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlapSettings {
    /// Checks in the window.
    pub checks: usize,
    /// Percentage under which a flapping subject stops flapping.
    pub low_pct: f64,
    /// Percentage over which a subject starts flapping.
    pub high_pct: f64,
}

impl Default for FlapSettings {
    fn default() -> Self {
        FlapSettings {
            checks: 21,
            low_pct: 25.0,
            high_pct: 30.0,
        }
    }
}

impl FlapSettings {
    /// Checks the settings: the name of the wrong field and what it may be.
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        if !(MIN_CHECKS..=MAX_CHECKS).contains(&self.checks) {
            return Err((
                "checks",
                format!("must be {MIN_CHECKS} to {MAX_CHECKS}, not {}", self.checks),
            ));
        }
        let pct = |v: f64| v.is_finite() && (0.0..=100.0).contains(&v);
        if !pct(self.low_pct) {
            return Err((
                "low_pct",
                format!("must be 0 to 100 %, not {}", self.low_pct),
            ));
        }
        if !pct(self.high_pct) || self.high_pct <= self.low_pct {
            return Err((
                "high_pct",
                format!(
                    "must be above low_pct ({} %) and at most 100 %, not {}",
                    self.low_pct, self.high_pct
                ),
            ));
        }
        Ok(())
    }
}

/// Whether a subject started or stopped flapping.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlapTransition {
    /// The percentage rose above the high threshold.
    Started,
    /// The percentage fell below the low threshold.
    Stopped,
}

impl FlapTransition {
    /// The event kind: `flapping.started` or `flapping.stopped`.
    pub const fn kind(self) -> &'static str {
        match self {
            FlapTransition::Started => "flapping.started",
            FlapTransition::Stopped => "flapping.stopped",
        }
    }
}

/// A start or stop of flapping with its "why": what was counted and against what.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlapChange {
    /// Started or stopped.
    pub transition: FlapTransition,
    /// State changes in the window (unweighted).
    pub changes: u32,
    /// Checks in the window.
    pub checks: usize,
    /// The weighted percentage of changes.
    pub percent: f64,
    /// The settings it was compared with.
    pub settings: FlapSettings,
}

impl FlapChange {
    /// The event's details: the counts, the thresholds and a sentence saying why.
    pub fn details(&self) -> serde_json::Value {
        let s = &self.settings;
        let reason = match self.transition {
            FlapTransition::Started => format!(
                "{} state changes in the last {} checks: {:.1} % weighted, above the {} % start threshold",
                self.changes, self.checks, self.percent, s.high_pct
            ),
            FlapTransition::Stopped => format!(
                "{} state changes in the last {} checks: {:.1} % weighted, below the {} % stop threshold",
                self.changes, self.checks, self.percent, s.low_pct
            ),
        };
        serde_json::json!({
            "changes": self.changes,
            "checks": self.checks,
            "percent": (self.percent * 10.0).round() / 10.0,
            "high_pct": s.high_pct,
            "low_pct": s.low_pct,
            "reason": reason,
        })
    }
}

/// One subject's window of states and whether it is flapping.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlapDetector<S> {
    settings: FlapSettings,
    window: VecDeque<S>,
    /// State changes between neighbours of the window, kept as checks come and go.
    changes: u32,
    flapping: bool,
}

impl<S: PartialEq> FlapDetector<S> {
    /// A detector with an empty window.
    pub fn new(settings: FlapSettings) -> Self {
        FlapDetector {
            settings,
            window: VecDeque::with_capacity(settings.checks),
            changes: 0,
            flapping: false,
        }
    }

    /// The latest state checked.
    pub fn last(&self) -> Option<&S> {
        self.window.back()
    }

    /// Not flapping and no change in the window: more checks of the same state change
    /// nothing, so they may be skipped.
    pub fn is_quiet(&self) -> bool {
        self.changes == 0 && !self.flapping
    }

    /// Whether the subject is flapping now.
    pub fn is_flapping(&self) -> bool {
        self.flapping
    }

    /// State changes in the window, unweighted.
    pub fn changes(&self) -> u32 {
        self.changes
    }

    /// The weighted percentage of state changes in the window (0 to 100). Each change
    /// weighs by its position in a full window, oldest 0.75 to newest 1.25, and the sum is
    /// taken over the changes a full window can hold: a window still filling counts its
    /// changes as the newest of a full one.
    pub fn percent(&self) -> f64 {
        let slots = self.settings.checks.saturating_sub(1);
        if slots == 0 {
            return 0.0;
        }
        // The pair ending at check i (1-based in the window) sits at the same distance from
        // the newest pair as in a full window.
        let offset = slots - self.window.len().saturating_sub(1);
        let step = if slots > 1 {
            (NEWEST_WEIGHT - OLDEST_WEIGHT) / (slots - 1) as f64
        } else {
            0.0
        };
        let weighted: f64 = self
            .window
            .iter()
            .zip(self.window.iter().skip(1))
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .map(|(i, _)| OLDEST_WEIGHT + step * (offset + i) as f64)
            .sum();
        (weighted * 100.0 / slots as f64).min(100.0)
    }

    /// Records one check of the subject's state; says when it starts or stops flapping.
    pub fn check(&mut self, state: S) -> Option<FlapChange> {
        if self.window.len() == self.settings.checks {
            if let (Some(old), Some(next)) = (self.window.pop_front(), self.window.front()) {
                if old != *next {
                    self.changes -= 1;
                }
            }
        }
        if self.window.back().is_some_and(|last| *last != state) {
            self.changes += 1;
        }
        self.window.push_back(state);
        if self.changes == 0 && !self.flapping {
            return None;
        }
        let percent = self.percent();
        let transition = if !self.flapping && percent > self.settings.high_pct {
            FlapTransition::Started
        } else if self.flapping && percent < self.settings.low_pct {
            FlapTransition::Stopped
        } else {
            return None;
        };
        self.flapping = transition == FlapTransition::Started;
        Some(FlapChange {
            transition,
            changes: self.changes(),
            checks: self.window.len(),
            percent,
            settings: self.settings,
        })
    }
}

impl<S: PartialEq + Clone> FlapDetector<S> {
    /// After how many more checks finding `state` the subject starts or stops flapping;
    /// `None` if it never would. Only the first of those checks can start flapping (later
    /// ones only age the window's changes), and a flapping subject stops within a window.
    pub fn checks_until_transition(&self, state: &S) -> Option<usize> {
        if self.is_quiet() && self.last() == Some(state) {
            return None;
        }
        let mut probe = self.clone();
        for n in 1..=self.settings.checks + 1 {
            if probe.check(state.clone()).is_some() {
                return Some(n);
            }
            if !probe.flapping {
                return None;
            }
        }
        None
    }
}

/// Detectors of many subjects of one kind, keyed by subject (in order, so that a pass over
/// them is deterministic).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlapTracker<S> {
    settings: FlapSettings,
    subjects: BTreeMap<String, FlapDetector<S>>,
}

impl<S: PartialEq> FlapTracker<S> {
    /// No subject yet.
    pub fn new(settings: FlapSettings) -> Self {
        FlapTracker {
            settings,
            subjects: BTreeMap::new(),
        }
    }

    /// Records a check of `subject`'s state ([`FlapDetector::check`]).
    pub fn check(&mut self, subject: &str, state: S) -> Option<FlapChange> {
        if let Some(detector) = self.subjects.get_mut(subject) {
            return detector.check(state);
        }
        let mut detector = FlapDetector::new(self.settings);
        let change = detector.check(state);
        self.subjects.insert(subject.to_owned(), detector);
        change
    }

    /// The subjects flapping now, in order.
    pub fn flapping(&self) -> impl Iterator<Item = &str> {
        self.subjects
            .iter()
            .filter(|(_, d)| d.is_flapping())
            .map(|(s, _)| s.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The detector after checking `states` (`U`p / `D`own), with what each check said.
    fn run(
        settings: FlapSettings,
        states: &str,
    ) -> (FlapDetector<char>, Vec<Option<FlapTransition>>) {
        let mut d = FlapDetector::new(settings);
        let said = states
            .chars()
            .map(|s| d.check(s).map(|c| c.transition))
            .collect();
        (d, said)
    }

    #[test]
    fn the_percentage_weighs_recent_changes_more() {
        let s = FlapSettings::default();
        // (states over a full window of 21, weighted percentage)
        let cases = [
            ("UUUUUUUUUUUUUUUUUUUUU", 0.0),
            // One change between the two newest checks: 1.25 / 20.
            ("UUUUUUUUUUUUUUUUUUUUD", 6.25),
            // One change between the two oldest: 0.75 / 20.
            ("UDDDDDDDDDDDDDDDDDDDD", 3.75),
            // Every pair a change: (0.75 + … + 1.25) / 20 = 100 %.
            ("UDUDUDUDUDUDUDUDUDUDU", 100.0),
        ];
        for (states, want) in cases {
            let (d, _) = run(s, states);
            assert!(
                (d.percent() - want).abs() < 1e-9,
                "{states}: {} not {want}",
                d.percent()
            );
        }
    }

    #[test]
    fn flapping_starts_above_high_and_stops_below_low_only() {
        let s = FlapSettings::default();
        // (checks, whether flapping at the end, the transitions said in order)
        let cases: [(&str, bool, &[FlapTransition]); 6] = [
            // A steady subject.
            ("UUUUUUUUUUUUUUUUUUUUUUUUUUUUUU", false, &[]),
            // One outage and its recovery: 2 changes, about 10 %.
            ("UUUUUUUUUUDDDDDUUUUUU", false, &[]),
            // Three outages: 6 recent changes, above 30 %.
            ("UUUUUUUUUUUUUUUDUDUDU", true, &[FlapTransition::Started]),
            // Then steady: the changes age out of the window and it stops, once.
            (
                "UUUUUUUUUUUUUUUDUDUDUUUUUUUUUUUUUUUUUUUUUU",
                false,
                &[FlapTransition::Started, FlapTransition::Stopped],
            ),
            // Back and forth from the first check: a window still filling counts its changes
            // as the newest of a full one, so it takes six.
            ("UDUD", false, &[]),
            ("UDUDUDUD", true, &[FlapTransition::Started]),
        ];
        for (states, flapping, want) in cases {
            let (d, said) = run(s, states);
            let said: Vec<FlapTransition> = said.into_iter().flatten().collect();
            assert_eq!(d.is_flapping(), flapping, "{states}");
            assert_eq!(said, want, "{states}");
        }
    }

    #[test]
    fn hysteresis_holds_between_the_thresholds() {
        // Between low and high, the detector keeps what it was.
        let s = FlapSettings {
            checks: 11,
            low_pct: 20.0,
            high_pct: 40.0,
        };
        let mut d = FlapDetector::new(s);
        for state in "UDUDUDUUUUUUU".chars() {
            d.check(state);
        }
        let pct = d.percent();
        assert!(pct > s.low_pct && pct < s.high_pct, "{pct}");
        assert!(
            d.is_flapping(),
            "it started earlier and has not fallen below low"
        );

        let mut fresh = FlapDetector::new(s);
        for state in "UUUUUUUUDUD".chars() {
            fresh.check(state);
        }
        let pct = fresh.percent();
        assert!(pct > s.low_pct && pct < s.high_pct, "{pct}");
        assert!(!fresh.is_flapping(), "never above high");
    }

    #[test]
    fn a_change_says_why() {
        let (mut d, _) = run(FlapSettings::default(), "UUUUUUUUUUUUUUUDUDUD");
        let change = d.check('U').expect("it starts flapping");
        assert_eq!(change.transition.kind(), "flapping.started");
        assert_eq!(change.changes, 6);
        assert_eq!(change.checks, 21);
        let details = change.details();
        assert_eq!(details["high_pct"], 30.0);
        assert_eq!(details["changes"], 6);
        let reason = details["reason"].as_str().expect("reason");
        assert!(
            reason.starts_with("6 state changes in the last 21 checks: "),
            "{reason}"
        );
        assert!(
            reason.ends_with("above the 30 % start threshold"),
            "{reason}"
        );
    }

    #[test]
    fn settings_are_checked_field_by_field() {
        let ok = FlapSettings::default();
        assert_eq!(ok.validate(), Ok(()));
        let cases = [
            (FlapSettings { checks: 2, ..ok }, "checks"),
            (FlapSettings { checks: 101, ..ok }, "checks"),
            (
                FlapSettings {
                    low_pct: -1.0,
                    ..ok
                },
                "low_pct",
            ),
            (
                FlapSettings {
                    low_pct: f64::NAN,
                    ..ok
                },
                "low_pct",
            ),
            (
                FlapSettings {
                    high_pct: 25.0,
                    ..ok
                },
                "high_pct",
            ),
            (
                FlapSettings {
                    high_pct: 100.5,
                    ..ok
                },
                "high_pct",
            ),
        ];
        for (settings, field) in cases {
            assert_eq!(
                settings.validate().map_err(|(f, _)| f),
                Err(field),
                "{settings:?}"
            );
        }
    }

    #[test]
    fn a_tracker_keeps_subjects_apart() {
        let mut t = FlapTracker::new(FlapSettings::default());
        for state in "UDUDUDUDUD".chars() {
            t.check("rl-paris", state);
            t.check("rl-tokyo", 'U');
        }
        assert_eq!(t.flapping().collect::<Vec<_>>(), ["rl-paris"]);
    }

    proptest! {
        #[test]
        fn the_kept_change_count_and_the_predicted_transition_are_right(
            states in proptest::collection::vec(0u8..3, 0..120),
            next in 0u8..3,
        ) {
            let mut d = FlapDetector::new(FlapSettings { checks: 9, ..FlapSettings::default() });
            for state in states {
                d.check(state);
                let recount = d.window.iter().zip(d.window.iter().skip(1)).filter(|(a, b)| a != b).count();
                prop_assert_eq!(d.changes() as usize, recount);
            }
            // Checking `next` again and again transitions exactly when predicted.
            let predicted = d.checks_until_transition(&next);
            let actual = (1..=20).find(|_| d.check(next).is_some());
            prop_assert_eq!(predicted, actual);
        }

        #[test]
        fn a_steady_subject_never_flaps(n in 1usize..200, checks in MIN_CHECKS..=MAX_CHECKS) {
            let s = FlapSettings { checks, ..FlapSettings::default() };
            let mut d = FlapDetector::new(s);
            for _ in 0..n {
                prop_assert!(d.check(7u8).is_none());
            }
            prop_assert_eq!(d.percent(), 0.0);
        }

        #[test]
        fn transitions_alternate_and_match_the_thresholds(
            states in proptest::collection::vec(0u8..3, 0..300),
        ) {
            let s = FlapSettings::default();
            let mut d = FlapDetector::new(s);
            let mut flapping = false;
            for state in states {
                let change = d.check(state);
                let pct = d.percent();
                prop_assert!((0.0..=100.0).contains(&pct));
                match change.map(|c| c.transition) {
                    Some(FlapTransition::Started) => {
                        prop_assert!(!flapping && pct > s.high_pct);
                        flapping = true;
                    }
                    Some(FlapTransition::Stopped) => {
                        prop_assert!(flapping && pct < s.low_pct);
                        flapping = false;
                    }
                    None => prop_assert!(
                        (flapping && pct >= s.low_pct) || (!flapping && pct <= s.high_pct)
                    ),
                }
                prop_assert_eq!(d.is_flapping(), flapping);
            }
        }
    }
}
