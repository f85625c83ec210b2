//! [`AutoscaleEngine`]: placeholder API (being implemented).

use super::views::{GroupView, MinuteView, WhatIfView};
use crate::action::{Action, ActionError};
use crate::clock::SimTime;
use crate::event::{EngineId, Event};
use crate::rng::Rng;
use crate::scenario::autoscale::{AutoscaleConfig, GroupParams};
use crate::step::Engine;

/// The autoscale engine.
#[derive(Clone, Debug)]
pub struct AutoscaleEngine {
    cfg: AutoscaleConfig,
}

impl AutoscaleEngine {
    /// The engine at the start of a run.
    pub fn new(config: &AutoscaleConfig, _rng: &Rng) -> AutoscaleEngine {
        AutoscaleEngine {
            cfg: config.clone(),
        }
    }

    /// Every group now, configuration order.
    pub fn groups(&self) -> Vec<GroupView> {
        Vec::new()
    }

    /// One group now.
    pub fn group(&self, name: &str) -> Option<GroupView> {
        self.groups().into_iter().find(|g| g.name == name)
    }

    /// The last `minutes` minutes of a zone's timeline (as recorded), oldest first.
    pub fn timeline(&self, group: &str, zone: &str, minutes: u32) -> Option<Vec<MinuteView>> {
        let _ = (group, zone, minutes, &self.cfg);
        None
    }

    /// Replays the last `hours` simulated hours of recorded demand of `group` against
    /// `params`, beside what really happened. Validates `params` first (nothing changes).
    pub fn what_if(
        &self,
        group: &str,
        params: &GroupParams,
        hours: u32,
    ) -> Result<WhatIfView, ActionError> {
        let _ = (group, params, hours);
        Err(ActionError::Unhandled("group_settings"))
    }
}

impl Engine for AutoscaleEngine {
    fn id(&self) -> EngineId {
        EngineId::Autoscale
    }

    fn next_wakeup(&self) -> Option<SimTime> {
        None
    }

    fn advance(&mut self, _now: SimTime, _out: &mut Vec<Event>) {}

    fn apply(
        &mut self,
        _now: SimTime,
        action: &Action,
        _actor: Option<&str>,
        _out: &mut Vec<Event>,
    ) -> Result<bool, ActionError> {
        if action.engine() != EngineId::Autoscale {
            return Ok(false);
        }
        Err(ActionError::Unhandled(action.kind()))
    }
}
