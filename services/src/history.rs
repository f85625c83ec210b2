//! Runs and persisted engine events: batched insertion, filtered and paged reading.

use engine::Event;
use serde::Serialize;
use sqlx::{QueryBuilder, Sqlite, SqliteConnection, SqlitePool};

use crate::db::now_text;
use crate::error::Result;

/// Rows per multi-row INSERT statement: 8 bound values each, 32,000 in all, under SQLite's
/// limit of 32,766 variables.
pub const ROWS_PER_STATEMENT: usize = 4_000;

/// A simulation run: one start of the engines on a scenario and seed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct Run {
    /// Row id.
    pub id: i64,
    /// Scenario name.
    pub scenario: String,
    /// RNG seed.
    pub seed: i64,
    /// Wall-clock start (RFC 3339, UTC).
    pub started_at: String,
}

/// Starts a new run and returns it; `scenario_toml` is the text the scenario came from, when
/// known (kept with the run).
pub async fn create_run(
    pool: &SqlitePool,
    scenario: &str,
    seed: u64,
    scenario_toml: Option<&str>,
) -> Result<Run> {
    let started_at = now_text();
    // SQLite integers are signed 64-bit: the seed is stored by its bit pattern.
    let seed = seed as i64;
    let id = sqlx::query(
        "INSERT INTO runs (scenario, seed, started_at, scenario_toml) VALUES (?, ?, ?, ?)",
    )
    .bind(scenario)
    .bind(seed)
    .bind(&started_at)
    .bind(scenario_toml)
    .execute(pool)
    .await?
    .last_insert_rowid();
    Ok(Run {
        id,
        scenario: scenario.to_owned(),
        seed,
        started_at,
    })
}

/// Records the speed run `run_id` started at.
pub async fn set_start_speed(pool: &SqlitePool, run_id: i64, speed: engine::Speed) -> Result<()> {
    sqlx::query("UPDATE runs SET start_speed = ? WHERE id = ?")
        .bind(speed.to_string())
        .bind(run_id)
        .execute(pool)
        .await?;
    Ok(())
}

/// The newest run that was not closed, with the speed it started at.
pub async fn unfinished_run(pool: &SqlitePool) -> Result<Option<(Run, Option<String>)>> {
    let row: Option<(i64, String, i64, String, Option<String>)> = sqlx::query_as(
        "SELECT id, scenario, seed, started_at, start_speed FROM runs WHERE ended_at IS NULL ORDER BY id DESC LIMIT 1",
    )
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|(id, scenario, seed, started_at, speed)| {
        (
            Run {
                id,
                scenario,
                seed,
                started_at,
            },
            speed,
        )
    }))
}

/// Closes every unfinished run (a new run starts; the old ones will not be resumed).
pub async fn end_unfinished_runs(pool: &SqlitePool) -> Result<()> {
    sqlx::query("UPDATE runs SET ended_at = ? WHERE ended_at IS NULL")
        .bind(now_text())
        .execute(pool)
        .await?;
    Ok(())
}

/// How far the stored events of run `run_id` go: the highest `seq` and the latest instant.
/// (Two queries: SQLite answers a lone MAX from an index, not two at once.)
pub async fn stored_extent(pool: &SqlitePool, run_id: i64) -> Result<(Option<u64>, Option<u64>)> {
    let seq: Option<i64> = sqlx::query_scalar("SELECT MAX(seq) FROM events WHERE run_id = ?")
        .bind(run_id)
        .fetch_one(pool)
        .await?;
    let t: Option<i64> = sqlx::query_scalar("SELECT MAX(t_ms) FROM events WHERE run_id = ?")
        .bind(run_id)
        .fetch_one(pool)
        .await?;
    Ok((
        seq.and_then(|s| u64::try_from(s).ok()),
        t.and_then(|t| u64::try_from(t).ok()),
    ))
}

/// Run `run_id` with the scenario text it was started with (when it was kept).
pub async fn find_run(pool: &SqlitePool, run_id: i64) -> Result<Option<(Run, Option<String>)>> {
    let row: Option<(i64, String, i64, String, Option<String>)> = sqlx::query_as(
        "SELECT id, scenario, seed, started_at, scenario_toml FROM runs WHERE id = ?",
    )
    .bind(run_id)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|(id, scenario, seed, started_at, text)| {
        (
            Run {
                id,
                scenario,
                seed,
                started_at,
            },
            text,
        )
    }))
}

/// The latest simulated instant run `run_id` recorded: its latest stored event, journal
/// entry or snapshot (0 when it recorded nothing).
pub async fn recorded_until(pool: &SqlitePool, run_id: i64) -> Result<u64> {
    let mut latest = 0_i64;
    for sql in [
        "SELECT MAX(t_ms) FROM events WHERE run_id = ?",
        "SELECT MAX(t_ms) FROM journal WHERE run_id = ?",
        "SELECT MAX(t_ms) FROM snapshots WHERE run_id = ?",
    ] {
        let t: Option<i64> = sqlx::query_scalar(sql).bind(run_id).fetch_one(pool).await?;
        latest = latest.max(t.unwrap_or(0));
    }
    Ok(u64::try_from(latest).unwrap_or(0))
}

/// Every run, newest first.
pub async fn list_runs(pool: &SqlitePool) -> Result<Vec<Run>> {
    Ok(
        sqlx::query_as::<_, Run>(
            "SELECT id, scenario, seed, started_at FROM runs ORDER BY id DESC",
        )
        .fetch_all(pool)
        .await?,
    )
}

/// Writes `events` of run `run_id` in one transaction; they are the run's events number
/// `first_seq`, `first_seq + 1`, ... An event whose number is stored already (a resumed run
/// produces it again) is left as it is.
pub async fn insert_events(
    pool: &SqlitePool,
    run_id: i64,
    first_seq: u64,
    events: &[Event],
) -> Result<()> {
    let mut tx = pool.begin().await?;
    let mut seq = first_seq;
    for rows in events.chunks(ROWS_PER_STATEMENT) {
        insert_event_rows(&mut tx, run_id, seq, rows).await?;
        seq += rows.len() as u64;
    }
    tx.commit().await?;
    Ok(())
}

/// Writes `events` (at most [`ROWS_PER_STATEMENT`]) of run `run_id` in one statement on
/// `conn` (a transaction of the caller's), numbered from `first_seq` as in [`insert_events`].
pub async fn insert_event_rows(
    conn: &mut SqliteConnection,
    run_id: i64,
    first_seq: u64,
    events: &[Event],
) -> Result<()> {
    if events.is_empty() {
        return Ok(());
    }
    let mut seq = i64::try_from(first_seq).unwrap_or(i64::MAX);
    let mut insert: QueryBuilder<Sqlite> = QueryBuilder::new(
        "INSERT INTO events (run_id, seq, t_ms, engine, subject, kind, details, actor) ",
    );
    insert.push_values(events, |mut row, e| {
        row.push_bind(run_id)
            .push_bind(seq)
            .push_bind(e.t_ms as i64)
            .push_bind(e.engine.as_str())
            .push_bind(e.subject.as_str())
            .push_bind(e.kind.as_str())
            .push_bind(e.details.to_string())
            .push_bind(e.actor.as_deref());
        seq = seq.saturating_add(1);
    });
    insert.push(" ON CONFLICT (run_id, seq) DO NOTHING");
    insert.build().execute(&mut *conn).await?;
    Ok(())
}

/// Which events to read. Every field is optional; all given ones must match.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EventFilter {
    /// The run (required: events of different runs share times).
    pub run_id: i64,
    /// Engine name (`core`, `lhc`, ...).
    pub engine: Option<String>,
    /// Exact subject.
    pub subject: Option<String>,
    /// Any of these subjects (ignored when empty).
    pub subjects: Vec<String>,
    /// Exact kind.
    pub kind: Option<String>,
    /// Any of these kinds (ignored when empty).
    pub kinds: Vec<String>,
    /// Earliest simulated time, inclusive.
    pub from_ms: Option<u64>,
    /// Latest simulated time, inclusive.
    pub to_ms: Option<u64>,
    /// The details JSON text contains this text (a plain substring match, e.g.
    /// `"host":"XA-01"` to find the events that list a server among their candidates).
    pub details_contains: Option<String>,
}

/// A persisted event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct StoredEvent {
    /// Row id (insertion order).
    pub id: i64,
    /// Simulated milliseconds since the scenario start.
    pub t_ms: i64,
    /// Engine name.
    pub engine: String,
    /// Subject id.
    pub subject: String,
    /// Event kind.
    pub kind: String,
    /// JSON object text.
    pub details: String,
    /// Acting user of an operator action.
    pub actor: Option<String>,
}

fn push_where(q: &mut QueryBuilder<'_, Sqlite>, f: &EventFilter) {
    q.push(" WHERE run_id = ").push_bind(f.run_id);
    if let Some(engine) = &f.engine {
        q.push(" AND engine = ").push_bind(engine.clone());
    }
    if let Some(subject) = &f.subject {
        q.push(" AND subject = ").push_bind(subject.clone());
    }
    if let Some(kind) = &f.kind {
        q.push(" AND kind = ").push_bind(kind.clone());
    }
    for (column, values) in [("subject", &f.subjects), ("kind", &f.kinds)] {
        if !values.is_empty() {
            q.push(format_args!(" AND {column} IN ("));
            let mut list = q.separated(", ");
            for v in values {
                list.push_bind(v.clone());
            }
            q.push(")");
        }
    }
    if let Some(from) = f.from_ms {
        q.push(" AND t_ms >= ").push_bind(from as i64);
    }
    if let Some(to) = f.to_ms {
        q.push(" AND t_ms <= ").push_bind(to as i64);
    }
    if let Some(text) = &f.details_contains {
        q.push(" AND instr(details, ")
            .push_bind(text.clone())
            .push(") > 0");
    }
}

/// Events matching `filter`, newest first, paged; with the total number matching.
pub async fn query_events(
    pool: &SqlitePool,
    filter: &EventFilter,
    offset: i64,
    limit: i64,
) -> Result<(Vec<StoredEvent>, i64)> {
    let mut count = QueryBuilder::new("SELECT COUNT(*) FROM events");
    push_where(&mut count, filter);
    let total: i64 = count.build_query_scalar().fetch_one(pool).await?;

    let mut page =
        QueryBuilder::new("SELECT id, t_ms, engine, subject, kind, details, actor FROM events");
    push_where(&mut page, filter);
    page.push(" ORDER BY t_ms DESC, id DESC LIMIT ")
        .push_bind(limit)
        .push(" OFFSET ")
        .push_bind(offset);
    let rows = page.build_query_as::<StoredEvent>().fetch_all(pool).await?;
    Ok((rows, total))
}

/// Every event matching `filter` in time order (oldest first), at most `cap` rows, for export.
pub async fn export_events(
    pool: &SqlitePool,
    filter: &EventFilter,
    cap: i64,
) -> Result<Vec<StoredEvent>> {
    let mut q =
        QueryBuilder::new("SELECT id, t_ms, engine, subject, kind, details, actor FROM events");
    push_where(&mut q, filter);
    q.push(" ORDER BY t_ms, id LIMIT ").push_bind(cap);
    Ok(q.build_query_as::<StoredEvent>().fetch_all(pool).await?)
}

/// The newest `cap` events matching `filter`, returned oldest first (for charts).
pub async fn latest_in_time_order(
    pool: &SqlitePool,
    filter: &EventFilter,
    cap: i64,
) -> Result<Vec<StoredEvent>> {
    let (mut rows, _) = query_events(pool, filter, 0, cap).await?;
    rows.reverse();
    Ok(rows)
}

/// Number of events of a run per engine.
pub async fn counts_by_engine(pool: &SqlitePool, run_id: i64) -> Result<Vec<(String, i64)>> {
    Ok(sqlx::query_as(
        "SELECT engine, COUNT(*) FROM events WHERE run_id = ? GROUP BY engine ORDER BY engine",
    )
    .bind(run_id)
    .fetch_all(pool)
    .await?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{EngineId, SimTime};

    fn ev(t: u64, subject: &str, kind: &str) -> Event {
        Event::new(
            SimTime(t),
            EngineId::Core,
            subject,
            kind,
            serde_json::json!({"t": t}),
        )
    }

    #[tokio::test]
    async fn inserts_in_batches_and_filters() {
        let pool = crate::db::connect("sqlite::memory:").await.expect("pool");
        let run = create_run(&pool, "demo", 7, None).await.expect("run");
        let other = create_run(&pool, "demo", 8, None).await.expect("run");
        let events: Vec<Event> = (0..1200)
            .map(|i| ev(i * 10, if i % 2 == 0 { "a" } else { "b" }, "heartbeat"))
            .collect();
        insert_events(&pool, run.id, 0, &events)
            .await
            .expect("insert");
        // Produced again by a resumed run: stored once.
        insert_events(&pool, run.id, 1000, &events[1000..])
            .await
            .expect("insert again");
        insert_events(&pool, other.id, 0, &events[..5])
            .await
            .expect("insert");

        let all = EventFilter {
            run_id: run.id,
            ..Default::default()
        };
        let (page, total) = query_events(&pool, &all, 0, 50).await.expect("query");
        assert_eq!(total, 1200);
        assert_eq!(page.len(), 50);
        assert_eq!(page[0].t_ms, 11_990, "newest first");

        let f = EventFilter {
            run_id: run.id,
            subject: Some("a".into()),
            from_ms: Some(100),
            to_ms: Some(200),
            ..Default::default()
        };
        let rows = export_events(&pool, &f, 1000).await.expect("export");
        let times: Vec<i64> = rows.iter().map(|r| r.t_ms).collect();
        assert_eq!(times, vec![100, 120, 140, 160, 180, 200]);
        assert_eq!(rows[0].details, r#"{"t":100}"#);

        let f = EventFilter {
            run_id: run.id,
            subjects: vec!["a".into(), "b".into()],
            kinds: vec!["heartbeat".into(), "other".into()],
            to_ms: Some(30),
            ..Default::default()
        };
        let rows = latest_in_time_order(&pool, &f, 3).await.expect("series");
        let times: Vec<i64> = rows.iter().map(|r| r.t_ms).collect();
        assert_eq!(times, vec![10, 20, 30], "newest three, oldest first");

        let counts = counts_by_engine(&pool, other.id).await.expect("counts");
        assert_eq!(counts, vec![("core".to_owned(), 5)]);
    }
}
