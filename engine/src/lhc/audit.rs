//! Self-check of the LHC engine: recounts the registrations from the per-VDA state and
//! checks the invariants of SPEC §1 (used by the property tests, useful for diagnostics).

use super::engine::LhcEngine;
use super::vdas::{code_connector, CLOUD, STALE, UNREGISTERED};

impl LhcEngine {
    /// Recounts every registration from the per-VDA state and checks the invariants: counts
    /// match, at most one elected broker per resource location, and in HA mode no VDA is
    /// registered with a secondary broker that is not the elected one. For tests and
    /// diagnostics; `Err` describes the first violation.
    pub fn consistency_check(&self) -> Result<(), String> {
        for rl in &self.rls {
            let mut cloud = 0u32;
            let mut unregistered = 0u32;
            let mut held = vec![0u32; rl.connectors.len()];
            for v in rl.vda_start..rl.vda_start + rl.vda_count {
                let code = self.vdas.broker[v as usize];
                if code & STALE != 0 || code == UNREGISTERED {
                    unregistered += 1;
                } else if code == CLOUD {
                    cloud += 1;
                } else if let Some(k) = code_connector(code).filter(|k| *k < held.len()) {
                    held[k] += 1;
                } else {
                    return Err(format!(
                        "{}: VDA {} has a bad broker code {code}",
                        rl.id,
                        self.vdas.name(v)
                    ));
                }
            }
            if cloud != rl.cloud || unregistered != rl.unregistered {
                return Err(format!(
                    "{}: counts cloud {}/{cloud}, unregistered {}/{unregistered} (kept/recounted)",
                    rl.id, rl.cloud, rl.unregistered
                ));
            }
            for (k, n) in held.iter().enumerate() {
                let cc = &self.connectors[rl.connectors[k]];
                if cc.held != *n {
                    return Err(format!(
                        "{}: {} holds {} but {n} VDAs point to it",
                        rl.id, cc.fqdn, cc.held
                    ));
                }
                if *n > 0 && !cc.secondary_alive() {
                    return Err(format!(
                        "{}: {} holds {n} registrations but its secondary broker is not running",
                        rl.id, cc.fqdn
                    ));
                }
                if rl.ha.is_ha_mode() && *n > 0 && rl.election.elected() != Some(k) {
                    return Err(format!(
                        "{}: in HA mode {} holds {n} registrations but is not elected",
                        rl.id, cc.fqdn
                    ));
                }
            }
            if let Some(e) = rl.election.elected() {
                if self.connectors[rl.connectors[e]].exclusion().is_some() {
                    return Err(format!(
                        "{}: the elected connector is not a candidate",
                        rl.id
                    ));
                }
            }
        }
        Ok(())
    }
}
