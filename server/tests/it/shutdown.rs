//! `switchyard serve` stops cleanly on SIGTERM however many live streams are open: the real
//! binary, real sockets, a real signal.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::process::{add_operator, serve, sign_in};

/// Live streams held open while the signal arrives.
const STREAMS: usize = 6;

/// Opens `/api/stream` and waits for its first `clock` message.
fn open_stream(addr: SocketAddr, cookie: &str) -> TcpStream {
    let mut tcp = TcpStream::connect(addr).expect("connect");
    write!(
        tcp,
        "GET /api/stream HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\nCookie: {cookie}\r\n\r\n"
    )
    .expect("send stream request");
    tcp.set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(&seen).contains("event: clock") {
        let n = tcp.read(&mut buf).expect("stream data");
        assert!(
            n > 0,
            "stream closed early: {}",
            String::from_utf8_lossy(&seen)
        );
        seen.extend_from_slice(&buf[..n]);
    }
    assert!(String::from_utf8_lossy(&seen).starts_with("HTTP/1.1 200"));
    tcp
}

/// Reads a stream to its end; returns what came.
fn drain(mut tcp: TcpStream) -> String {
    let mut rest = Vec::new();
    let mut buf = [0u8; 16_384];
    loop {
        match tcp.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => rest.extend_from_slice(&buf[..n]),
            Err(e) => panic!("stream did not end: {e}"),
        }
    }
    String::from_utf8_lossy(&rest).into_owned()
}

#[test]
fn sigterm_with_open_live_streams_exits_zero_within_five_seconds() {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = format!("sqlite://{}", dir.path().join("s.db").display());
    add_operator(&url);
    let (mut child, addr) = serve(&url, &["--speed", "max"]);
    let cookie = sign_in(addr);
    let streams: Vec<TcpStream> = (0..STREAMS).map(|_| open_stream(addr, &cookie)).collect();

    let signalled = Instant::now();
    let kill = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(kill.success());
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if signalled.elapsed() > Duration::from_secs(5) {
            let _ = child.kill();
            panic!("still running 5 s after SIGTERM with {STREAMS} live streams open");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "exit status {status}");

    for tcp in streams {
        let rest = drain(tcp);
        assert!(
            rest.contains("event: shutdown"),
            "each stream ends with a shutdown message; got …{}",
            &rest[rest.len().saturating_sub(300)..]
        );
    }
    let again = TcpStream::connect(addr);
    assert!(again.is_err(), "the port is closed after exit");
}
