//! Durable runs with the real binary: what the console acknowledged survives `kill -9`, and
//! the next start resumes the same run instead of starting a new one.

use std::process::Command;

use crate::common::process::{add_operator, post_form, serve, sign_in};

/// Notes sent (and acknowledged) before the kill.
const NOTES: usize = 20;

fn query<T>(url: &str, look: impl AsyncFnOnce(&sqlx::SqlitePool) -> T) -> T {
    let rt = tokio::runtime::Runtime::new().expect("tokio");
    rt.block_on(async {
        let pool = services::db::connect(url).await.expect("db");
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
                .fetch_one(pool)
                .await
                .expect("runs");
            let notes = sqlx::query_scalar(
                "SELECT json_extract(details, '$.text') FROM events WHERE kind = 'operator.note' AND actor = 'olga' ORDER BY seq",
            )
            .fetch_all(pool)
            .await
            .expect("notes");
            let journal = sqlx::query_scalar("SELECT COUNT(*) FROM journal WHERE kind = 'action'")
                .fetch_one(pool)
                .await
                .expect("journal");
            let audit = sqlx::query_scalar(
                "SELECT COUNT(*) FROM audit_log WHERE action = 'timeline.note' AND outcome = 'ok'",
            )
            .fetch_one(pool)
            .await
            .expect("audit");
            let seqs = sqlx::query_as("SELECT COUNT(*), MAX(seq) FROM events")
                .fetch_one(pool)
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
