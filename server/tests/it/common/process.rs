//! The real `switchyard` binary as a user runs it: a served console on a free port, signed in
//! over real HTTP.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};

pub const PASSWORD: &str = "a-good-password";

pub fn switchyard() -> Command {
    Command::new(env!("CARGO_BIN_EXE_switchyard"))
}

pub fn add_operator(url: &str) {
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

/// A console process started by a test. It is killed when dropped, so a test that fails
/// half-way does not leave a console running (at `max` it would take a core from every test
/// after it).
pub struct Console(Child);

impl std::ops::Deref for Console {
    type Target = Child;

    fn deref(&self) -> &Child {
        &self.0
    }
}

impl std::ops::DerefMut for Console {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}

impl Drop for Console {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

/// Starts `serve` on a free port with `extra` arguments; returns the console's process and
/// its address.
pub fn serve(url: &str, extra: &[&str]) -> (Console, SocketAddr) {
    let mut child = switchyard()
        .args(["serve", "--addr", "127.0.0.1:0", "--no-dns"])
        .args(["--database-url", url, "--log", "warn"])
        .args(extra)
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
    (Console(child), addr)
}

/// Signs in and returns the session cookie (`name=value`).
pub fn sign_in(addr: SocketAddr) -> String {
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

/// POSTs `form` to `path` with the session cookie; returns the status code and the body.
pub fn post_form(addr: SocketAddr, cookie: &str, path: &str, form: &str) -> (u16, String) {
    let mut tcp = TcpStream::connect(addr).expect("connect");
    write!(
        tcp,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/x-www-form-urlencoded\r\nAccept: application/json\r\nCookie: {cookie}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{form}",
        form.len()
    )
    .expect("send");
    read_answer(tcp)
}

/// GETs `path` (with the session cookie when given); returns the status code and the body.
pub fn get(addr: SocketAddr, cookie: Option<&str>, path: &str) -> (u16, String) {
    let mut tcp = TcpStream::connect(addr).expect("connect");
    let cookie = cookie.map_or(String::new(), |c| format!("Cookie: {c}\r\n"));
    write!(
        tcp,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\n{cookie}Connection: close\r\n\r\n"
    )
    .expect("send");
    read_answer(tcp)
}

/// Reads a whole HTTP/1.1 answer (the request said `Connection: close`): status and body.
fn read_answer(mut tcp: TcpStream) -> (u16, String) {
    let mut answer = String::new();
    tcp.read_to_string(&mut answer).expect("read answer");
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = answer
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_owned();
    (status, body)
}
