//! The payloads of the most frequent load-management events, written straight to JSON text
//! ([`Details::of`](crate::event::Details::of)): a placement per logon and, per zone and
//! sample interval, the pushes, the ended sessions and the load sample.
//!
//! Fields are declared in alphabetical order and maps are keyed by borrowed names in a
//! `BTreeMap`, so each line is byte for byte the one a `json!` tree of the same keys wrote.

use core::net::Ipv4Addr;
use std::collections::BTreeMap;

use serde::Serialize;

/// `session.placed`: where a launch went and the loads it compared.
#[derive(Serialize)]
pub(crate) struct Placed<'a> {
    pub app: &'a str,
    pub candidates: &'a [Candidate<'a>],
    pub chosen: &'a str,
    pub client_ip: Ipv4Addr,
    pub considered: u32,
    /// Only when some server was excluded (most placements on a healthy farm: none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub excluded: Option<Excluded>,
    pub load_after: u32,
    pub mode: &'static str,
    pub user: &'a str,
}

/// One of the least-loaded candidates a placement compared.
#[derive(Serialize)]
pub(crate) struct Candidate<'a> {
    pub host: &'a str,
    pub load: u32,
}

/// Why servers publishing the application were not candidates.
#[derive(Copy, Clone, Serialize)]
pub(crate) struct Excluded {
    pub down: u32,
    pub full: u32,
    pub ip_range: u32,
    pub no_collector: u32,
}

impl Excluded {
    /// Whether no server was excluded.
    pub(crate) fn is_none(&self) -> bool {
        self.down + self.full + self.ip_range + self.no_collector == 0
    }
}

/// `session.rejected`: no candidate for a launch.
#[derive(Serialize)]
pub(crate) struct Rejected<'a> {
    pub client_ip: Ipv4Addr,
    pub excluded: Excluded,
    pub reason: &'static str,
    pub user: &'a str,
}

/// `load.pushed`: the members of a zone that pushed since the last sample.
#[derive(Serialize)]
pub(crate) struct Pushes<'a> {
    pub pushes: BTreeMap<&'a str, Pushed>,
}

/// One member's pushes since the last sample.
#[derive(Serialize)]
pub(crate) struct Pushed {
    /// Pushes because the load moved by more than the delta.
    pub delta: u32,
    /// The load the collector held before the first of them.
    pub from: Option<u32>,
    /// The load it holds now.
    pub load: Option<u32>,
    /// Pushes the collector asked for.
    pub requested: u32,
    /// The server's true load.
    pub true_load: u32,
}

/// `sessions.ended`: the members of a zone with logoffs or disconnections since the last
/// sample.
#[derive(Serialize)]
pub(crate) struct Ended<'a> {
    pub servers: BTreeMap<&'a str, EndedOn>,
}

/// One member's ended and disconnected sessions.
#[derive(Serialize)]
pub(crate) struct EndedOn {
    pub count: u32,
    pub disconnected: u32,
    pub load_after: u32,
}

/// `load.sample`: the members of a zone whose sessions or loads changed.
#[derive(Serialize)]
pub(crate) struct Sample<'a> {
    pub servers: BTreeMap<&'a str, ServerSample>,
}

/// One member's sessions, loads and non-zero rule loads (keyed by rule code).
#[derive(Serialize)]
pub(crate) struct ServerSample {
    pub connected: u32,
    pub dc_load: Option<u32>,
    pub disconnected: u32,
    pub load: u32,
    pub rules: BTreeMap<char, f64>,
}
