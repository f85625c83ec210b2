//! The read-only view types of the GSLB engine, as the console receives them. Every view is
//! `Serialize + Deserialize + Clone`; [`GslbEngine`](super::GslbEngine) builds them.

use serde::{Deserialize, Serialize};

use crate::event::Event;
use crate::gslb::config::{GslbMethod, SiteRole};

/// The whole topology now: sites, MEP links, domains and settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TopologyView {
    /// Sites: parents first (configuration order), then children.
    pub sites: Vec<SiteView>,
    /// MEP links: the parent-parent mesh, then parent-child links (to the current parent).
    pub links: Vec<LinkView>,
    /// GSLB domains answered by the parents.
    pub domains: Vec<DomainView>,
    /// Timings and limits, each marked documented or assumed.
    pub settings: Vec<GslbSettingView>,
    /// Parents up (powered and running).
    pub parents_up: u32,
    /// Parent sites in all.
    pub parents_total: u32,
    /// Children in all.
    pub children_total: u32,
    /// Children currently attached to a parent other than their configured one.
    pub children_adopted: u32,
    /// Children with no current parent (orphaned: their parent is down and no adoption yet).
    pub children_orphaned: u32,
    /// Adoptions accepted since the start.
    pub adoptions: u64,
    /// Adoption offers rejected since the start.
    pub rejections: u64,
    /// DNS queries answered since the start.
    pub dns_answered: u64,
}

/// One setting, as the console lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GslbSettingView {
    /// Key (`mep_keepalive_timeout`).
    pub key: String,
    /// What it is.
    pub label: String,
    /// Value as text (`10s`).
    pub value: String,
    /// `documented` (seed or product documentation) or `assumed` (our default).
    pub source: String,
}

/// MEP status of a site as the product shows it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum MepStatus {
    /// Exchanging metrics.
    Active,
    /// Not expected to exchange (e.g. a child towards a parent that is not its current one,
    /// or during the learning time).
    Inactive,
    /// No packets for the keep-alive timeout.
    Down,
}

/// One site now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SiteView {
    /// Name.
    pub name: String,
    /// Site IP.
    pub ip: String,
    /// Public IP, if configured.
    pub public_ip: Option<String>,
    /// Parent or child.
    pub role: SiteRole,
    /// Software version.
    pub version: String,
    /// Powered and running (false after `site_down`).
    pub up: bool,
    /// A child's configured (original) parent.
    pub configured_parent: Option<String>,
    /// A child's current parent (differs from the configured one after an adoption; `None`
    /// while orphaned).
    pub current_parent: Option<String>,
    /// A parent's own backup list; a child's: the list its current parent sent it.
    pub backup_parents: Vec<String>,
    /// MEP status: a parent's as the other parents see it (ACTIVE if one sees it up), a
    /// child's as its current parent sees it.
    pub mep_status: MepStatus,
    /// A parent's view of every other parent (name, seen up).
    pub peer_view: Vec<(String, bool)>,
    /// Children attached to this parent now.
    pub children: Vec<String>,
    /// Services: a parent's GSLB services, a child's local services.
    pub services: Vec<ServiceView>,
    /// An adopted child's services are learning until this simulated instant (ms).
    pub learning_until_ms: Option<u64>,
    /// When the site last changed parent or state (ms).
    pub since_ms: u64,
}

/// A service of a site (what an ADNS answer points at).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ServiceView {
    /// Service name.
    pub name: String,
    /// IP returned in answers (the public IP when set).
    pub ip: String,
    /// Port.
    pub port: u16,
    /// Up for ADNS: its site is up and some up parent counts it up (known over MEP, or by
    /// its monitor while MEP to it is down).
    pub up: bool,
    /// Current connections (least connections method): a seeded base plus one per client an
    /// answer sent to it; 0 while its site is down.
    pub connections: u32,
}

/// The state of one direction of a MEP link.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DirectionView {
    /// Packets in this direction are delivered (false after `mep_cut` or if the sender is
    /// down).
    pub delivering: bool,
    /// The receiver sees the sender up (it heard from it within the keep-alive timeout).
    pub seen_up: bool,
    /// Since when (ms) `seen_up` holds its value.
    pub since_ms: u64,
}

/// Parent-parent or parent-child.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkKind {
    /// Between two parents (full mesh).
    ParentParent,
    /// Between a parent and a child (its current parent).
    ParentChild,
}

/// One MEP link now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LinkView {
    /// One end (for parent-child: the parent).
    pub a: String,
    /// The other end.
    pub b: String,
    /// Kind.
    pub kind: LinkKind,
    /// The site that opens the connection (lower IP between parents; the parent towards a
    /// child since 11.1 build 51, the lower IP before).
    pub initiator: String,
    /// Why that site initiates.
    pub initiator_rule: String,
    /// Packets from `a` to `b`.
    pub a_to_b: DirectionView,
    /// Packets from `b` to `a`.
    pub b_to_a: DirectionView,
    /// Overall: ACTIVE both ways, DOWN both ways, otherwise INACTIVE (one-way).
    pub status: MepStatus,
    /// Last measured round-trip time (ms), while up.
    pub rtt_ms: Option<f64>,
}

/// A GSLB domain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DomainView {
    /// Domain name.
    pub name: String,
    /// Configured method.
    pub method: GslbMethod,
    /// TTL of answers (s).
    pub ttl_s: u32,
}

/// A client location for static proximity and RTT (e.g. a region of LDNS addresses).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientLocationView {
    /// Name (`Europe`).
    pub name: String,
    /// Address range, as text (`192.0.2.0/24`).
    pub network: String,
    /// An address inside it, for the resolve panel.
    pub sample_ip: String,
    /// The site nearest to it (static proximity).
    pub nearest_site: Option<String>,
}

/// How a query was (or would be) answered, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResolutionView {
    /// The domain asked.
    pub domain: String,
    /// The client address.
    pub client: String,
    /// The client's location, if the address falls in one.
    pub client_location: Option<String>,
    /// What came out.
    pub outcome: ResolveOutcome,
    /// The parent whose ADNS answered.
    pub answered_by: Option<String>,
    /// The configured method, if the domain is known.
    pub method: Option<GslbMethod>,
    /// The method actually used (round robin while MEP is down).
    pub effective_method: Option<GslbMethod>,
    /// Service IPs returned.
    pub ips: Vec<String>,
    /// TTL of the answer (s).
    pub ttl_s: u32,
    /// Why: the answering parent, the fall-back, the comparison.
    pub reason: String,
    /// Every service considered, with its metric.
    pub candidates: Vec<CandidateView>,
}

/// Outcome of a query.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResolveOutcome {
    /// Answered with at least one address.
    Answered,
    /// Not a configured GSLB domain (REFUSED).
    NotOurs,
    /// No parent up, or no service up (SERVFAIL).
    Unavailable,
}

/// A service considered for an answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CandidateView {
    /// Site of the service.
    pub site: String,
    /// Service name.
    pub service: String,
    /// IP.
    pub ip: String,
    /// Up for ADNS.
    pub up: bool,
    /// The metric compared (connections, RTT in ms, proximity rank), if the method uses one.
    pub metric: Option<f64>,
    /// Returned in the answer.
    pub chosen: bool,
}

/// One step of a guided replay of a documented scenario (SPEC §3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GuidedStep {
    /// Simulated instant of the step (ms since the start of the replay).
    pub at_ms: u64,
    /// What is done or observed (`P1-P2 link cut`).
    pub title: String,
    /// What the documentation says should follow.
    pub expected: String,
    /// Events of the engine from this step to the next.
    pub events: Vec<Event>,
    /// The topology at the end of the step.
    pub topology: TopologyView,
}

/// A guided replay of one of the documented scenarios on its documented topology.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GuidedReplay {
    /// Scenario number (1, 2 or 3).
    pub number: u8,
    /// Title.
    pub title: String,
    /// The documented topology as CLI text.
    pub cli: String,
    /// Steps in order.
    pub steps: Vec<GuidedStep>,
}
