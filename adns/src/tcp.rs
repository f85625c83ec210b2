//! Serving TCP (RFC 7766): one task per connection, messages framed by a 2-byte
//! big-endian length, any number of queries per connection answered in order, and
//! the connection closed after an idle period or a framing error.

use std::collections::HashMap;
use std::convert::Infallible;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;

use crate::message::{self, Incoming};
use crate::{Resolver, Transport};

/// Open connections past which new ones are closed at once.
pub const MAX_CONNECTIONS: usize = 1024;

/// Open connections one source address may hold; past it, its new ones are closed at once
/// (so one client cannot take every slot and keep other clients out until its idle
/// connections time out).
pub const MAX_CONNECTIONS_PER_ADDRESS: usize = 64;

/// Pause after a failed `accept` (e.g. out of file descriptors), so that the loop
/// does not spin.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// Accepts connections on `listener` and serves each until it closes or idles out.
/// Dropping the returned future closes every connection.
pub(crate) async fn serve<R: Resolver>(
    listener: TcpListener,
    resolver: Arc<R>,
    idle_timeout: Duration,
) -> io::Result<Infallible> {
    let mut connections = JoinSet::new();
    let mut per_address: HashMap<IpAddr, usize> = HashMap::new();
    loop {
        tokio::select! {
            Some(finished) = connections.join_next(), if !connections.is_empty() => {
                match finished {
                    Ok(ip) => release(&mut per_address, ip),
                    Err(error) => tracing::error!(%error, "dns tcp connection task failed"),
                }
            }
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let held = per_address.get(&peer.ip()).copied().unwrap_or(0);
                    if connections.len() >= MAX_CONNECTIONS {
                        tracing::warn!(%peer, "too many dns tcp connections, closing");
                    } else if held >= MAX_CONNECTIONS_PER_ADDRESS {
                        tracing::warn!(%peer, "too many dns tcp connections from this address, closing");
                    } else {
                        per_address.insert(peer.ip(), held + 1);
                        let resolver = resolver.clone();
                        connections.spawn(async move {
                            connection(stream, peer, resolver, idle_timeout).await;
                            peer.ip()
                        });
                    }
                }
                Err(error) => {
                    tracing::warn!(%error, "dns tcp accept");
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                }
            },
        }
    }
}

/// One connection of `ip` ended.
fn release(per_address: &mut HashMap<IpAddr, usize>, ip: IpAddr) {
    if let Some(held) = per_address.get_mut(&ip) {
        *held = held.saturating_sub(1);
        if *held == 0 {
            per_address.remove(&ip);
        }
    }
}

async fn connection<R: Resolver>(
    mut stream: TcpStream,
    peer: SocketAddr,
    resolver: Arc<R>,
    idle_timeout: Duration,
) {
    if let Err(error) = stream.set_nodelay(true) {
        tracing::debug!(%peer, %error, "set_nodelay");
    }
    let mut request = Vec::new();
    let mut body = Vec::new();
    let mut frame = Vec::new();
    loop {
        match tokio::time::timeout(idle_timeout, read_frame(&mut stream, &mut request)).await {
            Ok(Ok(true)) => {}
            Ok(Ok(false)) => return,
            Ok(Err(error)) => {
                tracing::debug!(%peer, %error, "dns tcp read");
                return;
            }
            Err(_) => {
                tracing::debug!(%peer, "dns tcp connection idle, closing");
                return;
            }
        }
        let mut response = match message::decode(&request, peer, Transport::Tcp) {
            Incoming::Query(question, response) => {
                response.complete(resolver.resolve(question).await)
            }
            Incoming::Immediate(response) => response,
            Incoming::Drop => continue,
        };
        if let Err(error) = response.encode(Transport::Tcp, &mut body) {
            tracing::warn!(%peer, %error, "could not encode a response");
            continue;
        }
        let Ok(len) = u16::try_from(body.len()) else {
            continue;
        };
        frame.clear();
        frame.extend_from_slice(&len.to_be_bytes());
        frame.extend_from_slice(&body);
        if let Err(error) = stream.write_all(&frame).await {
            tracing::debug!(%peer, %error, "dns tcp write");
            return;
        }
    }
}

/// Reads one length-prefixed message into `buf`; `false` on a clean end of stream.
async fn read_frame(stream: &mut TcpStream, buf: &mut Vec<u8>) -> io::Result<bool> {
    let mut len = [0_u8; 2];
    match stream.read_exact(&mut len).await {
        Ok(_) => {}
        Err(error) if error.kind() == io::ErrorKind::UnexpectedEof => return Ok(false),
        Err(error) => return Err(error),
    }
    buf.clear();
    buf.resize(usize::from(u16::from_be_bytes(len)), 0);
    stream.read_exact(buf).await?;
    Ok(true)
}
