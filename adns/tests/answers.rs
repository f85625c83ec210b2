//! What the responder answers for each kind of reply, over UDP and over TCP.

mod common;

use std::net::IpAddr;

use adns::{QueryKind, Transport};
use common::{answer_addrs, ask, query, Server};
use hickory_proto::op::{MessageType, ResponseCode};
use hickory_proto::rr::{RData, RecordType};

const TRANSPORTS: [Transport; 2] = [Transport::Udp, Transport::Tcp];

fn ip(text: &str) -> IpAddr {
    text.parse().expect("ip")
}

#[tokio::test]
async fn answers_a_records_with_the_ttl_and_echoes_the_request() {
    let server = Server::start().await;
    for transport in TRANSPORTS {
        let request = query("apps.example.com", RecordType::A);
        let (response, _) = ask(server.addr, transport, &request).await;
        assert_eq!(response.metadata.id, request.metadata.id, "{transport:?}");
        assert_eq!(response.metadata.message_type, MessageType::Response);
        assert!(response.metadata.authoritative, "{transport:?}: AA");
        assert!(
            response.metadata.recursion_desired,
            "{transport:?}: RD echoed"
        );
        assert!(!response.metadata.recursion_available);
        assert!(!response.metadata.truncation);
        assert_eq!(response.metadata.response_code, ResponseCode::NoError);
        assert_eq!(
            response.queries, request.queries,
            "{transport:?}: question echoed"
        );
        assert_eq!(
            answer_addrs(&response),
            [ip("192.0.2.10"), ip("192.0.2.11")]
        );
        for record in &response.answers {
            assert_eq!(record.ttl, 30);
            assert_eq!(record.name, *request.queries[0].name());
        }
    }
    server.stop().await.expect("clean stop");
}

#[tokio::test]
async fn rd_clear_in_the_request_stays_clear() {
    let server = Server::start().await;
    let mut request = query("apps.example.com", RecordType::A);
    request.metadata.recursion_desired = false;
    let (response, _) = ask(server.addr, Transport::Udp, &request).await;
    assert!(!response.metadata.recursion_desired);
    assert_eq!(response.answers.len(), 2);
}

#[tokio::test]
async fn filters_addresses_by_the_query_kind() {
    let server = Server::start().await;
    let cases = [
        (RecordType::A, vec![ip("192.0.2.10"), ip("192.0.2.11")]),
        (RecordType::AAAA, vec![ip("2001:db8::10")]),
        (
            RecordType::ANY,
            vec![ip("192.0.2.10"), ip("2001:db8::10"), ip("192.0.2.11")],
        ),
        (RecordType::MX, vec![]),
    ];
    for transport in TRANSPORTS {
        for (record_type, expected) in &cases {
            let request = query("apps.example.com", *record_type);
            let (response, _) = ask(server.addr, transport, &request).await;
            assert_eq!(response.metadata.response_code, ResponseCode::NoError);
            assert!(response.metadata.authoritative);
            assert_eq!(
                answer_addrs(&response),
                *expected,
                "{transport:?} {record_type}"
            );
        }
    }
}

#[tokio::test]
async fn refuses_names_that_are_not_ours() {
    let server = Server::start().await;
    for transport in TRANSPORTS {
        let request = query("www.elsewhere.org", RecordType::A);
        let (response, _) = ask(server.addr, transport, &request).await;
        assert_eq!(
            response.metadata.response_code,
            ResponseCode::Refused,
            "{transport:?}"
        );
        assert!(!response.metadata.authoritative);
        assert!(response.answers.is_empty());
        assert_eq!(response.metadata.id, request.metadata.id);
    }
}

#[tokio::test]
async fn servfail_when_unavailable() {
    let server = Server::start().await;
    for transport in TRANSPORTS {
        let request = query("down.example.com", RecordType::A);
        let (response, _) = ask(server.addr, transport, &request).await;
        assert_eq!(
            response.metadata.response_code,
            ResponseCode::ServFail,
            "{transport:?}"
        );
        assert!(response.answers.is_empty());
    }
}

/// The SOA in a negative answer's authority section: owner, MNAME, RNAME, MINIMUM and TTL.
fn soa_of(response: &hickory_proto::op::Message) -> Option<(String, String, String, u32, u32)> {
    response.authorities.iter().find_map(|r| match &r.data {
        RData::SOA(soa) => Some((
            r.name.to_ascii(),
            soa.mname.to_ascii(),
            soa.rname.to_ascii(),
            soa.minimum,
            r.ttl,
        )),
        _ => None,
    })
}

#[tokio::test]
async fn negative_answers_carry_the_zones_soa() {
    let server = Server::start().await;
    // (name, type, RCODE, the zone whose SOA is expected, its negative TTL)
    let cases = [
        // NODATA: the resolver says the name has no record of this type.
        (
            "empty.example.com",
            RecordType::AAAA,
            ResponseCode::NoError,
            "empty.example.com.",
            10,
        ),
        // NODATA: addresses exist, none of the asked type (MX; and AAAA below).
        (
            "apps.example.com",
            RecordType::MX,
            ResponseCode::NoError,
            "apps.example.com.",
            30,
        ),
        (
            "big.example.com",
            RecordType::AAAA,
            ResponseCode::NoError,
            "big.example.com.",
            5,
        ),
        // NXDOMAIN: a name under the zone that does not exist.
        (
            "www.apps.example.com",
            RecordType::A,
            ResponseCode::NXDomain,
            "apps.example.com.",
            30,
        ),
    ];
    for transport in TRANSPORTS {
        for (name, record_type, code, apex, ttl) in cases {
            let what = format!("{transport:?} {name} {record_type}");
            let (response, _) = ask(server.addr, transport, &query(name, record_type)).await;
            assert_eq!(response.metadata.response_code, code, "{what}");
            assert!(response.metadata.authoritative, "{what}");
            assert!(response.answers.is_empty(), "{what}");
            let soa = soa_of(&response).unwrap_or_else(|| panic!("{what}: no SOA"));
            assert_eq!(
                soa,
                (
                    apex.to_owned(),
                    format!("ns1.{apex}"),
                    format!("hostmaster.{apex}"),
                    ttl,
                    ttl
                ),
                "{what}"
            );
        }
    }
}

#[tokio::test]
async fn positive_refused_and_servfail_answers_carry_no_soa() {
    let server = Server::start().await;
    let cases = [
        ("apps.example.com", ResponseCode::NoError),
        ("www.elsewhere.org", ResponseCode::Refused),
        ("down.example.com", ResponseCode::ServFail),
    ];
    for (name, code) in cases {
        let (response, _) = ask(server.addr, Transport::Udp, &query(name, RecordType::A)).await;
        assert_eq!(response.metadata.response_code, code, "{name}");
        assert!(response.authorities.is_empty(), "{name}");
    }
}

#[tokio::test]
async fn passes_a_lower_case_name_the_client_and_the_transport() {
    let server = Server::start().await;
    for transport in TRANSPORTS {
        let request = query("APPS.Example.COM.", RecordType::AAAA);
        let (response, client) = ask(server.addr, transport, &request).await;
        assert_eq!(answer_addrs(&response), [ip("2001:db8::10")]);
        let asked = server.resolver.asked();
        let question = asked.last().expect("the resolver was asked");
        assert_eq!(question.name, "apps.example.com");
        assert_eq!(question.kind, QueryKind::Aaaa);
        assert_eq!(question.client, client, "{transport:?}");
        assert_eq!(question.transport, transport);
    }
}

#[tokio::test]
async fn other_kinds_reach_the_resolver_by_code() {
    let server = Server::start().await;
    let request = query("apps.example.com", RecordType::TXT);
    let _ = ask(server.addr, Transport::Udp, &request).await;
    let asked = server.resolver.asked();
    assert_eq!(asked.last().map(|q| q.kind), Some(QueryKind::Other(16)));
}
