//! Durable runs with the real binary: what the console acknowledged survives `kill -9`, and
//! the next start resumes the same run instead of starting a new one.

use std::process::Command;

use crate::common::process::{add_operator, post_form, serve, sign_in};

/// Notes sent (and acknowledged) before the kill.
const NOTES: usize = 20;

fn query<T>(url: &str, look: impl AsyncFnOnce(&services::Store) -> T) -> T {
    let rt = tokio::runtime::Runtime::new().expect("tokio");
    rt.block_on(async {
        let pool = services::Store::connect(url).await.expect("db");
        look(&pool).await
    })
}

#[test]
fn acknowledged_notes_survive_kill_9_and_the_run_resumes_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = format!("sqlite://{}", dir.path().join("d.db").display());
    add_operator(&url);
    let (mut child, addr) = serve(&url, &["--speed", "max"]);
    let cookie = sign_in(addr);
    for i in 0..NOTES {
        let (status, body) = post_form(addr, &cookie, "/api/add_note", &format!("text=note-{i}"));
        assert_eq!(status, 200, "note {i}: {body}");
    }
    // No grace: the process dies with whatever it had in memory.
    child.kill().expect("kill -9");
    child.wait().expect("reaped");

    let (mut again, _) = serve(&url, &["--resume", "paused"]);
    let term = Command::new("kill")
        .args(["-TERM", &again.id().to_string()])
        .status()
        .expect("kill");
    assert!(term.success());
    assert!(again.wait().expect("wait").success());

    let (runs, notes, journal, audit, seqs): (i64, Vec<String>, i64, i64, (i64, Option<i64>)) =
        query(&url, async |pool| {
            let runs = sqlx::query_scalar("SELECT COUNT(*) FROM runs")
                .fetch_one(sqlite(pool))
                .await
                .expect("runs");
            let notes = sqlx::query_scalar(
                "SELECT json_extract(details, '$.text') FROM events WHERE kind = 'operator.note' AND actor = 'olga' ORDER BY seq",
            )
            .fetch_all(sqlite(pool))
            .await
            .expect("notes");
            let journal = sqlx::query_scalar("SELECT COUNT(*) FROM journal WHERE kind = 'action'")
                .fetch_one(sqlite(pool))
                .await
                .expect("journal");
            let audit = sqlx::query_scalar(
                "SELECT COUNT(*) FROM audit_log WHERE action = 'timeline.note' AND outcome = 'ok'",
            )
            .fetch_one(sqlite(pool))
            .await
            .expect("audit");
            let seqs = sqlx::query_as("SELECT COUNT(*), MAX(seq) FROM events")
                .fetch_one(sqlite(pool))
                .await
                .expect("seqs");
            (runs, notes, journal, audit, seqs)
        });
    assert_eq!(runs, 1, "the second start resumed the run");
    let want: Vec<String> = (0..NOTES).map(|i| format!("note-{i}")).collect();
    assert_eq!(notes, want, "every acknowledged note, once, in order");
    assert_eq!(journal, NOTES as i64);
    assert_eq!(audit, NOTES as i64, "one audit row per note");
    assert_eq!(
        Some(seqs.0 - 1),
        seqs.1,
        "events numbered without a gap or a duplicate"
    );
}

/// A small deterministic generator (xorshift) for the kill instants; the seed is printed in
/// every failure so a failing schedule can be replayed.
struct Schedule(u64);

impl Schedule {
    fn next(&mut self, below: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % below
    }
}

/// One operator input over HTTP (a refused one, e.g. clearing an outage nobody forced, is
/// not journaled and changes nothing).
fn operator_input(addr: std::net::SocketAddr, cookie: &str, pick: u64, i: u64) {
    let (path, form) = match pick {
        0 => ("/api/add_note", format!("text=input-{i}")),
        1 => (
            "/api/lhc_act",
            "op=force_outage&resource_location=rl-paris".to_owned(),
        ),
        2 => (
            "/api/lhc_act",
            "op=clear_outage&resource_location=rl-paris".to_owned(),
        ),
        3 => ("/api/set_speed", "speed=max".to_owned()),
        4 => ("/api/set_speed", "speed=x600".to_owned()),
        _ => ("/api/step_clock", String::new()),
    };
    let (status, body) = post_form(addr, cookie, path, &form);
    assert!(
        status == 200 || status == 422,
        "{path} {form}: {status} {body}"
    );
}

/// Every stored event of run 1 as comparable rows, in `seq` order.
type Row = (i64, i64, String, String, String, String, Option<String>);

/// The log an uninterrupted run of the same journal stores: the demo estate from its start,
/// each journal entry played at its instant (the live runtime's code path), then advanced to
/// the latest stored instant.
fn uninterrupted(journal: &[services::journal::Journaled], until: u64) -> Vec<Row> {
    let scenario =
        engine::Scenario::from_toml_str(include_str!("../../../scenarios/demo.toml"), "demo.toml")
            .expect("demo");
    let mut sim = engine::Simulation::new(&scenario, scenario.seed());
    let mut events = Vec::new();
    for entry in journal {
        events.extend(
            services::runtime::inputs::replay(&mut sim, entry).expect("a journaled input applies"),
        );
    }
    events.extend(sim.advance_to(engine::SimTime(until)));
    events
        .into_iter()
        .enumerate()
        .map(|(seq, e)| {
            (
                seq as i64,
                e.t_ms as i64,
                e.engine.as_str().to_owned(),
                e.subject.clone(),
                e.kind.clone(),
                e.details.to_string(),
                e.actor.clone(),
            )
        })
        .collect()
}

#[test]
fn kill_9_at_random_instants_stores_the_log_of_an_uninterrupted_run() {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
        | 1;
    let mut schedule = Schedule(seed);
    let dir = tempfile::tempdir().expect("tempdir");
    let url = format!("sqlite://{}", dir.path().join("k.db").display());
    add_operator(&url);
    let mut inputs = 0;
    for round in 0..4 {
        let speed: &[&str] = if round == 0 {
            &["--speed", "600x"]
        } else {
            &[]
        };
        let (mut child, addr) = serve(&url, speed);
        let cookie = sign_in(addr);
        for _ in 0..3 + schedule.next(6) {
            operator_input(addr, &cookie, schedule.next(6), inputs);
            inputs += 1;
            std::thread::sleep(std::time::Duration::from_millis(20 + schedule.next(150)));
        }
        if round < 3 {
            // A crash at a random instant: no grace, whatever was in memory is lost.
            std::thread::sleep(std::time::Duration::from_millis(schedule.next(300)));
            child.kill().expect("kill -9");
            child.wait().expect("reaped");
        } else {
            let term = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status()
                .expect("kill");
            assert!(term.success());
            assert!(child.wait().expect("wait").success(), "seed {seed}");
        }
    }

    let (runs, stored, journal): (i64, Vec<Row>, Vec<services::journal::Journaled>) = query(
        &url,
        async |pool| {
            let runs = sqlx::query_scalar("SELECT COUNT(*) FROM runs")
                .fetch_one(sqlite(pool))
                .await
                .expect("runs");
            let stored = sqlx::query_as(
                "SELECT seq, t_ms, engine, subject, kind, details, actor FROM events WHERE run_id = 1 ORDER BY seq",
            )
            .fetch_all(sqlite(pool))
            .await
            .expect("events");
            let journal = services::journal::read(pool, 1, 0).await.expect("journal");
            (runs, stored, journal)
        },
    );
    assert_eq!(runs, 1, "seed {seed}: every start resumed the run");
    assert!(!journal.is_empty(), "seed {seed}: inputs were journaled");
    let until = stored.last().map_or(0, |r| r.1 as u64);
    let want = uninterrupted(&journal, until);
    assert_eq!(
        stored.len(),
        want.len(),
        "seed {seed}: as many events as an uninterrupted run"
    );
    if let Some(i) = (0..want.len()).find(|&i| stored[i] != want[i]) {
        panic!(
            "seed {seed}: event {i} differs:\n stored {:?}\n   want {:?}",
            stored[i], want[i]
        );
    }
}

/// The SQLite pool of a test's store, for looking at its tables directly.
fn sqlite(store: &services::Store) -> &sqlx::SqlitePool {
    store.sqlite_pool().expect("an SQLite store")
}
