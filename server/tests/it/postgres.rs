//! The real binary on PostgreSQL (the throwaway cluster of `make test`,
//! `SWITCHYARD_TEST_POSTGRES_URL`), and the start-up refusals of a database that cannot be
//! used, on either store.

use std::process::{Command, Stdio};

use crate::common::process::{add_operator, post_form, serve, sign_in, switchyard};

/// A fresh database on the test cluster, or `None` (said on stderr) outside `make test`.
pub(crate) fn scratch(prefix: &str) -> Option<String> {
    let Ok(admin) = std::env::var("SWITCHYARD_TEST_POSTGRES_URL") else {
        eprintln!("skipped: SWITCHYARD_TEST_POSTGRES_URL is not set (make test sets it)");
        return None;
    };
    let rt = tokio::runtime::Runtime::new().expect("tokio");
    Some(
        rt.block_on(services::store::postgres::scratch_database(&admin, prefix))
            .expect("scratch database"),
    )
}

fn on_store<T>(url: &str, look: impl AsyncFnOnce(&services::Store) -> T) -> T {
    let rt = tokio::runtime::Runtime::new().expect("tokio");
    rt.block_on(async {
        let store = services::Store::connect(url).await.expect("store");
        look(&store).await
    })
}

/// What a run left in a PostgreSQL database.
pub(crate) struct Stored {
    pub runs: i64,
    /// The texts of olga's notes, in the order they were stored.
    pub notes: Vec<String>,
    /// How many events, and the highest number.
    pub numbered: (i64, Option<i64>),
    /// The latest instant of an event.
    pub last_t: Option<i64>,
}

pub(crate) fn stored(url: &str) -> Stored {
    on_store(url, async |store| {
        let pool = store.postgres_pool().expect("a PostgreSQL store");
        let runs = sqlx::query_scalar("SELECT COUNT(*) FROM runs")
            .fetch_one(pool)
            .await
            .expect("runs");
        let notes = sqlx::query_scalar(
            "SELECT details::json->>'text' FROM events WHERE kind = 'operator.note' AND actor = 'olga' ORDER BY seq",
        )
        .fetch_all(pool)
        .await
        .expect("notes");
        let numbered = sqlx::query_as("SELECT COUNT(*), MAX(seq) FROM events")
            .fetch_one(pool)
            .await
            .expect("seqs");
        let last_t = sqlx::query_scalar("SELECT MAX(t_ms) FROM events")
            .fetch_one(pool)
            .await
            .expect("last");
        Stored {
            runs,
            notes,
            numbered,
            last_t,
        }
    })
}

/// `serve` with `url` and `extra` arguments: its exit status and what it printed on stderr.
fn refused(url: &str, extra: &[&str]) -> (Option<i32>, String) {
    let out = switchyard()
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--no-dns",
            "--database-url",
            url,
        ])
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .expect("run serve");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Marks the database at `url` as migrated by a later version of the console.
fn migrate_by_a_newer_version(url: &str) {
    on_store(url, async |store| {
        let sql = "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
                   VALUES (99991231000001, 'from the future', TRUE, $1, 0)";
        match store.dialect() {
            services::store::Dialect::Sqlite => sqlx::query(sql)
                .bind(vec![0_u8; 48])
                .execute(store.sqlite_pool().expect("pool"))
                .await
                .map(|_| ()),
            services::store::Dialect::Postgres => sqlx::query(sql)
                .bind(vec![0_u8; 48])
                .execute(store.postgres_pool().expect("pool"))
                .await
                .map(|_| ()),
        }
        .expect("a migration from the future");
    });
}

#[test]
fn a_database_that_cannot_be_used_stops_the_start_with_one_line_and_status_2() {
    let dir = tempfile::tempdir().expect("dir");
    let newer_sqlite = format!("sqlite://{}", dir.path().join("newer.db").display());
    on_store(&newer_sqlite, async |_| ());
    migrate_by_a_newer_version(&newer_sqlite);
    let mut cases = vec![
        (
            format!("mysql://{}/x", dir.path().display()),
            "unsupported scheme \"mysql\"",
        ),
        (
            dir.path().join("plain.db").display().to_string(),
            "has no scheme",
        ),
        (
            "postgres://postgres@127.0.0.1:1/switchyard".to_owned(),
            "cannot open PostgreSQL at 127.0.0.1:1",
        ),
        (newer_sqlite, "migrated by a newer version of Switchyard"),
    ];
    if let Some(newer_pg) = scratch("newer") {
        on_store(&newer_pg, async |_| ());
        migrate_by_a_newer_version(&newer_pg);
        cases.push((
            newer_pg.clone(),
            "migrated by a newer version of Switchyard",
        ));
        let (base, _) = newer_pg.rsplit_once('/').expect("url");
        cases.push((format!("{base}/no_such_database"), "does not exist"));
        // The test cluster asks for the password over TCP.
        let (user, rest) = newer_pg.split_once('@').expect("url");
        let (scheme_user, _) = user.rsplit_once(':').expect("a password in the URL");
        cases.push((
            format!("{scheme_user}:wrong-password@{rest}"),
            "password authentication failed",
        ));
    }
    for (url, want) in cases {
        let (status, stderr) = refused(&url, &[]);
        assert_eq!(status, Some(2), "{url}: {stderr}");
        assert_eq!(
            stderr.trim_end().lines().count(),
            1,
            "{url}: one line: {stderr}"
        );
        assert!(
            stderr.starts_with("switchyard: database-url: "),
            "{url}: {stderr}"
        );
        assert!(stderr.contains(want), "{url}: {stderr}");
    }
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .expect("dir")
        .filter_map(|e| e.ok().map(|e| e.file_name()))
        .filter(|name| !name.to_string_lossy().starts_with("newer.db"))
        .collect();
    assert!(
        left.is_empty(),
        "nothing created for a refused URL: {left:?}"
    );
}

#[test]
fn on_postgres_acknowledged_notes_survive_kill_9_and_the_run_resumes() {
    let Some(url) = scratch("durable") else {
        return;
    };
    add_operator(&url);
    let (mut child, addr) = serve(&url, &["--speed", "max"]);
    let cookie = sign_in(addr);
    for i in 0..10 {
        let (status, body) =
            post_form(addr, &cookie, "/api/add_note", &format!("text=pg-note-{i}"));
        assert_eq!(status, 200, "note {i}: {body}");
    }
    child.kill().expect("kill -9");
    child.wait().expect("reaped");

    let (mut again, addr) = serve(&url, &["--resume", "paused"]);
    // One console leads a PostgreSQL database: a second one cannot start a new run.
    let (status, stderr) = refused(&url, &["--new-run"]);
    assert_eq!(status, Some(2), "{stderr}");
    assert!(
        stderr.contains("another Switchyard console leads this database"),
        "{stderr}"
    );
    let cookie = sign_in(addr);
    let (status, _) = post_form(addr, &cookie, "/api/add_note", "text=pg-note-after");
    assert_eq!(status, 200);
    let term = Command::new("kill")
        .args(["-TERM", &again.id().to_string()])
        .status()
        .expect("kill");
    assert!(term.success());
    assert!(again.wait().expect("wait").success());

    let Stored {
        runs,
        notes,
        numbered,
        ..
    } = stored(&url);
    assert_eq!(runs, 1, "the second start resumed the run");
    let mut want: Vec<String> = (0..10).map(|i| format!("pg-note-{i}")).collect();
    want.push("pg-note-after".into());
    assert_eq!(notes, want, "every acknowledged note, once, in order");
    assert_eq!(
        Some(numbered.0 - 1),
        numbered.1,
        "events numbered without a gap or a duplicate"
    );
}

#[test]
fn losing_the_database_answers_503_and_writes_resume_when_it_is_back() {
    use crate::common::pg_cluster::Cluster;
    use crate::common::process::get;
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let url = cluster.url();
    add_operator(&url);
    let (mut child, addr) = serve(&url, &["--speed", "600x"]);
    let cookie = sign_in(addr);
    let (status, body) = post_form(addr, &cookie, "/api/add_note", "text=before");
    assert_eq!(status, 200, "{body}");

    cluster.stop();
    let (status, body) = post_form(addr, &cookie, "/api/add_note", "text=during");
    assert_eq!(
        status, 503,
        "an action is refused, not acknowledged: {body}"
    );
    assert!(body.contains("the database does not answer"), "{body}");
    let (status, body) = get(addr, Some(&cookie), "/lhc");
    assert_eq!(status, 503, "a page says why: {body}");
    assert!(body.contains("the database does not answer"), "{body}");
    assert_eq!(get(addr, None, "/healthz").0, 503);

    cluster.start_again();
    let back = std::time::Instant::now();
    while get(addr, None, "/healthz").0 != 200 {
        assert!(back.elapsed().as_secs() < 20, "healthy again within 20 s");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    let (status, body) = post_form(addr, &cookie, "/api/add_note", "text=after");
    assert_eq!(status, 200, "actions are acknowledged again: {body}");
    // The events of the outage wait in the console and are stored once it is back.
    std::thread::sleep(std::time::Duration::from_secs(2));
    let term = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(term.success());
    assert!(child.wait().expect("wait").success());

    let Stored {
        notes,
        numbered,
        last_t,
        ..
    } = stored(&url);
    assert_eq!(
        notes,
        ["before", "after"],
        "what was acknowledged, and only that"
    );
    assert_eq!(
        Some(numbered.0 - 1),
        numbered.1,
        "the events of the outage were stored when it was back: no gap"
    );
    assert!(last_t.unwrap_or(0) > 0);
}
