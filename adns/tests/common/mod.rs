//! Shared by the integration tests: an in-memory resolver, a responder on
//! 127.0.0.1:0, and a small client that speaks DNS through hickory-proto over
//! tokio sockets.

#![allow(
    dead_code,
    reason = "each test binary uses a different part of this module"
)]

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use adns::{Question, Reply, Resolver, Responder, Transport, Zone};
use hickory_proto::op::{Message, Query};
use hickory_proto::rr::{Name, RecordType};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpStream, UdpSocket};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// How long a test waits for a response before calling it lost.
pub const WAIT: Duration = Duration::from_secs(3);

/// A zone of the test table.
pub fn zone(apex: &str, negative_ttl_s: u32) -> Zone {
    Zone {
        apex: apex.to_owned(),
        negative_ttl_s,
    }
}

/// Answers from a fixed table and records every question it was asked.
#[derive(Default)]
pub struct TableResolver {
    table: HashMap<String, Reply>,
    asked: Mutex<Vec<Question>>,
}

impl TableResolver {
    /// The table every test uses.
    pub fn standard() -> Self {
        let mut table = HashMap::new();
        table.insert(
            "apps.example.com".to_owned(),
            Reply::Answer {
                addrs: vec![
                    "192.0.2.10".parse().expect("ip"),
                    "2001:db8::10".parse().expect("ip"),
                    "192.0.2.11".parse().expect("ip"),
                ],
                ttl_s: 30,
                zone: zone("apps.example.com", 30),
            },
        );
        table.insert("down.example.com".to_owned(), Reply::Unavailable);
        table.insert(
            "empty.example.com".to_owned(),
            Reply::NoData {
                zone: zone("empty.example.com", 10),
            },
        );
        table.insert(
            "www.apps.example.com".to_owned(),
            Reply::NxDomain {
                zone: zone("apps.example.com", 30),
            },
        );
        let many = (0..100_u8)
            .map(|i| IpAddr::from([198, 51, 100, i]))
            .collect();
        table.insert(
            "big.example.com".to_owned(),
            Reply::Answer {
                addrs: many,
                ttl_s: 5,
                zone: zone("big.example.com", 5),
            },
        );
        Self {
            table,
            asked: Mutex::default(),
        }
    }

    /// Every question asked so far, in order.
    pub fn asked(&self) -> Vec<Question> {
        self.asked.lock().expect("lock").clone()
    }
}

impl Resolver for TableResolver {
    async fn resolve(&self, question: Question) -> Reply {
        let reply = self
            .table
            .get(&question.name)
            .cloned()
            .unwrap_or(Reply::NotOurs);
        self.asked.lock().expect("lock").push(question);
        reply
    }
}

/// A running responder; stopped when dropped.
pub struct Server {
    pub addr: SocketAddr,
    pub resolver: Arc<TableResolver>,
    stop: Option<oneshot::Sender<()>>,
    pub task: JoinHandle<std::io::Result<()>>,
}

impl Server {
    /// Starts a responder with the standard table on 127.0.0.1:0.
    pub async fn start() -> Self {
        Self::start_with(|responder| responder).await
    }

    /// Starts a responder, letting the test adjust it before it runs.
    pub async fn start_with(adjust: impl FnOnce(Responder) -> Responder) -> Self {
        let resolver = Arc::new(TableResolver::standard());
        let addr = "127.0.0.1:0".parse().expect("addr");
        let responder = Responder::bind(addr, resolver.clone()).await.expect("bind");
        let responder = adjust(responder);
        let addr = responder.local_addr();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(responder.run(async move {
            let _ = stopped.await;
        }));
        Self {
            addr,
            resolver,
            stop: Some(stop),
            task,
        }
    }

    /// Asks the responder to stop and returns what `run` returned.
    pub async fn stop(mut self) -> std::io::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        tokio::time::timeout(WAIT, &mut self.task)
            .await
            .expect("run returns after shutdown")
            .expect("run does not panic")
    }
}

/// A query for `name` and `record_type` with RD set and a random id.
pub fn query(name: &str, record_type: RecordType) -> Message {
    let mut message = Message::query();
    message.metadata.recursion_desired = true;
    message.add_query(Query::query(fqdn(name), record_type));
    message
}

/// `name` as a fully qualified name, as it comes back off the wire.
pub fn fqdn(name: &str) -> Name {
    let mut name = Name::from_ascii(name).expect("name");
    name.set_fqdn(true);
    name
}

/// Encodes a message with hickory.
pub fn encode(message: &Message) -> Vec<u8> {
    message.to_vec().expect("encode")
}

/// A UDP client socket on loopback.
pub async fn udp_client() -> UdpSocket {
    UdpSocket::bind("127.0.0.1:0").await.expect("bind client")
}

/// Sends raw bytes over UDP and waits up to `wait` for one datagram back.
pub async fn udp_raw(
    socket: &UdpSocket,
    server: SocketAddr,
    bytes: &[u8],
    wait: Duration,
) -> Option<Message> {
    socket.send_to(bytes, server).await.expect("send");
    let mut buf = vec![0_u8; 65_535];
    let (len, _) = tokio::time::timeout(wait, socket.recv_from(&mut buf))
        .await
        .ok()?
        .expect("recv");
    Some(Message::from_vec(&buf[..len]).expect("decode response"))
}

/// Connects a TCP client.
pub async fn tcp_client(server: SocketAddr) -> TcpStream {
    TcpStream::connect(server).await.expect("connect")
}

/// Writes one length-prefixed message on a TCP stream.
pub async fn tcp_send(stream: &mut TcpStream, bytes: &[u8]) {
    let len = u16::try_from(bytes.len()).expect("fits a frame");
    stream
        .write_all(&len.to_be_bytes())
        .await
        .expect("write length");
    stream.write_all(bytes).await.expect("write message");
}

/// Reads one length-prefixed message from a TCP stream, `None` on timeout or end of stream.
pub async fn tcp_receive(stream: &mut TcpStream, wait: Duration) -> Option<Message> {
    let read = async {
        let mut len = [0_u8; 2];
        stream.read_exact(&mut len).await.ok()?;
        let mut buf = vec![0_u8; usize::from(u16::from_be_bytes(len))];
        stream.read_exact(&mut buf).await.ok()?;
        Some(buf)
    };
    let buf = tokio::time::timeout(wait, read).await.ok()??;
    Some(Message::from_vec(&buf).expect("decode response"))
}

/// Sends `request` over `transport` on a fresh socket and returns the response
/// and the client's own address.
pub async fn ask(
    server: SocketAddr,
    transport: Transport,
    request: &Message,
) -> (Message, SocketAddr) {
    let bytes = encode(request);
    match transport {
        Transport::Udp => {
            let socket = udp_client().await;
            let response = udp_raw(&socket, server, &bytes, WAIT)
                .await
                .expect("udp response");
            (response, socket.local_addr().expect("local addr"))
        }
        Transport::Tcp => {
            let mut stream = tcp_client(server).await;
            tcp_send(&mut stream, &bytes).await;
            let response = tcp_receive(&mut stream, WAIT).await.expect("tcp response");
            (response, stream.local_addr().expect("local addr"))
        }
    }
}

/// The addresses in a response's answer section, in order.
pub fn answer_addrs(response: &Message) -> Vec<IpAddr> {
    response
        .answers
        .iter()
        .filter_map(|record| match &record.data {
            hickory_proto::rr::RData::A(a) => Some(IpAddr::V4(a.0)),
            hickory_proto::rr::RData::AAAA(aaaa) => Some(IpAddr::V6(aaaa.0)),
            _ => None,
        })
        .collect()
}
