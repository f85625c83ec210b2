//! The HA state machine of one connector (SPEC §1), as a pure function of its inputs, and the
//! aggregation of the connectors' states into the state of a resource location.
//!
//! ```text
//! Working Normally --(a check fails)--------------------------------> Pending HA
//! Pending HA --(full check passes)-----------------------------------> Working Normally
//! Pending HA --(pending_ha elapsed, no connector of the RL reaches
//!               the cloud broker, or outage forced)------------------> HA Initial
//! HA Initial --(ha_initial elapsed, all checks pass)-----------------> Pending Recovery
//! HA Initial --(ha_initial elapsed, some check fails)----------------> Extended HA
//! Extended HA --(all checks pass; no maximum time)-------------------> Pending Recovery
//! Pending Recovery --(any check fails)-------------------------------> Extended HA
//! Pending Recovery --(checks pass for pending_recovery)--------------> Working Normally
//! ```

use core::fmt;

use serde::{Deserialize, Serialize};

use crate::clock::SimDuration;

/// The HA state of a connector (and, aggregated, of a resource location).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HaState {
    /// Every component healthy; the cloud broker brokers.
    WorkingNormally,
    /// A check failed; a full health check runs with the other connectors of the RL.
    PendingHa,
    /// Outage confirmed: the elected secondary broker brokers; VDAs re-register with it.
    HaInitial,
    /// Still in outage after HA Initial (no maximum time).
    ExtendedHa,
    /// Checks pass; waiting before handing brokering back to the cloud broker.
    PendingRecovery,
}

impl HaState {
    /// Every state, in lifecycle order.
    pub const ALL: [HaState; 5] = [
        HaState::WorkingNormally,
        HaState::PendingHa,
        HaState::HaInitial,
        HaState::ExtendedHa,
        HaState::PendingRecovery,
    ];

    /// The serialized name (`"working_normally"`, ...).
    pub const fn as_str(self) -> &'static str {
        match self {
            HaState::WorkingNormally => "working_normally",
            HaState::PendingHa => "pending_ha",
            HaState::HaInitial => "ha_initial",
            HaState::ExtendedHa => "extended_ha",
            HaState::PendingRecovery => "pending_recovery",
        }
    }

    /// The product's name of the state.
    pub const fn label(self) -> &'static str {
        match self {
            HaState::WorkingNormally => "Working Normally",
            HaState::PendingHa => "Pending HA",
            HaState::HaInitial => "HA Initial",
            HaState::ExtendedHa => "Extended HA",
            HaState::PendingRecovery => "Pending Recovery",
        }
    }

    /// Whether the secondary broker brokers in this state (HA Initial, Extended HA, Pending
    /// Recovery).
    pub const fn is_ha_mode(self) -> bool {
        matches!(
            self,
            HaState::HaInitial | HaState::ExtendedHa | HaState::PendingRecovery
        )
    }

    /// How far into an outage the state is, for aggregation: the RL is in the *least* severe
    /// state of its connectors (all must agree to enter HA; one connector back on the cloud
    /// is enough to leave it).
    const fn severity(self) -> u8 {
        match self {
            HaState::WorkingNormally => 0,
            HaState::PendingHa => 1,
            HaState::PendingRecovery => 2,
            HaState::ExtendedHa => 3,
            HaState::HaInitial => 4,
        }
    }
}

impl fmt::Display for HaState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// The configured durations of the timed states.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HaDurations {
    /// Failing checks in Pending HA before HA Initial.
    pub pending_ha: SimDuration,
    /// Length of HA Initial.
    pub ha_initial: SimDuration,
    /// Passing checks in Pending Recovery before Working Normally.
    pub pending_recovery: SimDuration,
}

/// What one health check of a connector sees.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct HealthInputs {
    /// Every check of this connector passes: components healthy, cloud reachable, outage not
    /// forced.
    pub checks_pass: bool,
    /// `OutageModeForced = 1` on this connector: it enters HA whatever its peers say.
    pub forced: bool,
    /// Some connector of the resource location (this one included) still relays to the cloud
    /// broker (the health exchanged between the connectors in Pending HA).
    pub rl_cloud_ok: bool,
    /// Time spent in the current state.
    pub in_state: SimDuration,
}

/// Why a transition happened (the `reason` of its event).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// Working Normally -> Pending HA.
    CheckFailed,
    /// Pending HA -> Working Normally.
    FullCheckPassed,
    /// Pending HA -> HA Initial: no connector of the RL reaches the cloud broker.
    OutageConfirmed,
    /// Pending HA -> HA Initial: outage forced on this connector.
    OutageForced,
    /// HA Initial -> Pending Recovery.
    HaInitialEndedHealthy,
    /// HA Initial -> Extended HA.
    HaInitialEndedFailing,
    /// Extended HA -> Pending Recovery.
    ChecksPassed,
    /// Pending Recovery -> Extended HA.
    CheckFailedInRecovery,
    /// Pending Recovery -> Working Normally.
    RecoveryComplete,
}

impl Why {
    /// The reason, as written in events.
    pub const fn text(self) -> &'static str {
        match self {
            Why::CheckFailed => "a component failed to report healthy",
            Why::FullCheckPassed => "full health check passed",
            Why::OutageConfirmed => {
                "health checks kept failing for pending_ha and no connector of the resource location reaches the cloud broker"
            }
            Why::OutageForced => "outage forced (OutageModeForced = 1) and pending_ha elapsed",
            Why::HaInitialEndedHealthy => "end of HA Initial: all checks pass",
            Why::HaInitialEndedFailing => "end of HA Initial: some check fails",
            Why::ChecksPassed => "all checks pass",
            Why::CheckFailedInRecovery => "a check failed during Pending Recovery",
            Why::RecoveryComplete => "all checks passed for the whole pending_recovery period",
        }
    }
}

/// The next state of a connector after a health check, or `None` if it stays.
pub fn next_state(
    state: HaState,
    inputs: &HealthInputs,
    d: &HaDurations,
) -> Option<(HaState, Why)> {
    let pass = inputs.checks_pass;
    match state {
        HaState::WorkingNormally if !pass => Some((HaState::PendingHa, Why::CheckFailed)),
        HaState::WorkingNormally => None,
        HaState::PendingHa if pass => Some((HaState::WorkingNormally, Why::FullCheckPassed)),
        HaState::PendingHa if inputs.in_state < d.pending_ha => None,
        HaState::PendingHa if inputs.forced => Some((HaState::HaInitial, Why::OutageForced)),
        HaState::PendingHa if !inputs.rl_cloud_ok => {
            Some((HaState::HaInitial, Why::OutageConfirmed))
        }
        HaState::PendingHa => None,
        HaState::HaInitial if inputs.in_state < d.ha_initial => None,
        HaState::HaInitial if pass => Some((HaState::PendingRecovery, Why::HaInitialEndedHealthy)),
        HaState::HaInitial => Some((HaState::ExtendedHa, Why::HaInitialEndedFailing)),
        HaState::ExtendedHa if pass => Some((HaState::PendingRecovery, Why::ChecksPassed)),
        HaState::ExtendedHa => None,
        HaState::PendingRecovery if !pass => {
            Some((HaState::ExtendedHa, Why::CheckFailedInRecovery))
        }
        HaState::PendingRecovery if inputs.in_state >= d.pending_recovery => {
            Some((HaState::WorkingNormally, Why::RecoveryComplete))
        }
        HaState::PendingRecovery => None,
    }
}

/// With unchanged inputs, the time in `state` at which [`next_state`] may give another
/// answer (a timer), if any.
pub fn timer(state: HaState, inputs: &HealthInputs, d: &HaDurations) -> Option<SimDuration> {
    match state {
        HaState::PendingHa if !inputs.checks_pass && (inputs.forced || !inputs.rl_cloud_ok) => {
            Some(d.pending_ha)
        }
        HaState::HaInitial => Some(d.ha_initial),
        HaState::PendingRecovery if inputs.checks_pass => Some(d.pending_recovery),
        _ => None,
    }
}

/// The state of a resource location from the states of its HA-detecting connectors that are
/// running: the least severe one (`None` when there is none).
pub fn aggregate(states: impl IntoIterator<Item = HaState>) -> Option<HaState> {
    states.into_iter().min_by_key(|s| s.severity())
}

#[cfg(test)]
mod tests {
    use super::*;
    use HaState::*;

    const D: HaDurations = HaDurations {
        pending_ha: SimDuration::from_secs(60),
        ha_initial: SimDuration::from_secs(300),
        pending_recovery: SimDuration::from_secs(180),
    };

    /// (state, checks_pass, forced, rl_cloud_ok, seconds in state) => expected.
    type Row = (HaState, bool, bool, bool, u64, Option<(HaState, Why)>);

    #[test]
    fn every_transition() {
        let table: &[Row] = &[
            (WorkingNormally, true, false, true, 0, None),
            (WorkingNormally, true, false, true, 9999, None),
            (
                WorkingNormally,
                false,
                false,
                true,
                0,
                Some((PendingHa, Why::CheckFailed)),
            ),
            (
                WorkingNormally,
                false,
                true,
                false,
                0,
                Some((PendingHa, Why::CheckFailed)),
            ),
            (
                PendingHa,
                true,
                false,
                true,
                10,
                Some((WorkingNormally, Why::FullCheckPassed)),
            ),
            (PendingHa, false, false, false, 59, None),
            (
                PendingHa,
                false,
                false,
                false,
                60,
                Some((HaInitial, Why::OutageConfirmed)),
            ),
            // A peer still reaches the cloud: no outage, the connector waits.
            (PendingHa, false, false, true, 600, None),
            // Forced: whatever the peers say.
            (
                PendingHa,
                false,
                true,
                true,
                60,
                Some((HaInitial, Why::OutageForced)),
            ),
            (PendingHa, false, true, true, 30, None),
            (HaInitial, true, false, true, 299, None),
            (HaInitial, false, true, false, 100, None),
            (
                HaInitial,
                true,
                false,
                true,
                300,
                Some((PendingRecovery, Why::HaInitialEndedHealthy)),
            ),
            (
                HaInitial,
                false,
                true,
                false,
                300,
                Some((ExtendedHa, Why::HaInitialEndedFailing)),
            ),
            (ExtendedHa, false, true, false, 86_400, None),
            (
                ExtendedHa,
                true,
                false,
                true,
                1,
                Some((PendingRecovery, Why::ChecksPassed)),
            ),
            (
                PendingRecovery,
                false,
                false,
                true,
                10,
                Some((ExtendedHa, Why::CheckFailedInRecovery)),
            ),
            (PendingRecovery, true, false, true, 179, None),
            (
                PendingRecovery,
                true,
                false,
                true,
                180,
                Some((WorkingNormally, Why::RecoveryComplete)),
            ),
        ];
        for (i, (state, pass, forced, rl_ok, secs, want)) in table.iter().enumerate() {
            let inputs = HealthInputs {
                checks_pass: *pass,
                forced: *forced,
                rl_cloud_ok: *rl_ok,
                in_state: SimDuration::from_secs(*secs),
            };
            assert_eq!(next_state(*state, &inputs, &D), *want, "row {i}: {state:?}");
        }
    }

    #[test]
    fn timers_match_the_transitions() {
        let inputs = |pass, forced, rl_ok| HealthInputs {
            checks_pass: pass,
            forced,
            rl_cloud_ok: rl_ok,
            in_state: SimDuration::ZERO,
        };
        assert_eq!(
            timer(PendingHa, &inputs(false, false, false), &D),
            Some(D.pending_ha)
        );
        assert_eq!(timer(PendingHa, &inputs(false, false, true), &D), None);
        assert_eq!(
            timer(PendingHa, &inputs(false, true, true), &D),
            Some(D.pending_ha)
        );
        assert_eq!(
            timer(HaInitial, &inputs(false, true, false), &D),
            Some(D.ha_initial)
        );
        assert_eq!(timer(ExtendedHa, &inputs(true, false, true), &D), None);
        assert_eq!(
            timer(PendingRecovery, &inputs(true, false, true), &D),
            Some(D.pending_recovery)
        );
        assert_eq!(
            timer(WorkingNormally, &inputs(false, false, false), &D),
            None
        );
    }

    /// A timer is exactly when the answer of `next_state` changes with time alone: for every
    /// state and every combination of inputs, `timer` gives `Some(d)` iff the answer just
    /// before `d` differs from the answer at `d`, and the answer never changes otherwise.
    #[test]
    fn timers_are_exactly_the_instants_where_time_alone_changes_the_answer() {
        let ms = SimDuration::from_millis;
        let probes = [
            SimDuration::ZERO,
            ms(D.pending_ha.as_millis() - 1),
            D.pending_ha,
            ms(D.pending_recovery.as_millis() - 1),
            D.pending_recovery,
            ms(D.ha_initial.as_millis() - 1),
            D.ha_initial,
            SimDuration::from_secs(86_400),
        ];
        for state in HaState::ALL {
            for bits in 0..8u8 {
                let at = |in_state| HealthInputs {
                    checks_pass: bits & 1 != 0,
                    forced: bits & 2 != 0,
                    rl_cloud_ok: bits & 4 != 0,
                    in_state,
                };
                let answer = |t| next_state(state, &at(t), &D);
                let case = format!("{state:?} {:?}", at(SimDuration::ZERO));
                match timer(state, &at(SimDuration::ZERO), &D) {
                    Some(d) => {
                        assert_ne!(answer(ms(d.as_millis() - 1)), answer(d), "{case}");
                        assert_eq!(answer(d), answer(SimDuration::from_secs(86_400)), "{case}");
                    }
                    None => {
                        for t in probes {
                            assert_eq!(answer(t), answer(SimDuration::ZERO), "{case} at {t}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn states_have_their_product_names() {
        let names: Vec<(&str, String)> = HaState::ALL
            .iter()
            .map(|s| (s.as_str(), s.to_string()))
            .collect();
        assert_eq!(
            names,
            [
                ("working_normally", "Working Normally".to_owned()),
                ("pending_ha", "Pending HA".to_owned()),
                ("ha_initial", "HA Initial".to_owned()),
                ("extended_ha", "Extended HA".to_owned()),
                ("pending_recovery", "Pending Recovery".to_owned()),
            ]
        );
        let modes: Vec<bool> = HaState::ALL.iter().map(|s| s.is_ha_mode()).collect();
        assert_eq!(modes, [false, false, true, true, true]);
    }

    #[test]
    fn aggregation_takes_the_least_severe_state() {
        assert_eq!(aggregate([]), None);
        assert_eq!(aggregate([HaInitial, HaInitial]), Some(HaInitial));
        assert_eq!(
            aggregate([HaInitial, WorkingNormally]),
            Some(WorkingNormally)
        );
        assert_eq!(
            aggregate([ExtendedHa, PendingRecovery]),
            Some(PendingRecovery)
        );
        assert_eq!(aggregate([HaInitial, ExtendedHa]), Some(ExtendedHa));
        assert_eq!(aggregate([PendingHa, HaInitial]), Some(PendingHa));
        assert!(HaState::ALL.iter().filter(|s| s.is_ha_mode()).count() == 3);
        assert_eq!(PendingRecovery.to_string(), "Pending Recovery");
    }
}
