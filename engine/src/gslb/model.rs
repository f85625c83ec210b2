//! The engine's state types: sites and their services, the receiver's view of one MEP
//! direction, children, timers, adoption decisions and client locations.

use core::net::IpAddr;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::net::Network;
use super::version::SoftwareVersion;
use crate::gslb::config::SiteRole;

/// What the receiver of a MEP direction believes about the sender.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Seen {
    /// Packets arrive (or arrived within the keep-alive timeout).
    Up,
    /// No packet for the keep-alive timeout.
    Down,
    /// The receiver has just started (or the connection is new) and has not heard yet.
    Unknown,
}

impl Seen {
    /// `"up"`, `"down"` or `"unknown"` (event details).
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Seen::Up => "up",
            Seen::Down => "down",
            Seen::Unknown => "unknown",
        }
    }
}

/// The receiver's view of one direction of a MEP link, and the flip it is waiting for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Dir {
    /// The current view.
    pub(crate) seen: Seen,
    /// Since when (ms) the view holds.
    pub(crate) since: u64,
    /// A scheduled flip: (when, to up?). Present only while the view differs from what the
    /// direction delivers.
    pub(crate) pending: Option<(u64, bool)>,
}

impl Dir {
    /// Seen up since `t`, nothing pending.
    pub(crate) fn up(t: u64) -> Dir {
        Dir {
            seen: Seen::Up,
            since: t,
            pending: None,
        }
    }

    /// Not heard yet, since `t`.
    pub(crate) fn unknown(t: u64) -> Dir {
        Dir {
            seen: Seen::Unknown,
            since: t,
            pending: None,
        }
    }
}

/// One service of a site.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Service {
    pub(crate) name: String,
    /// The IP returned in answers (public IP when set).
    pub(crate) answer_ip: IpAddr,
    pub(crate) port: u16,
    pub(crate) monitor: bool,
    /// Connection model: seeded connections already open at the start.
    pub(crate) base: u32,
    /// Clients this engine's answers sent to the service (one connection each).
    pub(crate) answers: u32,
}

/// One site (parents first, then children, each in configuration order).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Site {
    pub(crate) name: String,
    pub(crate) ip: IpAddr,
    pub(crate) public_ip: Option<IpAddr>,
    pub(crate) role: SiteRole,
    pub(crate) version_text: String,
    pub(crate) version: SoftwareVersion,
    /// Effective location (configured or derived).
    pub(crate) location: String,
    pub(crate) up: bool,
    /// When the site last changed state or parent (ms).
    pub(crate) since: u64,
    pub(crate) services: Vec<Service>,
}

/// A child's connection state.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Child {
    /// Its configured parent (parent index).
    pub(crate) original: u16,
    /// The parent holding its MEP connection now, `None` while orphaned.
    pub(crate) current: Option<u16>,
    /// Current parent → child: the child's view of its parent.
    pub(crate) sees_parent: Dir,
    /// Child → current parent: the parent's view of the child.
    pub(crate) parent_sees: Dir,
    /// The backup list it last received (parent indexes).
    pub(crate) backups: Vec<u16>,
    /// An adopted child's services learn until this instant (ms); cleared by its timer.
    pub(crate) learning_until: Option<u64>,
}

/// A scheduled piece of work. The derived order is the processing order at one instant.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub(crate) enum Timer {
    /// Parent `receiver`'s view of parent `sender` flips.
    Peer { receiver: u16, sender: u16 },
    /// A child's view of its current parent flips.
    ChildSees { child: u16 },
    /// The current parent's view of a child flips.
    ParentSees { child: u16 },
    /// An adopted child's learning time ends.
    LearningEnds { child: u16 },
    /// An adoption (or return) request of `parent` reaches `child`.
    Offer { parent: u16, child: u16 },
}

/// What a parent decided about the children of a parent it sees DOWN.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Decision {
    /// It is the highest-preference backup it sees up: it adopts.
    Adopt,
    /// A preferred backup (this parent index) is up from its view: it leaves them to it.
    Defer(u16),
    /// No backup it can count on (e.g. itself on a release without backup parents).
    Nobody,
}

/// A client location (configured or derived).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct ClientLoc {
    pub(crate) name: String,
    pub(crate) network: Network,
    pub(crate) location: String,
    /// RTT overrides by site index.
    pub(crate) rtt: BTreeMap<u16, u32>,
}

/// A domain with its resolved service list (site index, service index).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Domain {
    pub(crate) services: Vec<(u16, u16)>,
}
