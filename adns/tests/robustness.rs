//! Malformed input, protocol corners, TCP framing and lifecycle.

mod common;

use std::time::Duration;

use common::{
    answer_addrs, ask, encode, query, tcp_client, tcp_receive, tcp_send, udp_client, udp_raw,
    Server, WAIT,
};
use hickory_proto::op::{Edns, OpCode, Query, ResponseCode};
use hickory_proto::rr::{DNSClass, RecordType};
use tokio::io::AsyncReadExt;

/// A short wait for "no response is coming".
const SILENCE: Duration = Duration::from_millis(200);

/// A small deterministic generator for garbage (xorshift64).
struct Garbage(u64);

impl Garbage {
    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len)
            .map(|_| {
                self.0 ^= self.0 << 13;
                self.0 ^= self.0 >> 7;
                self.0 ^= self.0 << 17;
                self.0.to_le_bytes()[0]
            })
            .collect()
    }
}

#[tokio::test]
async fn udp_garbage_does_not_kill_the_server() {
    let server = Server::start().await;
    let socket = udp_client().await;

    // Shorter than a header: dropped.
    assert!(udp_raw(&socket, server.addr, &[1, 2, 3], SILENCE)
        .await
        .is_none());

    // A header announcing a question that is not there: FORMERR with the id.
    let request = query("apps.example.com", RecordType::A);
    let cut = &encode(&request)[..14];
    let response = udp_raw(&socket, server.addr, cut, WAIT)
        .await
        .expect("formerr");
    assert_eq!(response.metadata.response_code, ResponseCode::FormErr);
    assert_eq!(response.metadata.id, request.metadata.id);

    // A thousand random packets, answered or not.
    let mut garbage = Garbage(0x5eed);
    for len in (0..1000).map(|i| i % 300) {
        socket
            .send_to(&garbage.bytes(len), server.addr)
            .await
            .expect("send");
    }

    // Still serving: a fresh socket gets a real answer.
    let (response, _) = ask(
        server.addr,
        adns::Transport::Udp,
        &query("apps.example.com", RecordType::A),
    )
    .await;
    assert_eq!(answer_addrs(&response).len(), 2);
    server.stop().await.expect("clean stop");
}

#[tokio::test]
async fn tcp_garbage_does_not_kill_the_server_or_the_connection() {
    let server = Server::start().await;
    let mut stream = tcp_client(server.addr).await;

    tcp_send(&mut stream, &[]).await;
    tcp_send(&mut stream, &[0xff; 5]).await;
    let request = query("apps.example.com", RecordType::A);
    tcp_send(&mut stream, &encode(&request)[..20]).await;
    let response = tcp_receive(&mut stream, WAIT).await.expect("formerr");
    assert_eq!(response.metadata.response_code, ResponseCode::FormErr);

    tcp_send(&mut stream, &encode(&request)).await;
    let response = tcp_receive(&mut stream, WAIT).await.expect("answer");
    assert_eq!(response.metadata.id, request.metadata.id);
    assert_eq!(answer_addrs(&response).len(), 2);

    // A connection that sends half a frame and leaves does not disturb others.
    let mut broken = tcp_client(server.addr).await;
    tokio::io::AsyncWriteExt::write_all(&mut broken, &[0, 40, 1, 2])
        .await
        .expect("write");
    drop(broken);
    let (response, _) = ask(server.addr, adns::Transport::Tcp, &request).await;
    assert_eq!(answer_addrs(&response).len(), 2);
}

#[tokio::test]
async fn tcp_answers_pipelined_queries_in_order() {
    let server = Server::start().await;
    let mut stream = tcp_client(server.addr).await;
    let names = [
        "apps.example.com",
        "www.elsewhere.org",
        "down.example.com",
        "empty.example.com",
    ];
    let requests: Vec<_> = names
        .iter()
        .map(|name| query(name, RecordType::A))
        .collect();
    for request in &requests {
        tcp_send(&mut stream, &encode(request)).await;
    }
    let expected = [
        ResponseCode::NoError,
        ResponseCode::Refused,
        ResponseCode::ServFail,
        ResponseCode::NoError,
    ];
    for (request, code) in requests.iter().zip(expected) {
        let response = tcp_receive(&mut stream, WAIT).await.expect("response");
        assert_eq!(response.metadata.id, request.metadata.id);
        assert_eq!(response.metadata.response_code, code);
    }
}

#[tokio::test]
async fn tcp_closes_idle_connections() {
    let server = Server::start_with(|r| r.tcp_idle_timeout(Duration::from_millis(300))).await;
    let mut stream = tcp_client(server.addr).await;
    tcp_send(
        &mut stream,
        &encode(&query("apps.example.com", RecordType::A)),
    )
    .await;
    assert!(tcp_receive(&mut stream, WAIT).await.is_some());
    let mut rest = Vec::new();
    let read = tokio::time::timeout(WAIT, stream.read_to_end(&mut rest)).await;
    assert!(matches!(read, Ok(Ok(0))), "closed by the server: {read:?}");
}

#[tokio::test]
async fn one_address_cannot_take_every_tcp_slot() {
    let server = Server::start().await;
    let mut held = Vec::new();
    for _ in 0..adns::MAX_CONNECTIONS_PER_ADDRESS {
        held.push(tcp_client(server.addr).await);
    }
    // Let the server accept them all before the one too many.
    let mut probe = tcp_client(server.addr).await;
    tcp_send(
        &mut probe,
        &encode(&query("apps.example.com", RecordType::A)),
    )
    .await;
    let mut rest = Vec::new();
    let read = tokio::time::timeout(WAIT, probe.read_to_end(&mut rest)).await;
    assert!(
        matches!(read, Ok(Ok(0)) | Ok(Err(_))),
        "closed at once: {read:?}"
    );
    // Another address is served meanwhile.
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket
        .bind("127.0.0.2:0".parse().expect("addr"))
        .expect("bind");
    let mut other = socket.connect(server.addr).await.expect("connect");
    tcp_send(
        &mut other,
        &encode(&query("apps.example.com", RecordType::A)),
    )
    .await;
    assert!(tcp_receive(&mut other, WAIT).await.is_some());
    // A slot freed is a slot again.
    held.pop();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut again = tcp_client(server.addr).await;
    tcp_send(
        &mut again,
        &encode(&query("apps.example.com", RecordType::A)),
    )
    .await;
    assert!(tcp_receive(&mut again, WAIT).await.is_some());
}

#[tokio::test]
async fn udp_truncates_what_does_not_fit_and_tcp_carries_it() {
    let server = Server::start().await;
    let request = query("big.example.com", RecordType::A);
    let (response, _) = ask(server.addr, adns::Transport::Udp, &request).await;
    assert!(response.metadata.truncation);
    assert!(response.answers.is_empty());
    assert_eq!(response.queries, request.queries);

    let (response, _) = ask(server.addr, adns::Transport::Tcp, &request).await;
    assert!(!response.metadata.truncation);
    assert_eq!(response.answers.len(), 100);
}

#[tokio::test]
async fn edns_is_answered_with_edns() {
    let server = Server::start().await;
    let mut request = query("apps.example.com", RecordType::A);
    let mut edns = Edns::new();
    edns.set_max_payload(4096);
    request.set_edns(edns);
    let (response, _) = ask(server.addr, adns::Transport::Udp, &request).await;
    let edns = response.edns.as_ref().expect("OPT in the response");
    assert_eq!(edns.max_payload(), 1232);
    assert_eq!(answer_addrs(&response).len(), 2);

    // The 100 records of big.example.com (1600 bytes) exceed even 1232: TC, OPT kept.
    let mut request = query("big.example.com", RecordType::A);
    request.set_edns(Edns::new());
    let (response, _) = ask(server.addr, adns::Transport::Udp, &request).await;
    assert!(response.metadata.truncation);
    assert!(response.edns.is_some());

    let mut request = query("apps.example.com", RecordType::A);
    let mut edns = Edns::new();
    edns.set_version(1);
    request.set_edns(edns);
    let (response, _) = ask(server.addr, adns::Transport::Udp, &request).await;
    // BADVERS and BADSIG share code 16, which hickory decodes as BADSIG.
    assert_eq!(
        u16::from(response.metadata.response_code),
        u16::from(ResponseCode::BADVERS)
    );
    assert!(response.edns.is_some());
}

#[tokio::test]
async fn answers_only_the_first_of_several_questions() {
    let server = Server::start().await;
    let mut request = query("apps.example.com", RecordType::AAAA);
    request.add_query(Query::query(
        common::fqdn("down.example.com"),
        RecordType::A,
    ));
    let (response, _) = ask(server.addr, adns::Transport::Udp, &request).await;
    assert_eq!(response.queries.len(), 1);
    assert_eq!(response.queries[0], request.queries[0]);
    assert_eq!(response.answers.len(), 1);
    assert_eq!(server.resolver.asked().len(), 1);
}

#[tokio::test]
async fn refuses_other_classes_and_opcodes_without_asking() {
    let server = Server::start().await;
    let mut request = query("version.bind", RecordType::TXT);
    let mut question = request.queries[0].clone();
    question.set_query_class(DNSClass::CH);
    request.queries = vec![question];
    let (response, _) = ask(server.addr, adns::Transport::Udp, &request).await;
    assert_eq!(response.metadata.response_code, ResponseCode::Refused);

    let mut request = query("apps.example.com", RecordType::A);
    request.metadata.op_code = OpCode::Status;
    let (response, _) = ask(server.addr, adns::Transport::Tcp, &request).await;
    assert_eq!(response.metadata.response_code, ResponseCode::NotImp);
    assert!(server.resolver.asked().is_empty());
}

#[tokio::test]
async fn responses_are_dropped_not_answered() {
    let server = Server::start().await;
    let socket = udp_client().await;
    let mut message = query("apps.example.com", RecordType::A);
    message.metadata.message_type = hickory_proto::op::MessageType::Response;
    assert!(udp_raw(&socket, server.addr, &encode(&message), SILENCE)
        .await
        .is_none());
}

#[tokio::test]
async fn shutdown_stops_serving() {
    let server = Server::start().await;
    let addr = server.addr;
    let mut open = tcp_client(addr).await;
    server.stop().await.expect("run returns Ok after shutdown");
    let mut rest = Vec::new();
    let read = tokio::time::timeout(WAIT, open.read_to_end(&mut rest)).await;
    assert!(
        matches!(read, Ok(Ok(0)) | Ok(Err(_))),
        "open connection closed: {read:?}"
    );
    assert!(tokio::net::TcpStream::connect(addr).await.is_err());
}
