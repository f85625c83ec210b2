//! The ADNS responder against the live GSLB engine: real DNS queries over UDP and TCP to a
//! responder on a free port, answered from the demo topology through the runtime.

#![allow(missing_docs)]

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use engine::{GslbAction, Scenario, Speed};
use hickory_proto::op::{Message, Query, ResponseCode};
use hickory_proto::rr::{Name, RData, RecordType};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpStream, UdpSocket};

const WAIT: Duration = Duration::from_secs(5);

struct Live {
    runtime: services::runtime::RuntimeHandle,
    dns: SocketAddr,
    _stop: tokio::sync::oneshot::Sender<()>,
    _dir: tempfile::TempDir,
}

async fn live() -> Live {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = format!("sqlite://{}", dir.path().join("dns.db").display());
    let pool = services::Store::connect(&url).await.expect("db");
    let text = include_str!("../../../scenarios/demo.toml");
    let scenario = Scenario::from_toml_str(text, "demo.toml").expect("demo scenario");
    let runtime = services::runtime::start(pool, &scenario, 42, Vec::new(), Speed::Paused)
        .await
        .expect("runtime");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let dns = server::dns::start(
        "127.0.0.1:0".parse().expect("addr"),
        runtime.clone(),
        async move {
            let _ = stopped.await;
        },
    )
    .await
    .expect("bind the responder");
    Live {
        runtime,
        dns,
        _stop: stop,
        _dir: dir,
    }
}

fn query(id: u16, name: &str, kind: RecordType) -> Vec<u8> {
    let mut m = Message::query();
    m.metadata.id = id;
    m.metadata.recursion_desired = true;
    m.add_query(Query::query(Name::from_ascii(name).expect("name"), kind));
    m.to_vec().expect("encode")
}

async fn udp(server: SocketAddr, id: u16, name: &str, kind: RecordType) -> Message {
    let socket = UdpSocket::bind("127.0.0.1:0").await.expect("bind");
    socket
        .send_to(&query(id, name, kind), server)
        .await
        .expect("send");
    let mut buf = vec![0u8; 4096];
    let (n, _) = tokio::time::timeout(WAIT, socket.recv_from(&mut buf))
        .await
        .expect("an answer in time")
        .expect("recv");
    Message::from_vec(&buf[..n]).expect("decode")
}

async fn tcp(server: SocketAddr, id: u16, name: &str) -> Message {
    let mut stream = TcpStream::connect(server).await.expect("connect");
    let q = query(id, name, RecordType::A);
    let len = u16::try_from(q.len()).expect("short");
    stream.write_all(&len.to_be_bytes()).await.expect("len");
    stream.write_all(&q).await.expect("query");
    let mut len = [0u8; 2];
    tokio::time::timeout(WAIT, stream.read_exact(&mut len))
        .await
        .expect("in time")
        .expect("read");
    let mut buf = vec![0u8; usize::from(u16::from_be_bytes(len))];
    stream.read_exact(&mut buf).await.expect("read body");
    Message::from_vec(&buf).expect("decode")
}

fn addresses(m: &Message) -> Vec<IpAddr> {
    m.answers
        .iter()
        .filter_map(|r| match &r.data {
            RData::A(a) => Some(IpAddr::V4(a.0)),
            RData::AAAA(a) => Some(IpAddr::V6(a.0)),
            _ => None,
        })
        .collect()
}

/// The service IPs the topology says it can answer with.
async fn service_ips(live: &Live) -> Vec<String> {
    live.runtime
        .query(|sim| {
            sim.gslb()
                .topology()
                .sites
                .iter()
                .flat_map(|s| s.services.iter().map(|v| v.ip.clone()))
                .collect()
        })
        .await
        .expect("query")
}

#[tokio::test]
async fn real_queries_are_answered_from_the_live_topology() {
    let live = live().await;
    let ips = service_ips(&live).await;
    assert!(!ips.is_empty(), "the demo topology has services");

    let m = udp(live.dns, 7, "apps.example.com.", RecordType::A).await;
    assert_eq!(m.metadata.id, 7);
    assert_eq!(m.metadata.response_code, ResponseCode::NoError);
    assert!(m.metadata.authoritative);
    let got = addresses(&m);
    assert!(!got.is_empty(), "an A record");
    for ip in &got {
        assert!(
            ips.contains(&ip.to_string()),
            "{ip} is a service of the topology ({ips:?})"
        );
    }
    // The domain's TTL (5 s in the demo).
    assert!(m.answers.iter().all(|r| r.ttl == 5));

    let m = tcp(live.dns, 8, "static.example.com.").await;
    assert_eq!(m.metadata.response_code, ResponseCode::NoError);
    assert!(m.answers.iter().all(|r| r.ttl == 30));
    assert!(!addresses(&m).is_empty());

    let m = udp(live.dns, 9, "unknown.example.org.", RecordType::A).await;
    assert_eq!(m.metadata.response_code, ResponseCode::Refused);

    let m = udp(live.dns, 10, "apps.example.com.", RecordType::MX).await;
    assert_eq!(m.metadata.response_code, ResponseCode::NoError);
    assert!(m.answers.is_empty());
}

#[tokio::test]
async fn round_robin_turns_and_answers_are_logged() {
    let live = live().await;
    // The demo's static-proximity domain aside, least connections falls back to round robin
    // only while MEP is down; ask the same question many times and expect the answers logged.
    for id in 0..20 {
        let m = udp(live.dns, id, "apps.example.com.", RecordType::A).await;
        assert_eq!(m.metadata.response_code, ResponseCode::NoError);
    }
    let answered = live
        .runtime
        .query(|sim| sim.gslb().topology().dns_answered)
        .await
        .expect("query");
    assert_eq!(answered, 20);
    // The coalesced `adns.answered` events are due when their simulated second ends: step
    // until that has happened and count what was logged.
    let mut live_events = live.runtime.subscribe();
    let mut logged = 0u64;
    for _ in 0..20 {
        let status = live.runtime.step("test").await.expect("step");
        loop {
            match live_events.try_recv() {
                Ok(e) if e.kind == "adns.answered" => {
                    logged += e.details["count"].as_u64().unwrap_or(0);
                }
                Ok(_) => {}
                Err(tokio::sync::broadcast::error::TryRecvError::Lagged(n)) => {
                    panic!("the test fell {n} events behind the live feed")
                }
                Err(_) => break,
            }
        }
        if status.t_ms >= 1000 && logged > 0 {
            break;
        }
    }
    assert_eq!(
        logged, 20,
        "every answer is logged as an adns.answered event"
    );
}

#[tokio::test]
async fn no_parent_up_means_servfail() {
    let live = live().await;
    for site in ["SiteP1", "SiteP2", "SiteP3"] {
        live.runtime
            .apply(GslbAction::SiteDown { site: site.into() }, "test")
            .await
            .expect("site down");
    }
    let m = udp(live.dns, 1, "apps.example.com.", RecordType::A).await;
    assert_eq!(m.metadata.response_code, ResponseCode::ServFail);
    live.runtime
        .apply(
            GslbAction::SiteUp {
                site: "SiteP2".into(),
            },
            "test",
        )
        .await
        .expect("site up");
    let m = udp(live.dns, 2, "apps.example.com.", RecordType::A).await;
    assert_eq!(m.metadata.response_code, ResponseCode::NoError);
}
