//! `adns`: an authoritative DNS responder, over UDP and TCP, for the GSLB domains
//! of the simulated topology.
//!
//! The crate knows nothing about the simulation. The server binary implements
//! [`Resolver`]: given a [`Question`] (lower-cased name, record kind, client
//! address, transport) it returns a [`Reply`], which the responder turns into a
//! DNS response:
//!
//! | [`Reply`]              | RCODE    | AA  | answer section                              | authority section |
//! |------------------------|----------|-----|---------------------------------------------|-------------------|
//! | [`Reply::Answer`]      | NOERROR  | yes | A / AAAA records filtered by the query kind | the zone's SOA if no record is left (NODATA) |
//! | [`Reply::NoData`]      | NOERROR  | yes | empty                                       | the zone's SOA    |
//! | [`Reply::NxDomain`]    | NXDOMAIN | yes | empty                                       | the zone's SOA    |
//! | [`Reply::NotOurs`]     | REFUSED  | no  | empty                                       | empty             |
//! | [`Reply::Unavailable`] | SERVFAIL | no  | empty                                       | empty             |
//!
//! Negative answers (NODATA, NXDOMAIN) carry the SOA of the zone so that resolvers cache
//! them for the zone's negative TTL (RFC 2308); see [`Zone`].
//!
//! Every response echoes the id, the opcode, the RD and CD bits and the first
//! question; a request with an OPT record gets one back (EDNS version 0, payload
//! 1232). Requests the resolver never sees: a packet shorter than a header or
//! that is itself a response is dropped; one that does not parse gets FORMERR; an
//! opcode other than QUERY gets NOTIMP; an EDNS version above 0 gets BADVERS; a
//! class other than IN (or ANY) gets REFUSED. Only the first question of a
//! message is answered. Over UDP, a response larger than the client's limit
//! (512 bytes, or its EDNS size up to 1232) goes out with TC set and no answers,
//! so that the client retries over TCP.
//!
//! # Design
//!
//! hickory-proto does all parsing and encoding of DNS messages; this crate only
//! moves bytes and decides what goes into a response (`message.rs`). The request
//! message is reused as the response, so a query costs few allocations.
//!
//! - UDP (`udp.rs`): one socket read by one worker task per core. A worker keeps
//!   the resolutions of many queries in flight in a `FuturesUnordered` (no task
//!   spawned per query) and sends each response from a reused buffer.
//! - TCP (`tcp.rs`): one task per connection, 2-byte length framing, queries
//!   answered in order, the connection closed after
//!   [`DEFAULT_TCP_IDLE_TIMEOUT`] without a complete query.
//! - [`Responder`] (`responder.rs`) binds both sockets on one port and runs the
//!   tasks until the shutdown future resolves.
//!
//! ```no_run
//! use std::sync::Arc;
//! use adns::{Question, Reply, Resolver, Responder, Zone};
//!
//! struct Fixed;
//!
//! impl Resolver for Fixed {
//!     async fn resolve(&self, question: Question) -> Reply {
//!         if question.name == "apps.example.com" {
//!             let zone = Zone { apex: question.name, negative_ttl_s: 5 };
//!             Reply::Answer { addrs: vec![[192, 0, 2, 10].into()], ttl_s: 5, zone }
//!         } else {
//!             Reply::NotOurs
//!         }
//!     }
//! }
//!
//! # async fn example() -> std::io::Result<()> {
//! let responder = Responder::bind(([127, 0, 0, 1], 5353).into(), Arc::new(Fixed)).await?;
//! println!("dns on {}", responder.local_addr());
//! responder.run(async { let _ = tokio::signal::ctrl_c().await; }).await
//! # }
//! ```

mod message;
mod question;
mod responder;
mod tcp;
mod udp;

pub use question::{QueryKind, Question, Reply, Resolver, Transport, Zone};
pub use responder::{Responder, DEFAULT_TCP_IDLE_TIMEOUT};
pub use tcp::{MAX_CONNECTIONS, MAX_CONNECTIONS_PER_ADDRESS};
