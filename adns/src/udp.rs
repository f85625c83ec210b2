//! Serving UDP: several worker tasks share one socket. Each worker receives a
//! datagram, decodes it and pushes the resolution into its own set of in-flight
//! futures (no task spawned per query), then sends each response as it is ready.

use std::convert::Infallible;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use futures::stream::{FuturesUnordered, StreamExt};
use tokio::net::UdpSocket;

use crate::message::{self, Incoming, Response};
use crate::{Resolver, Transport};

/// Queries one worker resolves at once; past that it stops reading the socket
/// until one completes (the kernel buffer, then dropped datagrams, absorb bursts).
const MAX_IN_FLIGHT: usize = 1024;

/// Largest datagram read: a DNS message over UDP fits in 64 KiB; a longer one is
/// cut by the kernel and then answered FORMERR.
const RECV_BUFFER: usize = 65_535;

/// Serves queries from `socket` until an unrecoverable socket error.
pub(crate) async fn serve<R: Resolver>(
    socket: Arc<UdpSocket>,
    resolver: Arc<R>,
) -> io::Result<Infallible> {
    let resolver = &*resolver;
    let mut recv_buf = vec![0_u8; RECV_BUFFER];
    let mut send_buf = Vec::with_capacity(usize::from(message::MAX_UDP_PAYLOAD));
    let mut in_flight = FuturesUnordered::new();
    loop {
        tokio::select! {
            biased;
            Some((response, peer)) = in_flight.next(), if !in_flight.is_empty() => {
                send(&socket, response, peer, &mut send_buf).await;
            }
            received = socket.recv_from(&mut recv_buf), if in_flight.len() < MAX_IN_FLIGHT => {
                let (len, peer) = match received {
                    Ok(received) => received,
                    Err(error) if is_transient(&error) => {
                        tracing::debug!(%error, "udp receive");
                        continue;
                    }
                    Err(error) => return Err(error),
                };
                let bytes = recv_buf.get(..len).unwrap_or_default();
                match message::decode(bytes, peer, Transport::Udp) {
                    Incoming::Query(question, response) => in_flight.push(async move {
                        (response.complete(resolver.resolve(question).await), peer)
                    }),
                    Incoming::Immediate(response) => {
                        send(&socket, response, peer, &mut send_buf).await;
                    }
                    Incoming::Drop => {}
                }
            }
        }
    }
}

async fn send(socket: &UdpSocket, mut response: Response, peer: SocketAddr, buf: &mut Vec<u8>) {
    if let Err(error) = response.encode(Transport::Udp, buf) {
        tracing::warn!(%peer, %error, "could not encode a response");
        return;
    }
    if let Err(error) = socket.send_to(buf, peer).await {
        tracing::debug!(%peer, %error, "udp send");
    }
}

/// Errors a UDP socket reports about one peer (ICMP unreachable and the like),
/// after which it keeps working.
fn is_transient(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::Interrupted
            | io::ErrorKind::WouldBlock
            | io::ErrorKind::HostUnreachable
            | io::ErrorKind::NetworkUnreachable
    )
}
