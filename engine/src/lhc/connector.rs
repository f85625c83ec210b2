//! The runtime state of one Cloud Connector and the health predicates derived from it.

use serde::{Deserialize, Serialize};

use super::election::Exclusion;
use super::ha_state::HaState;
use crate::clock::{SimDuration, SimTime};

/// A component of a Cloud Connector that can fail on its own (SPEC §1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Component {
    /// Config Synchronizer Service: imports the configuration into LocalDB.
    Css,
    /// High Availability Service: the secondary broker.
    HaService,
    /// Remote Broker Provider: relays VDA and StoreFront traffic to the cloud broker and
    /// decides when the resource location enters and leaves HA mode.
    Rbp,
}

impl Component {
    /// Every component, in display order.
    pub const ALL: [Component; 3] = [Component::Css, Component::HaService, Component::Rbp];

    /// The serialized name (`"css"`, `"ha_service"`, `"rbp"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Component::Css => "css",
            Component::HaService => "ha_service",
            Component::Rbp => "rbp",
        }
    }

    /// The product's name of the component.
    pub const fn label(self) -> &'static str {
        match self {
            Component::Css => "Config Synchronizer Service",
            Component::HaService => "High Availability Service",
            Component::Rbp => "Remote Broker Provider",
        }
    }
}

/// Whether a connector runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "status")]
pub enum Power {
    /// Running.
    Up,
    /// Restarting; back (with every component healthy) at `until_ms`.
    Restarting {
        /// When it is back, in simulated milliseconds.
        until_ms: u64,
    },
    /// Down until an operator recovers it.
    Down,
}

/// A LocalDB import in progress.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Import {
    /// The cloud configuration generation being imported.
    pub generation: u64,
    /// When the import completes.
    pub done_at: SimTime,
}

/// One connector.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct ConnectorState {
    pub fqdn: String,
    /// Index of its resource location.
    pub rl: usize,
    /// Index within its resource location (its broker code is `2 + local`).
    pub local: usize,
    pub storefront_configured: bool,
    pub power: Power,
    pub css_ok: bool,
    pub ha_ok: bool,
    pub rbp_ok: bool,
    /// `OutageModeForced = 1`.
    pub forced: bool,
    pub link_up: bool,
    /// Since when the cloud link is down.
    pub link_down_since: Option<SimTime>,
    /// The link has been down for `cloud_lost_after`: the connector considers the cloud lost.
    pub cloud_lost: bool,
    /// HA state (meaningful only for StoreFront-configured connectors).
    pub ha: HaState,
    pub ha_since: SimTime,
    /// LocalDB generation in use, and when it was imported.
    pub generation: u64,
    pub last_sync: SimTime,
    pub import: Option<Import>,
    /// Next Config Synchronizer poll that matters (a change is waiting), if any.
    pub css_due: Option<SimTime>,
    /// Offset of this connector's CSS polls within the poll interval.
    pub css_phase: SimDuration,
    /// StoreFront's view (result of its last heartbeat); `None` when not configured.
    pub sf_view: Option<bool>,
    /// CITRIX-XD-DDC monitor status.
    pub adc_up: bool,
    /// VDA registrations this secondary broker holds.
    pub held: u32,
    /// Registrations left over from an outage (the VDAs went back to the cloud), purged at
    /// the end of the recovery.
    pub leftover: u32,
    /// Sessions of the VDAs registered here, as learned at registration.
    pub known_sessions: u64,
}

impl ConnectorState {
    /// Running (not down, not restarting).
    pub fn is_up(&self) -> bool {
        self.power == Power::Up
    }

    /// Healthy state of a component.
    pub fn component_ok(&self, c: Component) -> bool {
        match c {
            Component::Css => self.css_ok,
            Component::HaService => self.ha_ok,
            Component::Rbp => self.rbp_ok,
        }
    }

    /// Sets the health of a component.
    pub fn set_component(&mut self, c: Component, ok: bool) {
        match c {
            Component::Css => self.css_ok = ok,
            Component::HaService => self.ha_ok = ok,
            Component::Rbp => self.rbp_ok = ok,
        }
    }

    /// The RBP relays VDA and StoreFront traffic to the cloud broker right now.
    pub fn relays_to_cloud(&self) -> bool {
        self.is_up() && self.rbp_ok && self.link_up && !self.forced
    }

    /// Counts as reaching the cloud broker in the health exchange of Pending HA (the cloud
    /// is not yet *lost* during the first `cloud_lost_after` of a link failure).
    pub fn reaches_cloud(&self) -> bool {
        self.is_up() && self.rbp_ok && !self.cloud_lost && !self.forced
    }

    /// Answers StoreFront's heartbeat.
    pub fn answers_storefront(&self) -> bool {
        self.is_up() && self.rbp_ok
    }

    /// The secondary broker runs (it can be elected and hold registrations).
    pub fn secondary_alive(&self) -> bool {
        self.is_up() && self.ha_ok
    }

    /// Why it cannot be elected, if it cannot.
    pub fn exclusion(&self) -> Option<Exclusion> {
        match self.power {
            Power::Down => Some(Exclusion::ConnectorDown),
            Power::Restarting { .. } => Some(Exclusion::Restarting),
            Power::Up if !self.ha_ok => Some(Exclusion::HaServiceFailed),
            Power::Up => None,
        }
    }

    /// The Config Synchronizer can reach the cloud.
    pub fn can_sync(&self) -> bool {
        self.is_up() && self.css_ok && self.link_up && !self.forced
    }

    /// Every failed check of this connector (empty when all pass).
    pub fn failed_checks(&self, lost_after: SimDuration) -> Vec<String> {
        let mut out = Vec::new();
        match self.power {
            Power::Down => out.push("connector down".to_owned()),
            Power::Restarting { .. } => out.push("connector restarting".to_owned()),
            Power::Up => {}
        }
        for c in Component::ALL {
            if !self.component_ok(c) {
                out.push(format!("{} failed", c.label()));
            }
        }
        if self.cloud_lost {
            out.push(format!(
                "cloud broker unreachable for {lost_after} (cloud_lost_after)"
            ));
        }
        if self.forced {
            out.push("outage forced (OutageModeForced = 1)".to_owned());
        }
        out
    }

    /// All checks pass.
    pub fn checks_pass(&self) -> bool {
        self.is_up() && self.css_ok && self.ha_ok && self.rbp_ok && !self.cloud_lost && !self.forced
    }
}
