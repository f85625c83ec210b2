//! The ADNS responder against the live GSLB engine: real DNS queries over UDP and TCP to a
//! responder on a free port, answered from the demo topology through the runtime.

#![allow(missing_docs)]

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use engine::gslb::config::{DomainConfig, GslbMethod};
use engine::{GslbAction, Scenario, Speed};
use hickory_proto::op::{Message, Query, ResponseCode};
use hickory_proto::rr::{Name, RData, RecordType};
use server::dns::zone_of;
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

    // NODATA: the domain has addresses only; the zone's SOA says how long to cache that.
    let m = udp(live.dns, 10, "apps.example.com.", RecordType::MX).await;
    assert_eq!(m.metadata.response_code, ResponseCode::NoError);
    assert!(m.answers.is_empty());
    assert_eq!(
        soa_owner_and_minimum(&m),
        Some(("apps.example.com.".into(), 5))
    );

    // NXDOMAIN: a name under a GSLB domain that does not exist.
    let m = udp(live.dns, 11, "www.apps.example.com.", RecordType::A).await;
    assert_eq!(m.metadata.response_code, ResponseCode::NXDomain);
    assert!(m.metadata.authoritative);
    assert_eq!(
        soa_owner_and_minimum(&m),
        Some(("apps.example.com.".into(), 5))
    );
}

/// The owner and MINIMUM of the SOA in a response's authority section.
fn soa_owner_and_minimum(m: &Message) -> Option<(String, u32)> {
    m.authorities.iter().find_map(|r| match &r.data {
        RData::SOA(soa) => Some((r.name.to_ascii(), soa.minimum)),
        _ => None,
    })
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

/// `dig` (Debian's bind9-dnsutils, installed by `make test`) against the responder: its
/// output, with `+nocmd +nostats` trimming what varies from run to run.
async fn dig(server: SocketAddr, kind: &str, name: &str) -> String {
    let mut command = std::process::Command::new("dig");
    command
        .arg(format!("@{}", server.ip()))
        .args(["-p", &server.port().to_string()])
        .args(["+norecurse", "+nocmd", "+nostats", "+tries=1", "+time=5"])
        .args([kind, name]);
    // Off the runtime's thread: the responder answers on it meanwhile.
    let output = tokio::task::spawn_blocking(move || command.output())
        .await
        .expect("join")
        .expect("dig runs (install Debian's bind9-dnsutils: scripts/ensure-tools.sh --clients)");
    assert!(output.status.success(), "dig failed: {output:?}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The record lines of one section of dig's output, whitespace collapsed.
fn dig_section(output: &str, section: &str) -> Vec<String> {
    output
        .lines()
        .skip_while(|l| !l.starts_with(&format!(";; {section} SECTION:")))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

#[tokio::test]
async fn dig_sees_nodata_and_nxdomain_with_the_zones_soa() {
    let live = live().await;
    let soa = "apps.example.com. 5 IN SOA ns1.apps.example.com. hostmaster.apps.example.com. 1 3600 600 86400 5";
    // (type, name, status, answers expected)
    let cases = [
        ("A", "apps.example.com", "NOERROR", true),
        // NODATA: the demo's services are IPv4 only.
        ("AAAA", "apps.example.com", "NOERROR", false),
        ("MX", "apps.example.com", "NOERROR", false),
        // NXDOMAIN inside the zone.
        ("A", "www.apps.example.com", "NXDOMAIN", false),
        ("TXT", "no.such.apps.example.com", "NXDOMAIN", false),
    ];
    for (kind, name, status, answers) in cases {
        let out = dig(live.dns, kind, name).await;
        let what = format!("dig {kind} {name}:\n{out}");
        assert!(out.contains(&format!("status: {status}")), "{what}");
        assert!(out.contains("flags: qr aa"), "authoritative: {what}");
        let answer = dig_section(&out, "ANSWER");
        let authority = dig_section(&out, "AUTHORITY");
        if answers {
            assert!(!answer.is_empty(), "{what}");
            assert!(authority.is_empty(), "{what}");
        } else {
            assert!(answer.is_empty(), "{what}");
            assert_eq!(authority, vec![soa.to_owned()], "{what}");
        }
    }
    // Outside every zone: refused, no SOA.
    let out = dig(live.dns, "A", "www.example.org").await;
    assert!(out.contains("status: REFUSED"), "{out}");
    assert!(dig_section(&out, "AUTHORITY").is_empty(), "{out}");
}

fn domain(name: &str, ttl_s: u32) -> DomainConfig {
    DomainConfig {
        name: name.to_owned(),
        method: GslbMethod::RoundRobin,
        ttl_s,
        services: Vec::new(),
    }
}

#[test]
fn names_fall_in_the_deepest_domain_above_them() {
    let domains = [
        domain("apps.example.com", 5),
        domain("static.example.com", 30),
        domain("eu.apps.example.com", 10),
    ];
    // (name, expected apex, its TTL, whether the name is the apex)
    let cases = [
        ("apps.example.com", Some(("apps.example.com", 5, true))),
        ("APPS.Example.com.", Some(("apps.example.com", 5, true))),
        ("www.apps.example.com", Some(("apps.example.com", 5, false))),
        (
            "a.b.static.example.com",
            Some(("static.example.com", 30, false)),
        ),
        (
            "eu.apps.example.com",
            Some(("eu.apps.example.com", 10, true)),
        ),
        (
            "x.eu.apps.example.com",
            Some(("eu.apps.example.com", 10, false)),
        ),
        // Not at a label boundary, above the domains, elsewhere.
        ("myapps.example.com", None),
        ("example.com", None),
        ("apps.example.org", None),
        ("", None),
    ];
    for (name, expected) in cases {
        let got = zone_of(name, &domains);
        let got = got
            .as_ref()
            .map(|(z, exact)| (z.apex.as_str(), z.negative_ttl_s, *exact));
        assert_eq!(got, expected, "{name}");
    }
}
