//! [`GslbAction`]: what an operator does to the GSLB topology (sites down/up, MEP cuts,
//! backup lists, topology import), with its check against `[gslb]`
//! ([`GslbConfig::check_action`]) and against the state (`GslbEngine::check_state`) side by
//! side, then its application at `t`. A rejected action changes nothing.

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::cli::parse_cli;
use super::config::{GslbConfig, SiteRole};
use super::engine::{ev, GslbEngine};
use crate::action::error::ActionError;
use crate::clock::SimTime;
use crate::event::{attribute, Event};
use crate::scenario::check::some_of;
use crate::step::Apply;

/// An action of the GSLB engine. Serialized flat with a `kind` tag in snake_case, like every
/// engine's actions (see [`Action`](crate::Action)).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum GslbAction {
    /// GSLB: takes a site down (it sends and answers nothing: MEP, ADNS).
    SiteDown {
        /// Site name.
        site: String,
    },
    /// GSLB: brings a site back up.
    SiteUp {
        /// Site name.
        site: String,
    },
    /// GSLB: cuts the MEP link between two sites: packets from `from` to `to` are lost, and
    /// also from `to` to `from` unless `one_way`.
    MepCut {
        /// One end (the sender when `one_way`).
        from: String,
        /// The other end.
        to: String,
        /// Only the `from` → `to` direction.
        #[serde(default, skip_serializing_if = "core::ops::Not::not")]
        one_way: bool,
    },
    /// GSLB: restores the MEP link between two sites (one direction when `one_way`).
    MepRestore {
        /// One end (the sender when `one_way`).
        from: String,
        /// The other end.
        to: String,
        /// Only the `from` → `to` direction.
        #[serde(default, skip_serializing_if = "core::ops::Not::not")]
        one_way: bool,
    },
    /// GSLB: `set gslb site <site> -backupParentlist …` (an empty list is `unset`).
    BackupParents {
        /// The parent site.
        site: String,
        /// Backup parents in preference order (at most 5, existing parents, not the site).
        #[serde(default)]
        backups: Vec<String>,
    },
    /// GSLB: replaces the topology with the product's CLI text (`add gslb site …`).
    TopologyImport {
        /// The CLI text.
        cli: String,
    },
}

impl GslbAction {
    /// Every `kind` of this engine's actions, in declaration order.
    pub const KINDS: [&'static str; 6] = [
        "site_down",
        "site_up",
        "mep_cut",
        "mep_restore",
        "backup_parents",
        "topology_import",
    ];

    /// The `kind` tag, as written in files (`"site_down"`).
    pub fn kind(&self) -> &'static str {
        match self {
            GslbAction::SiteDown { .. } => "site_down",
            GslbAction::SiteUp { .. } => "site_up",
            GslbAction::MepCut { .. } => "mep_cut",
            GslbAction::MepRestore { .. } => "mep_restore",
            GslbAction::BackupParents { .. } => "backup_parents",
            GslbAction::TopologyImport { .. } => "topology_import",
        }
    }
}

fn unknown_site(cfg: &GslbConfig, field: &'static str, name: &str) -> ActionError {
    ActionError::Unknown {
        field,
        what: "site",
        name: name.to_owned(),
        known: some_of(cfg.sites.iter().map(|s| s.name.as_str())),
    }
}

impl GslbConfig {
    /// Checks a GSLB action against this configuration: the sites it names exist, a MEP link
    /// joins a parent to a site, a backup list is valid, an imported CLI text parses. What
    /// depends on the state (a site already down, a link already cut) is checked when the
    /// action runs.
    pub fn check_action(&self, action: &GslbAction) -> Result<(), ActionError> {
        let site = |field: &'static str, name: &str| {
            self.site(name)
                .ok_or_else(|| unknown_site(self, field, name))
        };
        match action {
            GslbAction::SiteDown { site: name } | GslbAction::SiteUp { site: name } => {
                site("site", name).map(|_| ())
            }
            GslbAction::MepCut { from, to, .. } | GslbAction::MepRestore { from, to, .. } => {
                let a = site("from", from)?;
                let b = site("to", to)?;
                if a.name == b.name {
                    return Err(ActionError::Invalid {
                        field: "to",
                        message: format!(
                            "a MEP link joins two different sites; got \"{to}\" twice"
                        ),
                    });
                }
                if a.role == SiteRole::Child && b.role == SiteRole::Child {
                    return Err(ActionError::Invalid {
                        field: "to",
                        message: format!(
                            "\"{from}\" and \"{to}\" are both child sites: a child talks only to parents, so there is no MEP link between them"
                        ),
                    });
                }
                Ok(())
            }
            GslbAction::BackupParents {
                site: name,
                backups,
            } => {
                let s = site("site", name)?;
                if s.role != SiteRole::Parent {
                    return Err(ActionError::Invalid {
                        field: "site",
                        message: format!(
                            "\"{name}\" is a child site: only parents have backup parents (parents: {})",
                            self.parent_names()
                        ),
                    });
                }
                self.check_backups(name, backups)
                    .map_err(|message| ActionError::Invalid {
                        field: "backups",
                        message,
                    })
            }
            GslbAction::TopologyImport { cli } => {
                parse_cli(cli)
                    .map(|_| ())
                    .map_err(|e| ActionError::Invalid {
                        field: "cli",
                        message: e.to_string(),
                    })
            }
        }
    }
}

impl GslbEngine {
    fn site_index(&self, name: &str) -> Result<u16, ActionError> {
        self.by_name
            .get(name)
            .copied()
            .ok_or_else(|| ActionError::Unknown {
                field: "site",
                what: "site",
                name: name.to_owned(),
                known: some_of(self.sites.iter().map(|s| s.name.as_str())),
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
    pub(crate) fn check_state(&self, action: &GslbAction) -> Result<(), ActionError> {
        match action {
            GslbAction::SiteDown { site } => {
                if !self.is_up(self.site_index(site)?) {
                    return Err(ActionError::NoChange(format!(
                        "site \"{site}\" is already down"
                    )));
                }
                Ok(())
            }
            GslbAction::SiteUp { site } => {
                if self.is_up(self.site_index(site)?) {
                    return Err(ActionError::NoChange(format!(
                        "site \"{site}\" is already up"
                    )));
                }
                Ok(())
            }
            GslbAction::MepCut { from, to, one_way } => {
                let dirs = self.directions(self.site_index(from)?, self.site_index(to)?, *one_way);
                if dirs.iter().all(|d| self.cuts.contains(d)) {
                    return Err(ActionError::NoChange(format!(
                        "the MEP link {from}-{to} is already cut{}",
                        if *one_way { " in that direction" } else { "" }
                    )));
                }
                Ok(())
            }
            GslbAction::MepRestore { from, to, one_way } => {
                let dirs = self.directions(self.site_index(from)?, self.site_index(to)?, *one_way);
                if !dirs.iter().any(|d| self.cuts.contains(d)) {
                    return Err(ActionError::NoChange(format!(
                        "the MEP link {from}-{to} is not cut{}",
                        if *one_way { " in that direction" } else { "" }
                    )));
                }
                Ok(())
            }
            GslbAction::BackupParents { site, backups } => {
                let p = self.site_index(site)?;
                if self.names_of(&self.backups[usize::from(p)]) == *backups {
                    return Err(ActionError::NoChange(format!(
                        "site \"{site}\" already has the backup list [{}]",
                        backups.join(", ")
                    )));
                }
                Ok(())
            }
            GslbAction::TopologyImport { .. } => Ok(()),
        }
    }

    /// Applies a checked action at `t`.
    pub(crate) fn apply_checked(&mut self, t: u64, action: &GslbAction, out: &mut Vec<Event>) {
        match action {
            GslbAction::SiteDown { site } => {
                if let Ok(s) = self.site_index(site) {
                    self.site_down(s, t, out);
                }
            }
            GslbAction::SiteUp { site } => {
                if let Ok(s) = self.site_index(site) {
                    self.site_up(s, t, out);
                }
            }
            GslbAction::MepCut { from, to, one_way }
            | GslbAction::MepRestore { from, to, one_way } => {
                if let (Ok(a), Ok(b)) = (self.site_index(from), self.site_index(to)) {
                    let cut = matches!(action, GslbAction::MepCut { .. });
                    self.set_cut(a, b, *one_way, cut, t, out);
                }
            }
            GslbAction::BackupParents { site, backups } => {
                if let Ok(p) = self.site_index(site) {
                    self.set_backups(p, backups, t, out);
                }
            }
            GslbAction::TopologyImport { cli } => {
                if let Ok(cfg) = parse_cli(cli) {
                    self.import(cfg, t, out);
                }
            }
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
    fn import(&mut self, cfg: GslbConfig, t: u64, out: &mut Vec<Event>) {
        let log = core::mem::take(&mut self.log);
        let generation = self.topology_generation + 1;
        let fresh = GslbEngine::build(&cfg, self.rng.clone(), t);
        *self = fresh;
        self.log = log;
        self.topology_generation = generation;
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

impl Apply for GslbEngine {
    type Action = GslbAction;

    fn apply(
        &mut self,
        now: SimTime,
        action: &GslbAction,
        actor: Option<&str>,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.cfg.check_action(action)?;
        self.check_state(action)?;
        let first = out.len();
        let t = now.as_millis().max(self.now);
        self.now = t;
        self.apply_checked(t, action, out);
        attribute(&mut out[first..], actor);
        Ok(())
    }
}
