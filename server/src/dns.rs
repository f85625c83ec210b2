//! The ADNS responder of `serve`: real DNS queries (UDP and TCP) answered from the live GSLB
//! topology. The wire format is the `adns` crate's (hickory-proto); the answer is the GSLB
//! engine's, through the runtime, so a query advances the live round robin and is logged as
//! an `adns.answered` event like anything else the engines do.

use std::net::SocketAddr;

use adns::{QueryKind, Question, Reply, Resolver, Responder};
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

/// The DNS reply for the engine's resolution.
pub fn reply_for(resolution: &ResolutionView) -> Reply {
    match resolution.outcome {
        ResolveOutcome::NotOurs => Reply::NotOurs,
        ResolveOutcome::Unavailable => Reply::Unavailable,
        ResolveOutcome::Answered => Reply::Answer {
            addrs: resolution
                .ips
                .iter()
                .filter_map(|ip| ip.parse().ok())
                .collect(),
            ttl_s: resolution.ttl_s,
        },
    }
}

impl Resolver for LiveTopology {
    async fn resolve(&self, question: Question) -> Reply {
        let name = question.name;
        match question.kind {
            QueryKind::A | QueryKind::Aaaa | QueryKind::Any => {
                match self.runtime.resolve_dns(&name, question.client.ip()).await {
                    Ok(resolution) => reply_for(&resolution),
                    Err(_) => Reply::Unavailable,
                }
            }
            // Other record types: the name is ours but only has addresses.
            QueryKind::Other(_) => {
                let known = self
                    .runtime
                    .query(move |sim| sim.gslb().is_domain(&name))
                    .await;
                match known {
                    Ok(true) => Reply::NoRecords,
                    Ok(false) => Reply::NotOurs,
                    Err(_) => Reply::Unavailable,
                }
            }
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
