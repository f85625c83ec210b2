//! The SQLite store: the file created on demand (with its folder), WAL mode, the migrations of
//! `migrations/sqlite/` applied.

use std::str::FromStr;
use std::time::Duration;

use engine::Event;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{QueryBuilder, Sqlite, SqliteConnection, SqlitePool};

use crate::error::{Result, ServiceError};

/// The migrations of `migrations/sqlite/` at the top of the workspace, embedded at build time.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations/sqlite");

/// Opens (creating if needed) the database at `url` (`sqlite://path` or `sqlite::memory:`),
/// switches it to WAL and applies the migrations.
pub async fn connect(url: &str) -> Result<SqlitePool> {
    let options = SqliteConnectOptions::from_str(url)
        .map_err(|e| ServiceError::invalid("database-url", format!("not a SQLite URL: {e}")))?
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .foreign_keys(true)
        // A request's write waits for the events writer's transaction in progress: at `max`
        // the writer keeps SQLite busy, and SQLite's busy handler polls (up to every 100 ms),
        // so a login has waited over 4 s there. It waits rather than fails.
        .busy_timeout(Duration::from_secs(15))
        // Checkpoint the WAL every ~40 MB instead of every ~4 MB: bursts of events (a logon
        // storm on a large farm) write far fewer pages twice (docs/PERFORMANCE.md).
        .pragma("wal_autocheckpoint", "10000");
    if let Some(parent) = std::path::Path::new(options.get_filename()).parent() {
        if !parent.as_os_str().is_empty() {
            std::fs::create_dir_all(parent).map_err(|e| {
                ServiceError::invalid(
                    "database-url",
                    format!("cannot create folder {}: {e}", parent.display()),
                )
            })?;
        }
    }
    let in_memory = url.contains(":memory:");
    let pool = SqlitePoolOptions::new()
        // An in-memory database lives in one connection only.
        .max_connections(if in_memory { 1 } else { 8 })
        // A connection to a local file does not go stale: no ping before each use (it was
        // a round trip to the connection's thread for every query of every page).
        .test_before_acquire(false)
        .connect_with(options)
        .await?;
    MIGRATOR
        .run(&pool)
        .await
        .map_err(super::explain_migration)?;
    Ok(pool)
}

/// A connection of its own for the action journal, on the same database as `pool` with
/// `synchronous = FULL`: in WAL mode every commit on it is synced to disk before it returns,
/// so a journaled input survives a power cut, not only a crash of the process (the pool's
/// `NORMAL` is enough for the latter). It never runs the WAL's automatic checkpoint (see
/// [`events_connection`]).
pub async fn journal_connection(pool: &SqlitePool) -> Result<sqlx::SqliteConnection> {
    own_connection(pool, SqliteSynchronous::Full).await
}

/// A connection of its own for the persistence task's events and snapshots, on the same
/// database as `pool` (`synchronous = NORMAL`, as the pool: a crash of the process loses
/// nothing committed, and what a power cut could lose is rebuilt from the journal on resume).
/// It never runs the WAL's automatic checkpoint: a checkpoint copies megabytes into the
/// database file, and a journal commit queued behind it would wait that long. The WAL is
/// checkpointed in the background instead (see `runtime::writer`).
pub async fn events_connection(pool: &SqlitePool) -> Result<sqlx::SqliteConnection> {
    own_connection(pool, SqliteSynchronous::Normal).await
}

/// A connection outside `pool`, on its database, with `synchronous`, no automatic
/// checkpoint and a page cache of 32 MiB (SQLite's default is 2 MB): the events' indexes by
/// subject and by kind take each new row to a page of its own subject or kind, and with
/// thousands of subjects a small cache reads those pages back from the file at every
/// transaction (~20 % more events per second with it, docs/PERFORMANCE.md).
///
/// Its temporary files are kept in memory. Every multi-row `INSERT` of events keeps a
/// statement journal (the pages it changes, as they were, so that the statement alone can be
/// undone), and in a file that journal was written through the kernel for every statement:
/// 2 GB for the full-scale estate's simulated day, more than the WAL itself. It holds at most
/// the pages one statement of [`STATEMENT_ROWS`] events changes.
async fn own_connection(
    pool: &SqlitePool,
    synchronous: SqliteSynchronous,
) -> Result<sqlx::SqliteConnection> {
    use sqlx::ConnectOptions;
    let options = (*pool.connect_options())
        .clone()
        .synchronous(synchronous)
        .pragma("cache_size", "-32768")
        .pragma("temp_store", "memory")
        .pragma("wal_autocheckpoint", "0");
    Ok(options.connect().await?)
}

/// Inserts `events` (numbered from `first_seq`) in one multi-row statement; an event stored
/// already (same run and number: produced again by a resumed run) is skipped. At most
/// [`MAX_ROWS_PER_STATEMENT`] events.
pub async fn insert_event_rows(
    conn: &mut SqliteConnection,
    run_id: i64,
    first_seq: u64,
    events: &[Event],
) -> Result<()> {
    let mut seq = super::to_i64(first_seq);
    for rows in events.chunks(MAX_ROWS_PER_STATEMENT) {
        let mut insert: QueryBuilder<Sqlite> = QueryBuilder::new(
            "INSERT INTO events (run_id, seq, t_ms, engine, subject, kind, details, actor) ",
        );
        insert.push_values(rows, |mut row, e| {
            row.push_bind(run_id)
                .push_bind(seq)
                .push_bind(super::to_i64(e.t_ms))
                .push_bind(e.engine.as_str())
                .push_bind(e.subject.as_str())
                .push_bind(e.kind.as_str())
                .push_bind(e.details.json_text())
                .push_bind(e.actor.as_deref());
            seq = seq.saturating_add(1);
        });
        insert.push(" ON CONFLICT (run_id, seq) DO NOTHING");
        insert
            .build()
            .persistent(super::keep_prepared(rows.len(), STATEMENT_ROWS))
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// Events per statement of the persistence task on SQLite: a journal commit waits for at most
/// one of these (and the commit of the transaction it ends). Statements of this size stay
/// prepared ([`super::keep_prepared`]).
pub const STATEMENT_ROWS: usize = 250;

/// Rows per multi-row INSERT statement: 8 bound values each, 32,000 in all, under SQLite's
/// limit of 32,766 variables.
pub const MAX_ROWS_PER_STATEMENT: usize = 4_000;
