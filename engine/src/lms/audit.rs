//! The formula audit: every server's load index under the seed formula (`max + 5 % x sum` of
//! the other rule loads) and under the 7.x formula (`max + 5 % x average`), and where the next
//! launches would go under each, on two clones of the engine: the consequence of the farm's
//! formula switch before anyone flips it.

use super::config::LoadFormula;
use super::engine::LmsEngine;
use super::preview::MAX_PREVIEW_LAUNCHES;
use super::views::{AuditPlacement, AuditRow, FormulaAudit, LaunchDifference};
use crate::action::error::ActionError;
use crate::scenario::check::invalid;

/// Most launches whose differing placements an audit lists one by one.
pub const MAX_LISTED_DIFFERENCES: usize = 20;

impl LmsEngine {
    /// One server's load index under each formula now (`host` case-insensitive).
    pub fn formula_indexes(&self, host: &str) -> Option<AuditRow> {
        let s = self
            .servers
            .iter()
            .position(|sv| sv.host.eq_ignore_ascii_case(host))?;
        Some(self.audit_row(s))
    }

    fn audit_row(&self, s: usize) -> AuditRow {
        let sv = &self.servers[s];
        AuditRow {
            host: sv.host.clone(),
            zone: self.zones[sv.zone as usize].id.clone(),
            evaluator: self.evaluators[sv.evaluator as usize].name.clone(),
            sum: self.index_with(s, LoadFormula::Sum, self.now),
            average: self.index_with(s, LoadFormula::Average, self.now),
        }
    }

    /// Audits the two formulas now: a row per server (its index under each, from its own
    /// evaluator at full precision, then rounded), and `launches` (at most 1000) launches of
    /// `app` (default: the first application) placed at the current instant on a clone of the
    /// farm under each formula, every server's load recomputed and pushed to its data
    /// collector first so that both sides start from views of the same age.
    pub fn formula_audit(
        &self,
        app: Option<&str>,
        launches: u32,
    ) -> Result<FormulaAudit, ActionError> {
        if launches > MAX_PREVIEW_LAUNCHES {
            return invalid(
                "launches",
                format!("must be between 0 and {MAX_PREVIEW_LAUNCHES}; got {launches}"),
            );
        }
        let app_idx = match app {
            Some(a) => self
                .cfg
                .app_index(a)
                .ok_or_else(|| self.cfg.unknown_app("app", a))?,
            None if !self.apps.is_empty() => 0,
            None => {
                return invalid("app", "the farm publishes no application".to_owned());
            }
        };
        let rows: Vec<_> = (0..self.servers.len()).map(|s| self.audit_row(s)).collect();
        let sum = self.placed_under(LoadFormula::Sum, app_idx, launches);
        let average = self.placed_under(LoadFormula::Average, app_idx, launches);
        let host = |s: Option<u32>| s.map(|s| self.servers[s as usize].host.clone());
        let differing: Vec<usize> = (0..sum.len()).filter(|&i| sum[i] != average[i]).collect();
        let differences = differing
            .iter()
            .take(MAX_LISTED_DIFFERENCES)
            .map(|&i| LaunchDifference {
                launch: u32::try_from(i + 1).unwrap_or(u32::MAX),
                sum: host(sum[i]),
                average: host(average[i]),
            })
            .collect();
        // Launches per server under each formula, and refusals.
        let mut per_server = vec![(0u32, 0u32); self.servers.len()];
        for (s, a) in sum.iter().zip(&average) {
            if let Some(s) = s {
                per_server[*s as usize].0 += 1;
            }
            if let Some(a) = a {
                per_server[*a as usize].1 += 1;
            }
        }
        let placements = per_server
            .iter()
            .enumerate()
            .filter(|(_, (by_sum, by_average))| *by_sum > 0 || *by_average > 0)
            .map(|(s, (by_sum, by_average))| AuditPlacement {
                host: self.servers[s].host.clone(),
                sum: *by_sum,
                average: *by_average,
            })
            .collect();
        let refused = |seq: &[Option<u32>]| {
            u32::try_from(seq.iter().filter(|p| p.is_none()).count()).unwrap_or(u32::MAX)
        };
        Ok(FormulaAudit {
            in_force: self.cfg.formula,
            app: self.apps[app_idx].name.clone(),
            applications: self.apps.iter().map(|a| a.name.clone()).collect(),
            launches,
            servers_total: u32::try_from(rows.len()).unwrap_or(u32::MAX),
            rows,
            placements,
            rejected_sum: refused(&sum),
            rejected_average: refused(&average),
            differing: u32::try_from(differing.len()).unwrap_or(u32::MAX),
            differences,
        })
    }

    /// Where each of `launches` launches of `app` goes (a server, or none when refused) on a
    /// clone of the farm under `formula`.
    fn placed_under(&self, formula: LoadFormula, app: usize, launches: u32) -> Vec<Option<u32>> {
        let mut farm = self.clone();
        farm.cfg.formula = formula;
        let all: Vec<usize> = (0..farm.servers.len()).collect();
        farm.reevaluate(&all, farm.now);
        farm.place_launches(app, launches)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lms::rules::Counter;
    use crate::{Scenario, Simulation};

    /// Two servers of one zone publishing Word, both with the seed's evaluator: CPU, load
    /// throttling, page swaps and memory, each counter mapped 0..100 to 0..10000 (the seed's
    /// `RuleLoads: 1:3e;d:0;6:6;3:24;`). Counter noise off.
    const FARM: &str = r#"
[scenario]
name = "audit"

[lms.workload.counters]
noise = 0.0

[[lms.zones]]
id = "z1"
name = "Zone one"

[[lms.applications]]
name = "Word"

[[lms.evaluators]]
name = "Seed"

[[lms.evaluators.rules]]
rule = "cpu_utilization"
low = 0
high = 100

[[lms.evaluators.rules]]
rule = "load_throttling"
level = "high"

[[lms.evaluators.rules]]
rule = "page_swaps"
low = 0
high = 100

[[lms.evaluators.rules]]
rule = "memory_usage"
low = 0
high = 100

[[lms.servers]]
host = "a"
zone = "z1"
evaluator = "Seed"
apps = ["Word"]

[[lms.servers]]
host = "b"
zone = "z1"
evaluator = "Seed"
apps = ["Word"]
"#;

    /// The farm five minutes in (servers up, a data collector elected) with each server's
    /// (CPU, page swaps, memory) counters set.
    fn farm(counters: &[(f64, f64, f64)]) -> LmsEngine {
        let scenario = Scenario::from_toml_str(FARM, "audit.toml").expect("scenario");
        let mut sim = Simulation::new(&scenario, 7);
        sim.advance_to(crate::SimTime::from_mins(5));
        let mut lms = sim.lms().clone();
        for (sv, (cpu, swaps, memory)) in lms.servers.iter_mut().zip(counters) {
            sv.counters[Counter::Cpu as usize] = *cpu;
            sv.counters[Counter::PageSwaps as usize] = *swaps;
            sv.counters[Counter::Memory as usize] = *memory;
        }
        lms
    }

    #[test]
    fn the_audit_reproduces_the_seed_and_the_7x_numbers() {
        // (CPU, page swaps, memory) -> (index under sum, under average)
        let cases = [
            // SPEC worked example: 6200 + 5% x (600 + 3600); the average form divides the
            // others (throttling's 0 included) by 3.
            ((62.0, 6.0, 36.0), (6410, 6270)),
            // The loads the seed displays as 3e, 6, 24: the product's 0x192a = 6442.
            ((62.3, 6.4, 36.0), (0x192a, 6301)),
            // One rule only: both formulas agree.
            ((40.0, 0.0, 0.0), (4000, 4000)),
            ((0.0, 0.0, 0.0), (0, 0)),
        ];
        for (counters, (sum, average)) in cases {
            let audit = farm(&[counters, counters])
                .formula_audit(None, 0)
                .expect("audit");
            let row = &audit.rows[0];
            assert_eq!((row.sum, row.average), (sum, average), "{counters:?}");
            assert_eq!((row.host.as_str(), row.evaluator.as_str()), ("a", "Seed"));
        }
    }

    #[test]
    fn the_audit_shows_where_the_formulas_place_differently() {
        // a: two rules at half load: 5000 + 5% x 5000 = 5250 by sum, 5000 + 5% x 5000/3 =
        // 5083 by average. b: one rule at 5200 either way. So sum sends the next launch to b
        // and average to a.
        let lms = farm(&[(50.0, 0.0, 50.0), (52.0, 0.0, 0.0)]);
        let audit = lms.formula_audit(Some("Word"), 10).expect("audit");
        assert_eq!(audit.in_force, LoadFormula::Sum);
        assert_eq!(audit.app, "Word");
        assert_eq!(
            audit
                .rows
                .iter()
                .map(|r| (r.sum, r.average))
                .collect::<Vec<_>>(),
            [(5250, 5083), (5200, 5200)]
        );
        let first = &audit.differences[0];
        assert_eq!(first.launch, 1);
        assert_eq!(first.sum.as_deref(), Some("b"));
        assert_eq!(first.average.as_deref(), Some("a"));
        assert!(audit.differing >= 1);
        assert_eq!(audit.differing as usize, audit.differences.len());
        for (side, rejected) in [(0, audit.rejected_sum), (1, audit.rejected_average)] {
            let placed: u32 = audit
                .placements
                .iter()
                .map(|p| if side == 0 { p.sum } else { p.average })
                .sum();
            assert_eq!(placed + rejected, 10);
        }
        // The audit changes nothing in the farm it reads.
        assert_eq!(lms.formula_audit(Some("Word"), 10).expect("again"), audit);
    }

    #[test]
    fn bad_arguments_name_their_field() {
        let lms = farm(&[]);
        let field = |r: Result<FormulaAudit, ActionError>| match r {
            Err(ActionError::Invalid { field, .. } | ActionError::Unknown { field, .. }) => field,
            other => panic!("{other:?}"),
        };
        assert_eq!(field(lms.formula_audit(Some("Notepad"), 1)), "app");
        assert_eq!(
            field(lms.formula_audit(None, MAX_PREVIEW_LAUNCHES + 1)),
            "launches"
        );
    }
}
