//! The what-if: the recorded demand of the last hours of a group, replayed per zone against
//! edited parameters from the state each cluster was in at the start of the window, beside
//! what really happened. Read-only and cheap: O(minutes × zones × thresholds), no allocation
//! per minute beyond the returned views.

use super::actions::check_params;
use super::config::GroupParams;
use super::decide::{Limits, MetricModel, Outcome};
use super::engine::AutoscaleEngine;
use super::history::{outcome_view, state_of, HISTORY_MINUTES};
use super::query::minute_view;
use super::views::{MinuteView, WhatIfSummary, WhatIfView, WhatIfZone};
use crate::action::error::ActionError;

/// Longest what-if window: the history kept (7 days).
pub const MAX_WHAT_IF_HOURS: u32 = (HISTORY_MINUTES / 60) as u32;

impl WhatIfSummary {
    fn add(&mut self, o: Outcome, nodes: u32, saturated: bool) {
        match o {
            Outcome::ScaleOut(_) => self.scale_outs += 1,
            Outcome::ScaleIn(_) => self.scale_ins += 1,
            Outcome::AtLimit(_) => self.at_limit += 1,
            _ => {}
        }
        if saturated {
            self.saturated_minutes += 1;
        }
        self.node_minutes += u64::from(nodes);
        self.peak_nodes = self.peak_nodes.max(nodes);
    }
}

/// Whether every node in service is saturated (demand beyond the cluster's capacity).
fn saturated(model: &MetricModel, demand: f64, n_eval: u32, deployed: bool) -> bool {
    deployed && demand * model.base_nodes >= 100.0 * f64::from(n_eval.max(1))
}

impl AutoscaleEngine {
    /// Replays the last `hours` simulated hours (1..=168, at most what was recorded) of
    /// recorded demand of `group` against `params`, beside what really happened. Validates
    /// `params` first, with the messages of the `group_settings` action; nothing changes.
    /// Before the first minute the zones' timelines are empty (`from_minute` = `to_minute` =
    /// 0). Each cluster starts from its recorded state at the start of the window (nodes in
    /// service, cooldown / drain / TTL wait in progress, streak); node bounds that the edited
    /// parameters move are restored at the first evaluation.
    pub fn what_if(
        &self,
        group: &str,
        params: &GroupParams,
        hours: u32,
    ) -> Result<WhatIfView, ActionError> {
        let g = &self.groups[self.group_of(group)?];
        check_params(params)?;
        if !(1..=MAX_WHAT_IF_HOURS).contains(&hours) {
            return Err(ActionError::Invalid {
                field: "hours",
                message: format!(
                    "must be between 1 and {MAX_WHAT_IF_HOURS} (the history kept); got {hours}"
                ),
            });
        }
        let edited_lim = Limits::new(params, g.dns());
        let real_t = g.limits.thresholds();
        let edited_t = edited_lim.thresholds();
        let (mut from_minute, mut to_minute) = (0, 0);
        let mut zones = Vec::with_capacity(g.clusters.len());
        for c in &g.clusters {
            let h = &c.history;
            let n = (hours as usize * 60).min(h.len());
            let start = h.len() - n;
            if n > 0 {
                from_minute = h.minute(start);
                to_minute = h.minute(h.len() - 1);
            }
            let mut real = Vec::with_capacity(n);
            let mut edited = Vec::with_capacity(n);
            let mut real_summary = WhatIfSummary::default();
            let mut edited_summary = WhatIfSummary::default();
            let mut core = h.core_before(start);
            for i in start..h.len() {
                let rec = h.get(i);
                let m = h.minute(i);
                let deployed = rec.deployed();
                real.push(minute_view(m, rec, real_t, &g.model));
                real_summary.add(
                    rec.outcome(),
                    rec.n_after(),
                    saturated(&g.model, rec.demand, rec.n_eval(), deployed),
                );
                let r = core.step(m, rec.demand, deployed, &edited_lim, &g.model);
                edited_summary.add(
                    r.outcome,
                    core.in_service,
                    saturated(&g.model, rec.demand, r.n_eval, deployed),
                );
                edited.push(MinuteView {
                    minute: m,
                    metrics: r.values[..edited_t.len()].to_vec(),
                    demand: rec.demand,
                    nodes: core.in_service,
                    outcome: outcome_view(r.outcome),
                    state: state_of(core.phase, r.outcome == Outcome::Idle),
                });
            }
            zones.push(WhatIfZone {
                zone: c.zone.clone(),
                real,
                edited,
                real_summary,
                edited_summary,
            });
        }
        Ok(WhatIfView {
            group: g.name.clone(),
            from_minute,
            to_minute,
            real_params: g.params.clone(),
            edited_params: params.clone(),
            zones,
        })
    }
}
