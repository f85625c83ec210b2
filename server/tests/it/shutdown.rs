//! `switchyard serve` stops cleanly on SIGTERM however many live streams are open: the real
//! binary, real sockets, a real signal.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const PASSWORD: &str = "a-good-password";
/// Live streams held open while the signal arrives.
const STREAMS: usize = 6;

fn switchyard() -> Command {
    Command::new(env!("CARGO_BIN_EXE_switchyard"))
}

fn add_operator(url: &str) {
    let mut child = switchyard()
        .args(["user", "add", "--username", "olga", "--role", "operator"])
        .args(["--database-url", url])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn user add");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(format!("{PASSWORD}\n").as_bytes())
        .expect("write password");
    let out = child.wait_with_output().expect("user add");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Starts `serve` on a free port; returns the child and the console's address.
fn serve(url: &str) -> (Child, SocketAddr) {
    let mut child = switchyard()
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--no-dns",
            "--speed",
            "max",
        ])
        .args(["--database-url", url, "--log", "warn"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn serve");
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    let addr = loop {
        let line = lines
            .next()
            .expect("serve printed its address")
            .expect("read");
        if let Some(rest) = line.strip_prefix("Switchyard console: http://") {
            break rest.trim_end_matches('/').parse().expect("an address");
        }
    };
    // Keep reading stdout so the child never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    (child, addr)
}

/// Signs in and returns the session cookie (`name=value`).
fn sign_in(addr: SocketAddr) -> String {
    let body = format!("username=olga&password={PASSWORD}");
    let mut tcp = TcpStream::connect(addr).expect("connect");
    write!(
        tcp,
        "POST /api/login HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("send login");
    let mut answer = String::new();
    tcp.read_to_string(&mut answer).expect("read login answer");
    answer
        .lines()
        .find_map(|l| {
            l.strip_prefix("set-cookie: ")
                .or(l.strip_prefix("Set-Cookie: "))
        })
        .and_then(|c| c.split(';').next())
        .map(str::to_owned)
        .unwrap_or_else(|| panic!("no session cookie in {answer}"))
}

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
    let (mut child, addr) = serve(&url);
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
