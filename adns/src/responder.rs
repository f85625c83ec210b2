//! [`Responder`]: binds the sockets, then runs the UDP workers and the TCP
//! acceptor until shutdown.

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::{TcpListener, UdpSocket};
use tokio::task::JoinSet;

use crate::{tcp, udp, Resolver};

/// How long a TCP connection may stay without a complete query before it is closed.
pub const DEFAULT_TCP_IDLE_TIMEOUT: Duration = Duration::from_secs(10);

/// Attempts at finding a port free for both UDP and TCP when binding port 0.
const BIND_ATTEMPTS: usize = 16;

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;
type Serve = Box<dyn FnOnce(Sockets, BoxFuture<()>) -> BoxFuture<io::Result<()>> + Send>;

/// The bound sockets and settings handed to the serving loop.
struct Sockets {
    udp: UdpSocket,
    tcp: TcpListener,
    tcp_idle_timeout: Duration,
}

/// A bound responder: UDP and TCP on the same address, not yet serving.
///
/// The resolver's type is erased at [`Responder::bind`] (one boxed closure per
/// responder, nothing per query), so the type names no generic parameter.
pub struct Responder {
    sockets: Sockets,
    local_addr: SocketAddr,
    serve: Serve,
}

impl std::fmt::Debug for Responder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Responder")
            .field("local_addr", &self.local_addr)
            .field("tcp_idle_timeout", &self.sockets.tcp_idle_timeout)
            .finish_non_exhaustive()
    }
}

impl Responder {
    /// Binds UDP and TCP on the same address (port 0 = any free port, same port for both).
    pub async fn bind<R: Resolver>(addr: SocketAddr, resolver: Arc<R>) -> io::Result<Responder> {
        let (udp, tcp) = bind_pair(addr).await?;
        let local_addr = udp.local_addr()?;
        let serve: Serve = Box::new(
            move |sockets: Sockets, shutdown: BoxFuture<()>| -> BoxFuture<io::Result<()>> {
                Box::pin(serve(sockets, resolver, shutdown))
            },
        );
        Ok(Responder {
            sockets: Sockets {
                udp,
                tcp,
                tcp_idle_timeout: DEFAULT_TCP_IDLE_TIMEOUT,
            },
            local_addr,
            serve,
        })
    }

    /// Sets how long a TCP connection may stay without a complete query before it
    /// is closed (default [`DEFAULT_TCP_IDLE_TIMEOUT`]).
    #[must_use]
    pub fn tcp_idle_timeout(mut self, timeout: Duration) -> Self {
        self.sockets.tcp_idle_timeout = timeout;
        self
    }

    /// The address both sockets are bound to (with the port chosen when binding port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// Serves until `shutdown` resolves, then closes the sockets and every TCP
    /// connection and returns `Ok(())`. Returns early with the error if a socket
    /// fails beyond recovery. Must be called within a tokio runtime.
    pub async fn run(self, shutdown: impl Future<Output = ()> + Send + 'static) -> io::Result<()> {
        (self.serve)(self.sockets, Box::pin(shutdown)).await
    }
}

async fn bind_pair(addr: SocketAddr) -> io::Result<(UdpSocket, TcpListener)> {
    let mut last_error = None;
    for _ in 0..BIND_ATTEMPTS {
        let udp = UdpSocket::bind(addr).await?;
        let bound = udp.local_addr()?;
        match TcpListener::bind(bound).await {
            Ok(tcp) => return Ok((udp, tcp)),
            // The port the kernel gave UDP is taken for TCP: try another one.
            Err(error) if addr.port() == 0 && error.kind() == io::ErrorKind::AddrInUse => {
                last_error = Some(error);
            }
            Err(error) => return Err(error),
        }
    }
    Err(last_error.unwrap_or_else(|| io::Error::other("no free port for udp and tcp")))
}

async fn serve<R: Resolver>(
    sockets: Sockets,
    resolver: Arc<R>,
    shutdown: BoxFuture<()>,
) -> io::Result<()> {
    let udp = Arc::new(sockets.udp);
    let mut tasks: JoinSet<io::Result<Infallible>> = JoinSet::new();
    for _ in 0..udp_workers() {
        tasks.spawn(udp::serve(udp.clone(), resolver.clone()));
    }
    tasks.spawn(tcp::serve(sockets.tcp, resolver, sockets.tcp_idle_timeout));
    let outcome = tokio::select! {
        () = shutdown => Ok(()),
        Some(stopped) = tasks.join_next() => match stopped {
            Ok(Err(error)) => Err(error),
            Ok(Ok(never)) => match never {},
            Err(error) => Err(io::Error::other(error)),
        },
    };
    tasks.shutdown().await;
    outcome
}

/// One UDP worker per core: each can keep a core busy decoding and encoding.
fn udp_workers() -> usize {
    std::thread::available_parallelism().map_or(2, usize::from)
}
