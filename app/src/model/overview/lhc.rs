//! The resource locations card: locations per HA state, VDAs per broker, the worst few.

use engine::lhc::views::RlView;
use engine::lhc::HaState;
use serde::{Deserialize, Serialize};

use super::{Tile, WORST_SHOWN};

/// One resource location in a line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RlLine {
    /// Id (its page is `/lhc/<id>`).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Aggregated HA state.
    pub ha_state: HaState,
    /// VDAs registered with the cloud broker.
    pub on_cloud: u32,
    /// VDAs registered with a secondary broker.
    pub on_secondary: u32,
    /// VDAs registered nowhere.
    pub unregistered: u32,
    /// Warnings (not ready for an outage).
    pub warnings: u32,
}

impl RlLine {
    fn of(rl: &RlView) -> RlLine {
        RlLine {
            id: rl.id.clone(),
            name: rl.name.clone(),
            ha_state: rl.ha_state,
            on_cloud: rl.on_cloud,
            on_secondary: rl.on_secondary,
            unregistered: rl.unregistered,
            warnings: u32::try_from(rl.warnings.len()).unwrap_or(u32::MAX),
        }
    }

    /// Whether the location needs a look: out of Working Normally, VDAs unregistered, or not
    /// ready for an outage.
    pub fn needs_a_look(&self) -> bool {
        self.ha_state != HaState::WorkingNormally || self.unregistered > 0 || self.warnings > 0
    }
}

/// How bad a state is, worst first: in HA (the longest first), then on the way in or out.
pub fn state_rank(state: HaState) -> u8 {
    match state {
        HaState::ExtendedHa => 0,
        HaState::HaInitial => 1,
        HaState::PendingHa => 2,
        HaState::PendingRecovery => 3,
        HaState::WorkingNormally => 4,
    }
}

/// The resource locations card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LhcSummary {
    /// Resource locations in all.
    pub total: u64,
    /// Locations per HA state, every state in `HaState::ALL` order (zeros included).
    pub by_state: Vec<Tile>,
    /// VDAs registered with the cloud broker, over every location.
    pub on_cloud: u64,
    /// VDAs registered with a secondary broker.
    pub on_secondary: u64,
    /// VDAs registered nowhere.
    pub unregistered: u64,
    /// The locations that need a look, worst first, at most [`WORST_SHOWN`].
    pub worst: Vec<RlLine>,
    /// How many need a look in all.
    pub needing_a_look: u64,
}

impl LhcSummary {
    /// From the engine's view of every resource location.
    pub fn of(rls: &[RlView]) -> LhcSummary {
        let by_state = HaState::ALL
            .into_iter()
            .map(|state| Tile {
                label: state.label().to_owned(),
                count: rls.iter().filter(|rl| rl.ha_state == state).count() as u64,
                href: format!("/lhc?state={}", state.as_str()),
                key: state.as_str().to_owned(),
            })
            .collect();
        let sum = |f: fn(&RlView) -> u32| rls.iter().map(|rl| u64::from(f(rl))).sum::<u64>();
        let mut worst: Vec<RlLine> = rls
            .iter()
            .map(RlLine::of)
            .filter(RlLine::needs_a_look)
            .collect();
        let needing_a_look = worst.len() as u64;
        // Stable: equal locations keep configuration order.
        worst.sort_by_key(|rl| {
            (
                state_rank(rl.ha_state),
                std::cmp::Reverse(rl.unregistered),
                std::cmp::Reverse(rl.warnings),
            )
        });
        worst.truncate(WORST_SHOWN);
        LhcSummary {
            total: rls.len() as u64,
            by_state,
            on_cloud: sum(|rl| rl.on_cloud),
            on_secondary: sum(|rl| rl.on_secondary),
            unregistered: sum(|rl| rl.unregistered),
            worst,
            needing_a_look,
        }
    }

    /// "3 resource locations · 2 Working Normally · 1 Extended HA": the states present.
    pub fn state_counts(&self) -> String {
        let mut parts = vec![format!("{} resource locations", self.total)];
        parts.extend(
            self.by_state
                .iter()
                .filter(|t| t.count > 0)
                .map(|t| format!("{} {}", t.count, t.label)),
        );
        parts.join(" · ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::fixtures::rl;

    fn summary(lines: &[(HaState, u32)]) -> LhcSummary {
        let rls: Vec<RlView> = lines
            .iter()
            .enumerate()
            .map(|(i, (state, unregistered))| {
                let mut rl = rl(&format!("rl-{i:03}"));
                rl.ha_state = *state;
                rl.unregistered = *unregistered;
                rl
            })
            .collect();
        LhcSummary::of(&rls)
    }

    #[test]
    fn state_counts_name_only_the_states_present() {
        use HaState::*;
        let cases: &[(&[(HaState, u32)], &str)] = &[
            (&[], "0 resource locations"),
            (
                &[(WorkingNormally, 0), (WorkingNormally, 0)],
                "2 resource locations · 2 Working Normally",
            ),
            (
                &[(WorkingNormally, 0), (ExtendedHa, 0)],
                "2 resource locations · 1 Working Normally · 1 Extended HA",
            ),
        ];
        for (lines, want) in cases {
            assert_eq!(summary(lines).state_counts(), *want);
        }
    }

    #[test]
    fn every_state_has_a_tile_linking_to_the_list_filtered_to_it() {
        let s = summary(&[(HaState::ExtendedHa, 0), (HaState::ExtendedHa, 0)]);
        assert_eq!(s.by_state.len(), HaState::ALL.len());
        let extended = s
            .by_state
            .iter()
            .find(|t| t.key == "extended_ha")
            .expect("an Extended HA tile");
        assert_eq!(extended.count, 2);
        assert_eq!(extended.href, "/lhc?state=extended_ha");
        assert_eq!(s.by_state.iter().map(|t| t.count).sum::<u64>(), 2);
    }

    #[test]
    fn the_worst_are_in_ha_first_then_by_unregistered_vdas_and_at_most_ten() {
        use HaState::*;
        let mut lines = vec![(WorkingNormally, 0); 80];
        lines[5] = (PendingHa, 0);
        lines[17] = (ExtendedHa, 10);
        lines[42] = (WorkingNormally, 40);
        lines[73] = (ExtendedHa, 900);
        lines.extend(vec![(HaInitial, 1); 12]);
        let s = summary(&lines);
        assert_eq!(s.needing_a_look, 16);
        assert_eq!(s.worst.len(), WORST_SHOWN);
        let ids: Vec<&str> = s.worst.iter().take(3).map(|rl| rl.id.as_str()).collect();
        assert_eq!(ids, ["rl-073", "rl-017", "rl-080"]);
        assert!(s.worst.iter().all(|rl| rl.ha_state != WorkingNormally));
        assert_eq!(s.unregistered, 40 + 10 + 900 + 12);
        let healthy = summary(&[(WorkingNormally, 0); 100]);
        assert!(healthy.worst.is_empty());
        assert_eq!(healthy.needing_a_look, 0);
    }
}
