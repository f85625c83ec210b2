//! The contract between the responder and the live topology: what was asked
//! ([`Question`]), what to answer ([`Reply`]) and who answers ([`Resolver`]).

use std::future::Future;
use std::net::{IpAddr, SocketAddr};

/// One question the responder received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    /// The queried name, lower-case, without the trailing dot (`apps.example.com`).
    /// Bytes outside printable ASCII are escaped as hickory does (`\DDD`).
    pub name: String,
    /// The record type asked for.
    pub kind: QueryKind,
    /// The address and port the query came from.
    pub client: SocketAddr,
    /// The transport the query came over.
    pub transport: Transport,
}

/// The record type of a [`Question`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QueryKind {
    /// IPv4 address records.
    A,
    /// IPv6 address records.
    Aaaa,
    /// `ANY` (type 255): answered with both A and AAAA records.
    Any,
    /// Any other type, by its numeric code (e.g. 15 for MX). An [`Reply::Answer`]
    /// to it carries no records (NOERROR, empty answer section).
    Other(u16),
}

/// The transport a [`Question`] arrived on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Transport {
    /// A UDP datagram.
    Udp,
    /// A TCP connection (2-byte length framing).
    Tcp,
}

/// What the live topology answers to a [`Question`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// NOERROR with these addresses (A records for IPv4, AAAA for IPv6, filtered
    /// by the query kind) and this TTL. No address left after filtering is a NODATA
    /// answer, as [`Reply::NoData`] gives.
    Answer {
        /// The addresses to answer, in this order.
        addrs: Vec<IpAddr>,
        /// Time to live of every record, in seconds.
        ttl_s: u32,
        /// The zone the name is the apex of (its SOA goes with a NODATA answer).
        zone: Zone,
    },
    /// NODATA: the name exists but has no record of the asked type (e.g. AAAA asked,
    /// only IPv4 services; MX asked): NOERROR, no answers, the zone's SOA in the
    /// authority section (RFC 2308).
    NoData {
        /// The zone the name belongs to.
        zone: Zone,
    },
    /// NXDOMAIN: the name is inside one of our zones but does not exist (e.g.
    /// `www.apps.example.com` under the zone `apps.example.com`); the zone's SOA in
    /// the authority section (RFC 2308).
    NxDomain {
        /// The zone the name would belong to.
        zone: Zone,
    },
    /// The name is in none of our zones: REFUSED.
    NotOurs,
    /// A configured domain but no parent site is up / no service available: SERVFAIL.
    Unavailable,
}

/// A zone this responder is authoritative for, as far as negative answers need it: the SOA
/// record that goes into their authority section.
///
/// The SOA is `<apex> SOA ns1.<apex>. hostmaster.<apex>. 1 3600 600 86400 <negative_ttl_s>`
/// with a record TTL of `negative_ttl_s`, so that resolvers cache the negative answer for
/// `negative_ttl_s` seconds (RFC 2308 §5: the lesser of the SOA's TTL and its MINIMUM).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Zone {
    /// The zone's apex, lower-case, without the trailing dot (`apps.example.com`).
    pub apex: String,
    /// How long resolvers may cache a negative answer, in seconds.
    pub negative_ttl_s: u32,
}

/// The source of answers (implemented by the server binary over the live simulation).
///
/// `resolve` is called once per well-formed query, concurrently for many queries,
/// so it should be quick; the responder keeps serving other queries while one
/// resolution waits.
pub trait Resolver: Send + Sync + 'static {
    /// Answers one question.
    fn resolve(&self, question: Question) -> impl Future<Output = Reply> + Send;
}

impl QueryKind {
    /// Whether an answer to this kind carries a record for `addr`.
    pub fn wants(self, addr: IpAddr) -> bool {
        match self {
            Self::A => addr.is_ipv4(),
            Self::Aaaa => addr.is_ipv6(),
            Self::Any => true,
            Self::Other(_) => false,
        }
    }
}
