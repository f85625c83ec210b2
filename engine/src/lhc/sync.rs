//! Config Synchronizer Service and LocalDB: every `css_poll` each connector asks the cloud
//! broker for configuration changes; on a change it imports the configuration into a new
//! LocalDB instance, which replaces the previous one only when the import completes. A failed
//! import keeps the previous generation.
//!
//! Only polls that find a change are scheduled (a poll that finds nothing changes nothing).

use serde_json::json;

use super::connector::Import;
use super::engine::{ev, LhcEngine};
use super::model::grid_after;
use crate::clock::SimTime;
use crate::event::Event;

impl LhcEngine {
    /// Schedules the next useful CSS poll of connector `c` (a change is waiting and the cloud
    /// is reachable), or cancels it.
    pub(crate) fn css_refresh(&mut self, c: usize, now: SimTime) {
        let behind = self.connectors[c].generation < self.cloud_generation;
        let cc = &mut self.connectors[c];
        if cc.import.is_some() {
            return;
        }
        if cc.can_sync() && behind {
            if cc.css_due.is_none() {
                cc.css_due = Some(grid_after(now, self.s.css_poll, cc.css_phase));
            }
        } else {
            cc.css_due = None;
        }
    }

    /// Why connector `c` cannot synchronise now.
    fn sync_blocker(&self, c: usize) -> &'static str {
        let cc = &self.connectors[c];
        if !cc.is_up() {
            "connector down"
        } else if !cc.css_ok {
            "Config Synchronizer Service failed"
        } else if !cc.link_up {
            "cloud link down"
        } else if cc.forced {
            "outage forced (OutageModeForced = 1)"
        } else {
            "unknown"
        }
    }

    /// A poll or an import of connector `c` due at `now`.
    pub(crate) fn css_timers(&mut self, c: usize, now: SimTime, out: &mut Vec<Event>) {
        let r = self.connectors[c].rl;
        if let Some(import) = self.connectors[c].import.filter(|i| i.done_at <= now) {
            self.connectors[c].import = None;
            if self.connectors[c].can_sync() {
                let cc = &mut self.connectors[c];
                let previous = cc.generation;
                cc.generation = import.generation;
                cc.last_sync = now;
                let details = json!({
                    "generation": import.generation,
                    "previous_generation": previous,
                    "reason": "import complete: the new LocalDB instance replaces the previous one",
                    "resource_location": self.rls[r].id,
                });
                out.push(ev(now, &cc.fqdn, "localdb.replaced", details));
            } else {
                let reason = format!("import failed: {}", self.sync_blocker(c));
                self.import_failed(c, import.generation, now, &reason, out);
            }
            self.css_refresh(c, now);
        }
        if self.connectors[c].css_due.is_some_and(|t| t <= now) {
            self.connectors[c].css_due = None;
            let cc = &self.connectors[c];
            if cc.can_sync() && cc.import.is_none() && cc.generation < self.cloud_generation {
                let generation = self.cloud_generation;
                let details = json!({
                    "generation": generation,
                    "previous_generation": cc.generation,
                    "reason": "CSS poll found a configuration change: importing it into a new LocalDB instance",
                    "resource_location": self.rls[r].id,
                });
                out.push(ev(now, &cc.fqdn, "localdb.import_started", details));
                self.connectors[c].import = Some(Import {
                    generation,
                    done_at: now.saturating_add(self.s.localdb_import),
                });
            } else {
                self.css_refresh(c, now);
            }
        }
    }

    fn import_failed(
        &self,
        c: usize,
        generation: u64,
        now: SimTime,
        reason: &str,
        out: &mut Vec<Event>,
    ) {
        let cc = &self.connectors[c];
        let details = json!({
            "generation": generation,
            "kept_generation": cc.generation,
            "reason": reason,
            "resource_location": self.rls[cc.rl].id,
        });
        out.push(ev(now, &cc.fqdn, "localdb.import_failed", details));
    }

    /// An import in progress stops (the connector or its CSS went down): the previous LocalDB
    /// generation stays.
    pub(crate) fn interrupt_import(
        &mut self,
        c: usize,
        now: SimTime,
        why: &str,
        out: &mut Vec<Event>,
    ) {
        if let Some(import) = self.connectors[c].import.take() {
            let reason = format!("import interrupted: {why}");
            self.import_failed(c, import.generation, now, &reason, out);
        }
        self.css_refresh(c, now);
    }

    /// An administrator changed the configuration in the cloud.
    pub(crate) fn config_change(
        &mut self,
        description: Option<&str>,
        now: SimTime,
        out: &mut Vec<Event>,
    ) {
        self.cloud_generation += 1;
        let details = json!({
            "description": description,
            "generation": self.cloud_generation,
            "reason": "configuration changed in the cloud: each Config Synchronizer imports it at its next poll",
        });
        out.push(ev(now, "cloud", "config.changed", details));
        for c in 0..self.connectors.len() {
            self.css_refresh(c, now);
            if let Some(t) = self.connectors[c].css_due {
                let rl = &mut self.rls[self.connectors[c].rl];
                rl.next_due = Some(rl.next_due.map_or(t, |d| d.min(t)));
            }
        }
    }
}
