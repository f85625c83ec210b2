//! [`GslbEngine`]: placeholder API (being implemented).

use core::net::IpAddr;

use super::views::{ClientLocationView, GuidedReplay, ResolutionView, SiteView, TopologyView};
use crate::action::{Action, ActionError};
use crate::clock::SimTime;
use crate::event::{EngineId, Event};
use crate::rng::Rng;
use crate::scenario::gslb::GslbConfig;
use crate::step::Engine;

/// The GSLB engine.
#[derive(Clone, Debug)]
pub struct GslbEngine {
    cfg: GslbConfig,
}

impl GslbEngine {
    /// The engine at the start of a run.
    pub fn new(config: &GslbConfig, _rng: &Rng) -> GslbEngine {
        GslbEngine {
            cfg: config.clone(),
        }
    }

    /// The whole topology now.
    pub fn topology(&self) -> TopologyView {
        TopologyView {
            sites: Vec::new(),
            links: Vec::new(),
            domains: Vec::new(),
            settings: Vec::new(),
            parents_up: 0,
            parents_total: 0,
            children_total: 0,
            children_adopted: 0,
            children_orphaned: 0,
            adoptions: 0,
            rejections: 0,
            dns_answered: 0,
        }
    }

    /// One site now.
    pub fn site(&self, name: &str) -> Option<SiteView> {
        self.topology().sites.into_iter().find(|s| s.name == name)
    }

    /// Client locations known to static proximity and RTT.
    pub fn client_locations(&self) -> Vec<ClientLocationView> {
        Vec::new()
    }

    /// Whether `domain` (lower-case, no trailing dot) is a configured GSLB domain.
    pub fn is_domain(&self, domain: &str) -> bool {
        self.cfg
            .domains
            .iter()
            .any(|d| d.name.eq_ignore_ascii_case(domain))
    }

    /// How a query would be answered now, changing nothing (the resolve panel).
    pub fn preview_resolve(&self, domain: &str, client: IpAddr) -> ResolutionView {
        ResolutionView {
            domain: domain.to_owned(),
            client: client.to_string(),
            client_location: None,
            outcome: super::views::ResolveOutcome::Unavailable,
            answered_by: None,
            method: None,
            effective_method: None,
            ips: Vec::new(),
            ttl_s: 0,
            reason: String::new(),
            candidates: Vec::new(),
        }
    }

    /// Answers a real query at `now`: advances round robin, counts, and logs it (answers are
    /// logged as `adns.answered` events, coalesced per second).
    pub fn resolve(&mut self, _now: SimTime, domain: &str, client: IpAddr) -> ResolutionView {
        self.preview_resolve(domain, client)
    }

    /// The topology as the product's CLI text.
    pub fn export_cli(&self) -> String {
        String::new()
    }
}

/// A guided replay of documented scenario `number` (1, 2 or 3) on its documented topology.
pub fn guided_replay(_number: u8) -> Option<GuidedReplay> {
    None
}

impl Engine for GslbEngine {
    fn id(&self) -> EngineId {
        EngineId::Gslb
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
        if action.engine() != EngineId::Gslb {
            return Ok(false);
        }
        Err(ActionError::Unhandled(action.kind()))
    }
}
