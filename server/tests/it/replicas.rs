//! Two consoles on one PostgreSQL database, as real processes: one leads, the other follows
//! its run; inputs accepted by the follower reach the leader's history; kill -9 of the
//! leader, and the follower leads the same run within the failover limit, nothing
//! acknowledged lost.

use std::net::SocketAddr;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::process::{add_operator, get, post_form, serve, sign_in};
use crate::postgres::{scratch, stored, Stored};

/// The failover limit of the replicas (docs/DEPLOYMENT.md; the target is 5 s).
const FAILOVER_LIMIT: Duration = Duration::from_secs(15);

fn health(addr: SocketAddr) -> serde_json::Value {
    let (status, body) = get(addr, None, "/healthz");
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).expect("health JSON")
}

/// Waits until `look` holds of the console's health, for at most `limit`.
fn until(addr: SocketAddr, limit: Duration, look: impl Fn(&serde_json::Value) -> bool) -> Duration {
    let started = Instant::now();
    loop {
        let now = health(addr);
        if look(&now) {
            return started.elapsed();
        }
        assert!(started.elapsed() < limit, "not within {limit:?}: {now}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_follower_serves_the_run_takes_inputs_and_leads_when_the_leader_is_killed() {
    let Some(url) = scratch("replicas") else {
        return;
    };
    add_operator(&url);
    let (mut leader, a) = serve(&url, &["--speed", "60x"]);
    let (mut follower, b) = serve(&url, &[]);
    let (from_a, from_b) = (health(a), health(b));
    assert_eq!(from_a["role"], "leader", "{from_a}");
    assert_eq!(from_b["role"], "follower", "{from_b}");
    assert_eq!(from_a["run"], from_b["run"], "one run");
    let run = from_a["run"].clone();

    // The follower's copy moves with the leader's clock.
    let t0 = from_b["sim_time_ms"].as_u64().expect("time");
    until(b, Duration::from_secs(5), |h| {
        h["sim_time_ms"].as_u64() > Some(t0 + 60_000)
    });
    let lag = health(b)["lag_ms"].as_u64().expect("lag");
    assert!(lag < 2_000, "the follower keeps up: {lag} ms behind");

    // Inputs accepted by the follower are applied by the leader and stored by it.
    let cookie = sign_in(b);
    for i in 0..5 {
        let (status, body) = post_form(
            b,
            &cookie,
            "/api/add_note",
            &format!("text=via-follower-{i}"),
        );
        assert_eq!(status, 200, "note {i}: {body}");
    }
    let journaled = health(a)["journal_entries"].as_u64().expect("journal");
    assert!(journaled >= 5, "the leader journaled them: {journaled}");
    let seen = health(b)["journal_entries"].as_u64().expect("journal");
    assert!(
        seen >= 5,
        "an acknowledged input is in the follower's copy: {seen}"
    );

    leader.kill().expect("kill -9");
    leader.wait().expect("reaped");
    let took = until(b, FAILOVER_LIMIT, |h| h["role"] == "leader");
    eprintln!("failover: the follower led {took:?} after kill -9 of the leader");

    let (status, body) = post_form(b, &cookie, "/api/add_note", "text=after-failover");
    assert_eq!(status, 200, "the new leader takes inputs: {body}");
    let now = health(b);
    assert_eq!(now["run"], run, "the same run goes on");
    let t1 = now["sim_time_ms"].as_u64().expect("time");
    until(b, Duration::from_secs(5), |h| {
        h["sim_time_ms"].as_u64() > Some(t1)
    });

    let term = Command::new("kill")
        .args(["-TERM", &follower.id().to_string()])
        .status()
        .expect("kill");
    assert!(term.success());
    assert!(follower.wait().expect("wait").success());

    let Stored {
        runs,
        notes,
        numbered,
        ..
    } = stored(&url);
    assert_eq!(runs, 1, "one run, led by one console then the other");
    let mut want: Vec<String> = (0..5).map(|i| format!("via-follower-{i}")).collect();
    want.push("after-failover".into());
    assert_eq!(notes, want, "every acknowledged note, once, in order");
    assert_eq!(
        Some(numbered.0 - 1),
        numbered.1,
        "events numbered without a gap or a duplicate across the failover"
    );
}
