//! Load client for an authoritative DNS server over UDP.
//!
//! ```text
//! cargo run --release -p adns --example dns_load -- --server 127.0.0.1:5353 \
//!     --name apps.example.com --seconds 5 --concurrency 64
//! cargo run --release -p adns --example dns_load -- --self-test
//! ```
//!
//! `--concurrency` queries are kept in flight, spread over `--sockets` connected
//! UDP sockets (one task each). Queries are encoded by hickory with a fresh id
//! each; a reply is matched by id and classified from its hickory-decoded header:
//! answered (NOERROR with at least one answer), NOERROR without answers, or its
//! RCODE. A query without a reply after `--timeout-ms` counts as a timeout and is
//! replaced. `--self-test` starts an in-process responder on a free loopback port,
//! with a resolver that answers every name with one A record, and loads it;
//! `--hop` makes that resolver go through another task for every query.
//!
//! Traffic only ever goes to the `--server` address given (loopback by default),
//! and the run stops by itself after `--seconds`.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use adns::{Question, Reply, Resolver, Responder, Zone};
use clap::{Parser, ValueEnum};
use hickory_proto::op::{Header, Message, Query, ResponseCode};
use hickory_proto::rr::{Name, RecordType};
use hickory_proto::serialize::binary::{BinDecodable, BinDecoder, BinEncodable, BinEncoder};
use tokio::net::UdpSocket;
use tokio::sync::oneshot;

/// Command line.
#[derive(Parser, Debug, Clone)]
#[command(about = "UDP load client for the adns responder")]
struct Args {
    /// Server to load.
    #[arg(long, default_value = "127.0.0.1:5353")]
    server: SocketAddr,
    /// Name to query.
    #[arg(long, default_value = "apps.example.com")]
    name: String,
    /// Record type to query.
    #[arg(long, value_enum, default_value_t = Kind::A)]
    kind: Kind,
    /// Duration of the run, in seconds.
    #[arg(long, default_value_t = 5.0)]
    seconds: f64,
    /// Queries in flight at once, over all sockets.
    #[arg(long, default_value_t = 64)]
    concurrency: usize,
    /// UDP sockets (and client tasks) sharing the load.
    #[arg(long, default_value_t = 4)]
    sockets: usize,
    /// A query without a reply for this long counts as a timeout.
    #[arg(long, default_value_t = 1000)]
    timeout_ms: u64,
    /// Start an in-process responder on a free loopback port and load it
    /// (`--server` is then ignored).
    #[arg(long)]
    self_test: bool,
    /// With `--self-test`: resolve through one other task (an mpsc request and a
    /// oneshot reply per query), the way a resolver over a runtime task would.
    #[arg(long, requires = "self_test")]
    hop: bool,
}

/// Record types the client can ask for.
#[derive(ValueEnum, Debug, Clone, Copy)]
enum Kind {
    A,
    Aaaa,
}

/// What one client task saw.
#[derive(Debug, Default, Clone, Copy)]
struct Counts {
    answered: u64,
    noerror_empty: u64,
    refused: u64,
    servfail: u64,
    other: u64,
    timeouts: u64,
    unmatched: u64,
    in_flight_at_end: u64,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, rhs: Self) {
        self.answered += rhs.answered;
        self.noerror_empty += rhs.noerror_empty;
        self.refused += rhs.refused;
        self.servfail += rhs.servfail;
        self.other += rhs.other;
        self.timeouts += rhs.timeouts;
        self.unmatched += rhs.unmatched;
        self.in_flight_at_end += rhs.in_flight_at_end;
    }
}

/// The resolver of `--self-test`: one A record for every name.
struct Trivial;

impl Resolver for Trivial {
    async fn resolve(&self, _question: Question) -> Reply {
        trivial_reply()
    }
}

fn trivial_reply() -> Reply {
    Reply::Answer {
        addrs: vec![[192, 0, 2, 1].into()],
        ttl_s: 30,
        zone: Zone {
            apex: "example.com".to_owned(),
            negative_ttl_s: 30,
        },
    }
}

/// The resolver of `--self-test --hop`: every question goes to one task and back.
struct Hop(tokio::sync::mpsc::Sender<oneshot::Sender<Reply>>);

impl Hop {
    fn start() -> Self {
        let (requests, mut incoming) = tokio::sync::mpsc::channel::<oneshot::Sender<Reply>>(1024);
        tokio::spawn(async move {
            while let Some(reply) = incoming.recv().await {
                let _ = reply.send(trivial_reply());
            }
        });
        Self(requests)
    }
}

impl Resolver for Hop {
    async fn resolve(&self, _question: Question) -> Reply {
        let (reply, answer) = oneshot::channel();
        if self.0.send(reply).await.is_err() {
            return Reply::Unavailable;
        }
        answer.await.unwrap_or(Reply::Unavailable)
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = Args::parse();
    if args.concurrency == 0
        || args.sockets == 0
        || !args.seconds.is_finite()
        || args.seconds <= 0.0
    {
        return Err("--concurrency, --sockets and --seconds must be positive".into());
    }
    if !args.self_test {
        report(&args, load(&args).await?);
        return Ok(());
    }
    let loopback = ([127, 0, 0, 1], 0).into();
    let responder = if args.hop {
        Responder::bind(loopback, Arc::new(Hop::start())).await?
    } else {
        Responder::bind(loopback, Arc::new(Trivial)).await?
    };
    args.server = responder.local_addr();
    println!("self-test: responder on {}", args.server);
    let (stop, stopped) = oneshot::channel::<()>();
    let serving = tokio::spawn(responder.run(async move {
        let _ = stopped.await;
    }));
    let outcome = load(&args).await;
    let _ = stop.send(());
    serving.await??;
    report(&args, outcome?);
    Ok(())
}

/// Runs the load for `--seconds` and adds up what every socket saw.
async fn load(args: &Args) -> Result<Counts, Box<dyn std::error::Error>> {
    let record_type = match args.kind {
        Kind::A => RecordType::A,
        Kind::Aaaa => RecordType::AAAA,
    };
    let mut query = Message::query();
    query.metadata.recursion_desired = false;
    query.add_query(Query::query(Name::from_ascii(&args.name)?, record_type));

    let sockets = args.sockets.min(args.concurrency);
    let deadline = Instant::now() + Duration::from_secs_f64(args.seconds);
    let timeout = Duration::from_millis(args.timeout_ms);
    let mut tasks = tokio::task::JoinSet::new();
    for index in 0..sockets {
        let window = args.concurrency / sockets + usize::from(index < args.concurrency % sockets);
        let socket = UdpSocket::bind(("127.0.0.1", 0)).await?;
        socket.connect(args.server).await?;
        tasks.spawn(client(socket, query.clone(), window, deadline, timeout));
    }
    let mut total = Counts::default();
    while let Some(counts) = tasks.join_next().await {
        total += counts??;
    }
    Ok(total)
}

/// The queries one socket has in flight.
struct Flight {
    query: Message,
    /// Send time by id, `None` when the id is free.
    sent_at: Vec<Option<Instant>>,
    /// `(id, send time)` in send order, for finding timeouts; entries already
    /// answered are skipped when they reach the front.
    order: VecDeque<(u16, Instant)>,
    next_id: u16,
    out: Vec<u8>,
}

impl Flight {
    fn new(query: Message, window: usize) -> Self {
        Self {
            query,
            sent_at: vec![None; usize::from(u16::MAX) + 1],
            order: VecDeque::with_capacity(window * 2),
            next_id: 0,
            out: Vec::with_capacity(512),
        }
    }

    /// Encodes the query with a free id and sends it.
    async fn send(&mut self, socket: &UdpSocket) -> std::io::Result<()> {
        while self.sent_at[usize::from(self.next_id)].is_some() {
            self.next_id = self.next_id.wrapping_add(1);
        }
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        self.query.metadata.id = id;
        self.out.clear();
        self.query
            .emit(&mut BinEncoder::new(&mut self.out))
            .map_err(std::io::Error::other)?;
        let now = Instant::now();
        self.sent_at[usize::from(id)] = Some(now);
        self.order.push_back((id, now));
        socket.send(&self.out).await.map(|_| ())
    }

    /// Whether `id` was in flight; it is not any more.
    fn land(&mut self, id: u16) -> bool {
        self.sent_at[usize::from(id)].take().is_some()
    }

    /// Forgets the queries sent `timeout` or longer ago; returns how many.
    fn expire(&mut self, now: Instant, timeout: Duration) -> u64 {
        let mut expired = 0;
        while let Some(&(id, at)) = self.order.front() {
            let slot = &mut self.sent_at[usize::from(id)];
            if *slot != Some(at) {
                self.order.pop_front();
            } else if now.duration_since(at) >= timeout {
                *slot = None;
                self.order.pop_front();
                expired += 1;
            } else {
                break;
            }
        }
        expired
    }

    fn in_flight(&self) -> u64 {
        self.sent_at.iter().filter(|slot| slot.is_some()).count() as u64
    }
}

/// Keeps `window` queries in flight on `socket` until `deadline`.
async fn client(
    socket: UdpSocket,
    query: Message,
    window: usize,
    deadline: Instant,
    timeout: Duration,
) -> std::io::Result<Counts> {
    let mut counts = Counts::default();
    let mut flight = Flight::new(query, window);
    let mut buf = vec![0_u8; 65_535];
    let mut sweep = tokio::time::interval(Duration::from_millis(20));
    for _ in 0..window {
        flight.send(&socket).await?;
    }
    loop {
        tokio::select! {
            received = socket.recv(&mut buf) => {
                let len = match received {
                    Ok(len) => len,
                    // Nothing listens on the server address: give up at once.
                    Err(error) if error.kind() == std::io::ErrorKind::ConnectionRefused => {
                        return Err(error);
                    }
                    Err(_) => continue,
                };
                let header = Header::read(&mut BinDecoder::new(&buf[..len]));
                let Some(header) = header.ok().filter(|h| flight.land(h.metadata.id)) else {
                    counts.unmatched += 1;
                    continue;
                };
                match header.metadata.response_code {
                    ResponseCode::NoError if header.counts.answers > 0 => counts.answered += 1,
                    ResponseCode::NoError => counts.noerror_empty += 1,
                    ResponseCode::Refused => counts.refused += 1,
                    ResponseCode::ServFail => counts.servfail += 1,
                    _ => counts.other += 1,
                }
                if Instant::now() >= deadline {
                    break;
                }
                flight.send(&socket).await?;
            }
            _ = sweep.tick() => {
                let now = Instant::now();
                if now >= deadline {
                    break;
                }
                let expired = flight.expire(now, timeout);
                counts.timeouts += expired;
                for _ in 0..expired {
                    flight.send(&socket).await?;
                }
            }
        }
    }
    counts.in_flight_at_end = flight.in_flight();
    Ok(counts)
}

fn report(args: &Args, counts: Counts) {
    let qps = counts.answered as f64 / args.seconds;
    println!(
        "answered {} in {} s = {:.0} qps",
        counts.answered, args.seconds, qps
    );
    println!(
        "rcodes: NOERROR+answers {}, NOERROR empty {}, REFUSED {}, SERVFAIL {}, other {}; \
         timeouts {}, unmatched {}, in flight at end {}",
        counts.answered,
        counts.noerror_empty,
        counts.refused,
        counts.servfail,
        counts.other,
        counts.timeouts,
        counts.unmatched,
        counts.in_flight_at_end
    );
    println!(
        "settings: server {}, name {}, concurrency {}, sockets {}, timeout {} ms",
        args.server,
        args.name,
        args.concurrency,
        args.sockets.min(args.concurrency),
        args.timeout_ms
    );
}
