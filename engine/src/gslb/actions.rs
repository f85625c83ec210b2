//! Operator actions of the GSLB engine: state checks (what the configuration alone cannot
//! tell) and their application at `t`: site down/up, MEP cut/restore, backup lists, topology
//! import.

use serde_json::json;

use super::cli::parse_cli;
use super::engine::{ev, GslbEngine};
use crate::action::{Action, ActionError};
use crate::event::Event;

impl GslbEngine {
    fn site_index(&self, name: &str) -> Result<u16, ActionError> {
        self.by_name
            .get(name)
            .copied()
            .ok_or_else(|| ActionError::Unknown {
                field: "site",
                what: "site",
                name: name.to_owned(),
                known: crate::scenario::lms_actions::some_of(
                    self.sites.iter().map(|s| s.name.as_str()),
                ),
            })
    }

    fn directions(&self, from: u16, to: u16, one_way: bool) -> Vec<(u16, u16)> {
        if one_way {
            vec![(from, to)]
        } else {
            vec![(from, to), (to, from)]
        }
    }

    /// Checks what depends on the state; on `Err` nothing changes.
    pub(crate) fn check_state(&self, action: &Action) -> Result<(), ActionError> {
        match action {
            Action::SiteDown { site } => {
                if !self.is_up(self.site_index(site)?) {
                    return Err(ActionError::NoChange(format!(
                        "site \"{site}\" is already down"
                    )));
                }
                Ok(())
            }
            Action::SiteUp { site } => {
                if self.is_up(self.site_index(site)?) {
                    return Err(ActionError::NoChange(format!(
                        "site \"{site}\" is already up"
                    )));
                }
                Ok(())
            }
            Action::MepCut { from, to, one_way } => {
                let dirs = self.directions(self.site_index(from)?, self.site_index(to)?, *one_way);
                if dirs.iter().all(|d| self.cuts.contains(d)) {
                    return Err(ActionError::NoChange(format!(
                        "the MEP link {from}-{to} is already cut{}",
                        if *one_way { " in that direction" } else { "" }
                    )));
                }
                Ok(())
            }
            Action::MepRestore { from, to, one_way } => {
                let dirs = self.directions(self.site_index(from)?, self.site_index(to)?, *one_way);
                if !dirs.iter().any(|d| self.cuts.contains(d)) {
                    return Err(ActionError::NoChange(format!(
                        "the MEP link {from}-{to} is not cut{}",
                        if *one_way { " in that direction" } else { "" }
                    )));
                }
                Ok(())
            }
            Action::BackupParents { site, backups } => {
                let p = self.site_index(site)?;
                if self.names_of(&self.backups[usize::from(p)]) == *backups {
                    return Err(ActionError::NoChange(format!(
                        "site \"{site}\" already has the backup list [{}]",
                        backups.join(", ")
                    )));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Applies a checked action at `t`.
    pub(crate) fn apply_checked(&mut self, t: u64, action: &Action, out: &mut Vec<Event>) {
        match action {
            Action::SiteDown { site } => {
                if let Ok(s) = self.site_index(site) {
                    self.site_down(s, t, out);
                }
            }
            Action::SiteUp { site } => {
                if let Ok(s) = self.site_index(site) {
                    self.site_up(s, t, out);
                }
            }
            Action::MepCut { from, to, one_way } | Action::MepRestore { from, to, one_way } => {
                if let (Ok(a), Ok(b)) = (self.site_index(from), self.site_index(to)) {
                    let cut = matches!(action, Action::MepCut { .. });
                    self.set_cut(a, b, *one_way, cut, t, out);
                }
            }
            Action::BackupParents { site, backups } => {
                if let Ok(p) = self.site_index(site) {
                    self.set_backups(p, backups, t, out);
                }
            }
            Action::TopologyImport { cli } => {
                if let Ok(cfg) = parse_cli(cli) {
                    self.import(cfg, t, out);
                }
            }
            _ => {}
        }
    }

    /// `set gslb site <p> -backupParentlist …`: the new list, sent to the children that can
    /// hear it; decisions about `p`'s children are taken again.
    fn set_backups(&mut self, p: u16, names: &[String], t: u64, out: &mut Vec<Event>) {
        let list: Vec<u16> = names
            .iter()
            .filter_map(|n| self.by_name.get(n).copied())
            .collect();
        let previous = self.names_of(&self.backups[usize::from(p)]);
        self.backups[usize::from(p)] = list.clone();
        let pname = self.name(p).to_owned();
        if let Some(sc) = self.cfg.sites.iter_mut().find(|s| s.name == pname) {
            sc.backup_parents = names.to_vec();
        }
        self.rebuild_backup_of();
        let mut reached = Vec::new();
        let mut missed = Vec::new();
        for c in self.kids[usize::from(p)].clone() {
            let cs = self.child_site(c);
            let hears = self.children[usize::from(c)]
                .current
                .is_some_and(|q| self.is_up(cs) && self.delivers(q, cs));
            if hears {
                self.children[usize::from(c)].backups = list.clone();
                reached.push(c);
            } else {
                missed.push(c);
            }
        }
        let details = json!({
            "backups": names,
            "children": self.child_names(&reached),
            "not_reached": self.child_names(&missed),
            "previous": previous,
            "reason": format!(
                "{pname} sends its backup list to its children over MEP (an adopted child gets it from its adoptive parent; a child that cannot hear gets it with its next connection)"
            ),
        });
        out.push(ev(t, &pname, "backup_list.sent", details));
        for x in 0..self.np {
            let x = super::engine::idx(x);
            if x != p {
                self.evaluate(x, p, t, out);
            }
        }
    }

    /// Replaces the topology at `t`: a fresh state for the new configuration (answers not yet
    /// logged are kept).
    fn import(&mut self, cfg: crate::scenario::gslb::GslbConfig, t: u64, out: &mut Vec<Event>) {
        let log = core::mem::take(&mut self.log);
        let fresh = GslbEngine::build(&cfg, self.rng.clone(), t);
        *self = fresh;
        self.log = log;
        let children = self.children.len();
        let details = json!({
            "children": children,
            "client_locations": self.locations.len(),
            "domains": self.cfg.domains.len(),
            "parents": self.np,
            "reason": "the topology is replaced by the imported CLI text: every site starts up, every MEP link up, each child with its configured parent",
            "services": self.sites.iter().map(|s| s.services.len()).sum::<usize>(),
        });
        out.push(ev(t, "topology", "topology.imported", details));
    }
}
