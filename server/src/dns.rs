//! The ADNS responder of `serve`: real DNS queries (UDP and TCP) answered from the live GSLB
//! topology. The wire format is the `adns` crate's (hickory-proto); the answer is the GSLB
//! engine's, through the runtime, so a query advances the live round robin and is logged as
//! an `adns.answered` event like anything else the engines do.

use std::net::SocketAddr;

use adns::{QueryKind, Question, Reply, Resolver, Responder, Zone};
use engine::gslb::config::DomainConfig;
use engine::gslb::views::{ResolutionView, ResolveOutcome};
use services::runtime::RuntimeHandle;

/// Answers from the live simulation.
#[derive(Clone, Debug)]
pub struct LiveTopology {
    runtime: RuntimeHandle,
}

impl LiveTopology {
    /// A resolver over the runtime.
    pub fn new(runtime: RuntimeHandle) -> LiveTopology {
        LiveTopology { runtime }
    }
}

/// The DNS reply for the engine's resolution of `name`. A name the engine does not serve is
/// NXDOMAIN when it lies under one of the GSLB domains (`zone`), REFUSED otherwise.
pub fn reply_for(name: &str, resolution: &ResolutionView, zone: Option<Zone>) -> Reply {
    match resolution.outcome {
        ResolveOutcome::NotOurs => match zone {
            Some(zone) => Reply::NxDomain { zone },
            None => Reply::NotOurs,
        },
        ResolveOutcome::Unavailable => Reply::Unavailable,
        ResolveOutcome::Answered => Reply::Answer {
            addrs: resolution
                .ips
                .iter()
                .filter_map(|ip| ip.parse().ok())
                .collect(),
            ttl_s: resolution.ttl_s,
            zone: Zone {
                apex: name.to_owned(),
                negative_ttl_s: resolution.ttl_s,
            },
        },
    }
}

/// Where `name` stands among the GSLB `domains`: each domain is the apex of its own zone
/// (delegated to the ADNS, as the GSLB domains of an ADC are), with the domain's TTL as the
/// negative-caching TTL of its SOA (assumed). `Some((zone, true))` for an apex itself,
/// `Some((zone, false))` for a name under one (the deepest), `None` for a name outside them all.
pub fn zone_of<'a>(
    name: &str,
    domains: impl IntoIterator<Item = &'a DomainConfig>,
) -> Option<(Zone, bool)> {
    let name = name.trim_end_matches('.');
    domains
        .into_iter()
        .filter_map(|d| {
            let apex = d.name.trim_end_matches('.');
            let exact = name.eq_ignore_ascii_case(apex);
            // `<labels>.<apex>`, compared as bytes (no char boundary to respect).
            let under = name
                .len()
                .checked_sub(apex.len() + 1)
                .filter(|&dot| dot > 0)
                .is_some_and(|dot| {
                    let (_, tail) = name.as_bytes().split_at(dot);
                    tail[0] == b'.' && tail[1..].eq_ignore_ascii_case(apex.as_bytes())
                });
            (exact || under).then_some((apex, d.ttl_s, exact))
        })
        .max_by_key(|(apex, _, _)| apex.len())
        .map(|(apex, ttl, exact)| {
            let zone = Zone {
                apex: apex.to_ascii_lowercase(),
                negative_ttl_s: ttl,
            };
            (zone, exact)
        })
}

impl LiveTopology {
    /// The zone `name` belongs to (see [`zone_of`]), read from the live configuration.
    async fn zone(&self, name: &str) -> Result<Option<(Zone, bool)>, ()> {
        let name = name.to_owned();
        self.runtime
            .query(move |sim| zone_of(&name, &sim.gslb().config().domains))
            .await
            .map_err(|_| ())
    }
}

impl Resolver for LiveTopology {
    async fn resolve(&self, question: Question) -> Reply {
        let name = question.name;
        match question.kind {
            QueryKind::A | QueryKind::Aaaa | QueryKind::Any => {
                let resolution = match self.runtime.resolve_dns(&name, question.client.ip()).await {
                    Ok(resolution) => resolution,
                    Err(_) => return Reply::Unavailable,
                };
                if resolution.outcome != ResolveOutcome::NotOurs {
                    return reply_for(&name, &resolution, None);
                }
                match self.zone(&name).await {
                    Ok(zone) => reply_for(&name, &resolution, zone.map(|(zone, _)| zone)),
                    Err(()) => Reply::Unavailable,
                }
            }
            // Other record types: a domain has only addresses (NODATA), a name under one
            // does not exist (NXDOMAIN).
            QueryKind::Other(_) => match self.zone(&name).await {
                Ok(Some((zone, true))) => Reply::NoData { zone },
                Ok(Some((zone, false))) => Reply::NxDomain { zone },
                Ok(None) => Reply::NotOurs,
                Err(()) => Reply::Unavailable,
            },
        }
    }
}

/// Binds the responder on `addr` (UDP and TCP) and serves it in the background until
/// `shutdown` resolves; returns the bound address.
pub async fn start(
    addr: SocketAddr,
    runtime: RuntimeHandle,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<SocketAddr> {
    let responder = Responder::bind(addr, std::sync::Arc::new(LiveTopology::new(runtime))).await?;
    let local = responder.local_addr();
    tokio::spawn(async move {
        if let Err(e) = responder.run(shutdown).await {
            tracing::error!(error = %e, "the DNS responder stopped");
        }
    });
    Ok(local)
}
