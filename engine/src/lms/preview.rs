//! The what-if of an evaluator edit: load indexes now and under the edit, and where the next
//! launches would go on two clones of the engine (as it is, and edited).

use super::config::rules::Rule;
use super::engine::LmsEngine;
use super::sessions::Launch;
use super::views::{EvaluatorPreview, PlacementCount, PreviewRow};
use crate::action::error::ActionError;
use crate::scenario::check::invalid;

/// Most launches a preview simulates.
pub const MAX_PREVIEW_LAUNCHES: u32 = 1000;

impl LmsEngine {
    /// The true load of server `s` as placement sees it for application `a`: the higher of
    /// its evaluator's index and the application's evaluator's.
    pub(crate) fn true_app_load(&self, s: usize, a: Option<usize>) -> u32 {
        let load = self.servers[s].load;
        match a.and_then(|a| self.apps[a].evaluator) {
            Some(e)
                if self.servers[s]
                    .apps
                    .iter()
                    .any(|x| Some(usize::from(*x)) == a) =>
            {
                load.max(self.index_under(s, &self.evaluators[e as usize], self.now))
            }
            _ => load,
        }
    }

    /// Previews saving evaluator `name` with `rules` (replacing `replaces`, or new): validated
    /// like `EvaluatorSave`. Rows are the servers whose server or application evaluator is
    /// the edited one (for a new evaluator: every server publishing `app`, as if it were
    /// assigned to them). Then `launches` (at most 1000) launches of `app` (default: the first
    /// application of an affected server) are placed at the current instant on two clones.
    pub fn preview_evaluator(
        &self,
        replaces: Option<&str>,
        name: &str,
        rules: &[Rule],
        app: Option<&str>,
        launches: u32,
    ) -> Result<EvaluatorPreview, ActionError> {
        self.check_save(name, rules, replaces)?;
        if launches > MAX_PREVIEW_LAUNCHES {
            return invalid(
                "launches",
                format!("must be between 0 and {MAX_PREVIEW_LAUNCHES}; got {launches}"),
            );
        }
        let app_given = match app {
            Some(a) => Some(
                self.cfg
                    .app_index(a)
                    .ok_or_else(|| self.cfg.unknown_app("app", a))?,
            ),
            None => None,
        };
        let old = replaces.and_then(|r| self.evaluators.iter().position(|e| e.name == r));
        let affected: Vec<usize> = match (old, app_given) {
            (Some(e), _) => self.affected_by(e),
            (None, Some(a)) => self.apps[a]
                .index
                .servers
                .iter()
                .map(|s| *s as usize)
                .collect(),
            (None, None) => Vec::new(),
        };
        let app_idx = app_given
            .or_else(|| {
                affected
                    .iter()
                    .find_map(|s| self.servers[*s].apps.first().map(|a| usize::from(*a)))
            })
            .or_else(|| (!self.apps.is_empty()).then_some(0))
            .ok_or(ActionError::Invalid {
                field: "app",
                message: "the farm publishes no application".to_owned(),
            })?;
        let mut edited = self.clone();
        let e = edited.install_evaluator(name, rules, replaces);
        if old.is_none() {
            let e32 = u32::try_from(e).unwrap_or(0);
            for &s in &affected {
                edited.servers[s].evaluator = e32;
            }
            edited.rebuild_indexes();
        }
        edited.reevaluate(&affected, self.now);
        let rows = affected
            .iter()
            .map(|&s| PreviewRow {
                host: self.servers[s].host.clone(),
                now: self.true_app_load(s, Some(app_idx)),
                edited: edited.true_app_load(s, Some(app_idx)),
            })
            .collect();
        let (placements_now, rejected_now) = self.clone().what_if(app_idx, launches);
        let (placements_edited, rejected_edited) = edited.what_if(app_idx, launches);
        Ok(EvaluatorPreview {
            app: self.apps[app_idx].name.clone(),
            launches,
            rows,
            placements_now,
            placements_edited,
            rejected_now,
            rejected_edited,
        })
    }

    /// Places `launches` launches of `app` at the current instant, each by a new user from a
    /// client address of the farm's stream: the server of each, or `None` when refused.
    pub(crate) fn place_launches(&mut self, app: usize, launches: u32) -> Vec<Option<u32>> {
        let mut sink = Vec::new();
        let now = self.now;
        (0..launches)
            .map(|_| {
                let user = self.new_user();
                let ip = u32::from(self.client_ip());
                let placed = match self.launch(user, app, ip, now, None, &mut sink) {
                    Launch::Placed(s) | Launch::Reconnected(s) => Some(s),
                    Launch::Rejected => None,
                };
                sink.clear();
                placed
            })
            .collect()
    }

    /// Places `launches` launches of `app` at the current instant; counts per server.
    fn what_if(mut self, app: usize, launches: u32) -> (Vec<PlacementCount>, u32) {
        let mut counts = vec![0u32; self.servers.len()];
        let mut rejected = 0;
        for placed in self.place_launches(app, launches) {
            match placed {
                Some(s) => counts[s as usize] += 1,
                None => rejected += 1,
            }
        }
        let list = counts
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(s, n)| PlacementCount {
                host: self.servers[s].host.clone(),
                count: *n,
            })
            .collect();
        (list, rejected)
    }
}
