//! The read-only view types of the LHC engine, as the console receives them. Every view is
//! `Serialize + Deserialize + Clone`; [`LhcEngine`](super::LhcEngine) builds them (see
//! `query`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::config::VdaKind;
use super::connector::Power;
use super::ha_state::HaState;

/// A warning about a resource location (configuration or forced-outage state).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RlWarning {
    /// `not_ha_ready`, `single_connector`, `over_sizing_limit` or `partial_forced_outage`.
    pub code: String,
    /// What to look at.
    pub message: String,
}

/// One resource location.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RlView {
    /// Id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Aggregated HA state.
    pub ha_state: HaState,
    /// When it entered that state (simulated ms).
    pub ha_state_since_ms: u64,
    /// Some connector is configured in StoreFront.
    pub ha_ready: bool,
    /// FQDN of the elected secondary broker.
    pub elected: Option<String>,
    /// Election candidates, best first.
    pub candidates: Vec<String>,
    /// Connectors running.
    pub connectors_up: usize,
    /// Connectors in all.
    pub connectors_total: usize,
    /// VDAs in all.
    pub vdas_total: u32,
    /// VDAs registered with the cloud broker.
    pub on_cloud: u32,
    /// VDAs registered with a secondary broker.
    pub on_secondary: u32,
    /// Per secondary broker (FQDN), the VDAs registered with it (only non-zero counts).
    pub secondary: BTreeMap<String, u32>,
    /// VDAs registered nowhere.
    pub unregistered: u32,
    /// Where the VDAs go at their next heartbeat: `cloud`, a connector FQDN,
    /// `unregistered`, or `hold` (they stay: the cloud is unreachable, HA detection decides).
    pub next_broker: String,
    /// VDAs still to contact before every VDA is with `next_broker`.
    pub reregistering: u32,
    /// The ADC VIP of the resource location is UP (some connector passes CITRIX-XD-DDC).
    pub adc_vip_up: bool,
    /// Warnings.
    pub warnings: Vec<RlWarning>,
}

/// Health of the components of a connector (`true` = healthy).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComponentsView {
    /// Config Synchronizer Service.
    pub css: bool,
    /// High Availability Service (secondary broker).
    pub ha_service: bool,
    /// Remote Broker Provider.
    pub rbp: bool,
}

/// LocalDB of a connector.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocalDbView {
    /// Generation of the configuration in use.
    pub generation: u64,
    /// When it was imported (simulated ms; 0 = before the run).
    pub last_sync_ms: u64,
    /// Generation being imported, if an import runs.
    pub importing: Option<u64>,
    /// Latest generation in the cloud.
    pub cloud_generation: u64,
}

/// One Cloud Connector.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConnectorView {
    /// FQDN.
    pub fqdn: String,
    /// Id of its resource location.
    pub resource_location: String,
    /// Running, restarting or down.
    pub power: Power,
    /// Component health.
    pub components: ComponentsView,
    /// Configured in StoreFront as a Delivery Controller (performs HA detection).
    pub storefront_configured: bool,
    /// StoreFront's view from its last heartbeat (`None` when not configured).
    pub storefront_healthy: Option<bool>,
    /// `OutageModeForced = 1`.
    pub forced_outage: bool,
    /// The link to the cloud broker is up.
    pub cloud_link_up: bool,
    /// The link has been down for `cloud_lost_after`.
    pub cloud_lost: bool,
    /// HA state (`None`: not StoreFront-configured, it performs no HA detection).
    pub ha_state: Option<HaState>,
    /// When it entered that state (simulated ms).
    pub ha_state_since_ms: Option<u64>,
    /// The checks that currently fail.
    pub failed_checks: Vec<String>,
    /// LocalDB.
    pub localdb: LocalDbView,
    /// 1-based rank in the election (`None` when excluded).
    pub election_rank: Option<usize>,
    /// It is the elected secondary broker of its resource location.
    pub elected: bool,
    /// Why it is excluded from the election.
    pub excluded_because: Option<String>,
    /// VDA registrations its secondary broker holds.
    pub registrations: u32,
    /// Registrations left over from an outage, deleted at the end of the recovery.
    pub leftover_registrations: u32,
    /// Sessions of its registered VDAs, as learned at registration.
    pub known_sessions: u64,
    /// CITRIX-XD-DDC monitor status.
    pub adc_monitor_up: bool,
}

/// Where a VDA is registered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Broker {
    /// The cloud broker.
    Cloud,
    /// A secondary broker.
    Secondary {
        /// Its connector.
        fqdn: String,
    },
    /// Nowhere.
    Unregistered,
}

/// Broker filter of a VDA listing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BrokerFilter {
    /// Registered with the cloud broker.
    Cloud,
    /// Registered with a secondary broker (this connector's when `fqdn` is given).
    Secondary {
        /// The connector (case-insensitive).
        #[serde(default)]
        fqdn: Option<String>,
    },
    /// Not registered.
    Unregistered,
}

/// The order of a VDA listing. Ties keep the name order (resource location, pool, number).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VdaSort {
    /// Resource location, pool and number.
    #[default]
    Name,
    /// Kind (`multi_session`, `pooled_vdi`, `static`: the names' order).
    Kind,
    /// Delivery group id.
    DeliveryGroup,
    /// Unregistered, then on a secondary broker, then on the cloud broker.
    Broker,
    /// Sessions.
    Sessions,
    /// Out of maintenance, then in maintenance.
    Maintenance,
    /// Offset of the heartbeats.
    HeartbeatPhase,
}

/// A page of the VDA listing, with filters (all optional, combined with *and*).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct VdaQuery {
    /// Only this resource location.
    pub resource_location: Option<String>,
    /// Only VDAs with this broker.
    pub broker: Option<BrokerFilter>,
    /// Only this kind.
    pub kind: Option<VdaKind>,
    /// Only VDAs with (`true`) or without (`false`) sessions.
    pub in_use: Option<bool>,
    /// Only VDAs in (`true`) or out of (`false`) maintenance mode.
    pub maintenance: Option<bool>,
    /// Only names starting with this (case-insensitive).
    pub name_prefix: Option<String>,
    /// Order of the rows.
    pub sort: VdaSort,
    /// Reverse order (ties keep the name order).
    pub descending: bool,
    /// Rows to skip.
    pub offset: usize,
    /// Rows to return, `1..=1000` (clamped).
    pub limit: usize,
}

impl Default for VdaQuery {
    fn default() -> Self {
        VdaQuery {
            resource_location: None,
            broker: None,
            kind: None,
            in_use: None,
            maintenance: None,
            name_prefix: None,
            sort: VdaSort::Name,
            descending: false,
            offset: 0,
            limit: 50,
        }
    }
}

/// Most rows of one page.
pub const MAX_PAGE: usize = 1_000;

/// One VDA.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VdaRow {
    /// Name (`{prefix}{n:03}`).
    pub name: String,
    /// Id of its resource location.
    pub resource_location: String,
    /// Prefix of its pool.
    pub pool: String,
    /// Kind.
    pub kind: VdaKind,
    /// Delivery group id.
    pub delivery_group: String,
    /// Where it is registered.
    pub broker: Broker,
    /// Sessions.
    pub sessions: u16,
    /// Session capacity.
    pub max_sessions: u16,
    /// In maintenance mode.
    pub maintenance: bool,
    /// Offset of its heartbeats within `vda_heartbeat_max` (ms).
    pub heartbeat_phase_ms: u64,
    /// It will move to its resource location's `next_broker` at its next heartbeat.
    pub moves_at_next_heartbeat: bool,
}

/// A page of VDAs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VdaPage {
    /// The rows.
    pub rows: Vec<VdaRow>,
    /// VDAs matching the filters, in all.
    pub total: usize,
    /// The offset used.
    pub offset: usize,
    /// The limit used (after clamping).
    pub limit: usize,
}

/// StoreFront and the cloud.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StorefrontView {
    /// AdvancedHealthCheck on.
    pub advanced_health_check: bool,
    /// Heartbeat interval (ms).
    pub heartbeat_interval_ms: u64,
    /// Next heartbeat that will change StoreFront's view, if one is due.
    pub next_heartbeat_ms: Option<u64>,
    /// Configured connectors StoreFront considers healthy.
    pub healthy_connectors: Vec<String>,
    /// Configured connectors in all.
    pub configured_connectors: usize,
    /// Latest configuration generation in the cloud.
    pub cloud_generation: u64,
    /// Test launches so far.
    pub launches: u64,
}
