//! Runs and persisted engine events: writing batches, reading pages of a filtered history
//! newest first by keyset (never by counting or skipping the rows before a page), the newest
//! events of a series, and exports in time order.
//!
//! Every read names its run and is served by an index that starts with it: `(run, time)` for
//! the whole run, `(run, subject, time)` for an entity's timeline, `(run, engine, time)` and
//! `(run, engine, kind, time)` for the engine and kind filters (migrations of both dialects).

use engine::Event;
use serde::{Deserialize, Serialize};
use sqlx::{Acquire, Database, Encode, Pool, QueryBuilder, Type};

use crate::error::Result;
use crate::store::{self, now_text, on_pool, Dialect, EventRows, Store};

mod order;

pub use order::EventOrder;

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

type RunRow = (i64, String, i64, String, Option<String>);

fn run_of((id, scenario, seed, started_at, extra): RunRow) -> (Run, Option<String>) {
    (
        Run {
            id,
            scenario,
            seed,
            started_at,
        },
        extra,
    )
}

/// Starts a new run and returns it; `scenario_toml` is the text the scenario came from, when
/// known (kept with the run).
pub async fn create_run(
    store: &Store,
    scenario: &str,
    seed: u64,
    scenario_toml: Option<&str>,
) -> Result<Run> {
    let started_at = now_text();
    // The stores' integers are signed 64-bit: the seed is stored by its bit pattern.
    let seed = seed as i64;
    let id: i64 = on_pool!(store, pool => sqlx::query_scalar(
        "INSERT INTO runs (scenario, seed, started_at, scenario_toml) VALUES ($1, $2, $3, $4) RETURNING id",
    )
    .bind(scenario)
    .bind(seed)
    .bind(&started_at)
    .bind(scenario_toml)
    .fetch_one(pool)
    .await)?;
    Ok(Run {
        id,
        scenario: scenario.to_owned(),
        seed,
        started_at,
    })
}

/// Records the speed a run's clock started at.
pub async fn set_start_speed(store: &Store, run_id: i64, speed: engine::Speed) -> Result<()> {
    on_pool!(store, pool => sqlx::query("UPDATE runs SET start_speed = $1 WHERE id = $2")
        .bind(speed.to_string())
        .bind(run_id)
        .execute(pool)
        .await.map(|_| ()))?;
    Ok(())
}

/// The latest run that was never closed (the one `serve` resumes), with its start speed.
pub async fn unfinished_run(store: &Store) -> Result<Option<(Run, Option<String>)>> {
    let row: Option<RunRow> = on_pool!(store, pool => sqlx::query_as(
        "SELECT id, scenario, seed, started_at, start_speed FROM runs WHERE ended_at IS NULL ORDER BY id DESC LIMIT 1",
    )
    .fetch_optional(pool)
    .await)?;
    Ok(row.map(run_of))
}

/// Closes every unfinished run (a new run starts; nothing is deleted).
pub async fn end_unfinished_runs(store: &Store) -> Result<()> {
    on_pool!(store, pool => sqlx::query("UPDATE runs SET ended_at = $1 WHERE ended_at IS NULL")
        .bind(now_text())
        .execute(pool)
        .await.map(|_| ()))?;
    Ok(())
}

/// Closes run `run_id`: a recording (`simulate --database-url`) is closed as it starts, so
/// that a console never resumes it as its own.
pub async fn end_run(store: &Store, run_id: i64) -> Result<()> {
    on_pool!(store, pool => sqlx::query("UPDATE runs SET ended_at = $1 WHERE id = $2")
        .bind(now_text())
        .bind(run_id)
        .execute(pool)
        .await.map(|_| ()))?;
    Ok(())
}

/// The number and instant of the last stored event of a run (`None`s when it has none).
pub async fn stored_extent(store: &Store, run_id: i64) -> Result<(Option<u64>, Option<u64>)> {
    // The last event is the latest in (time, number) order: events are produced in time order.
    let sql = match store.dialect() {
        Dialect::Sqlite => {
            "SELECT seq, t_ms FROM events WHERE run_id = $1 AND seq IS NOT NULL \
             ORDER BY seq DESC LIMIT 1"
        }
        Dialect::Postgres => {
            "SELECT seq, t_ms FROM events WHERE run_id = $1 ORDER BY t_ms DESC, seq DESC LIMIT 1"
        }
    };
    let row: Option<(i64, i64)> =
        on_pool!(store, pool => sqlx::query_as(sql).bind(run_id).fetch_optional(pool).await)?;
    Ok(match row {
        Some((seq, t)) => (u64::try_from(seq).ok(), u64::try_from(t).ok()),
        None => (None, None),
    })
}

/// How many of a run's latest stored events [`first_unstored`] looks at: more than the
/// persistence task ever has in flight (two transactions of `writer::CHUNK_ROWS`).
pub const UNSTORED_WINDOW: i64 = 16_384;

/// The number of the first event of run `run_id` that is not stored, among its latest
/// [`UNSTORED_WINDOW`] events: the persistence task stores two transactions at once on
/// PostgreSQL, so after a crash the later one may be stored and the earlier not. With no
/// gap it is the number after the last stored event; 0 when nothing is stored.
pub async fn first_unstored(store: &Store, run_id: i64) -> Result<u64> {
    let sql = match store.dialect() {
        Dialect::Sqlite => {
            "SELECT seq FROM events WHERE run_id = $1 AND seq IS NOT NULL \
             ORDER BY seq DESC LIMIT $2"
        }
        Dialect::Postgres => {
            "SELECT seq FROM events WHERE run_id = $1 ORDER BY t_ms DESC, seq DESC LIMIT $2"
        }
    };
    let mut seqs: Vec<i64> = on_pool!(store, pool => sqlx::query_scalar(sql)
        .bind(run_id)
        .bind(UNSTORED_WINDOW)
        .fetch_all(pool)
        .await)?;
    seqs.sort_unstable();
    Ok(first_gap(&seqs, seqs.len() < UNSTORED_WINDOW as usize))
}

/// The first number missing from `seqs` (sorted, distinct), counting from its first number,
/// or from 0 when `whole` (they are every stored event of the run).
fn first_gap(seqs: &[i64], whole: bool) -> u64 {
    let Some(&lowest) = seqs.first() else {
        return 0;
    };
    let mut expected = if whole { 0 } else { lowest };
    for &seq in seqs {
        if seq != expected {
            break;
        }
        expected += 1;
    }
    u64::try_from(expected).unwrap_or(0)
}

/// A run and the scenario text it was started with.
pub async fn find_run(store: &Store, run_id: i64) -> Result<Option<(Run, Option<String>)>> {
    let row: Option<RunRow> = on_pool!(store, pool => sqlx::query_as(
        "SELECT id, scenario, seed, started_at, scenario_toml FROM runs WHERE id = $1",
    )
    .bind(run_id)
    .fetch_optional(pool)
    .await)?;
    Ok(row.map(run_of))
}

/// The details (JSON object text) of one stored event of `run_id`, found by its instant and
/// place ([`StoredEvent::id`], as a [`Cursor`] names them); `None` when the run has no such
/// event. A table of events carries the key, not the JSON: the JSON is read when asked for.
pub async fn event_details(store: &Store, run_id: i64, at: Cursor) -> Result<Option<String>> {
    let sql = format!(
        "SELECT details FROM events WHERE run_id = $1 AND t_ms = $2 AND {} = $3",
        id_column(store.dialect())
    );
    Ok(on_pool!(store, pool => sqlx::query_scalar(&sql)
        .bind(run_id)
        .bind(at.t_ms)
        .bind(at.id)
        .fetch_optional(pool)
        .await)?)
}

/// The latest simulated instant anything of the run was recorded at (event, journal entry
/// or snapshot): how far a look back into the run can go.
pub async fn recorded_until(store: &Store, run_id: i64) -> Result<u64> {
    let mut latest = 0_i64;
    for sql in [
        "SELECT t_ms FROM events WHERE run_id = $1 ORDER BY t_ms DESC LIMIT 1",
        "SELECT t_ms FROM journal WHERE run_id = $1 ORDER BY seq DESC LIMIT 1",
        "SELECT t_ms FROM snapshots WHERE run_id = $1 ORDER BY t_ms DESC LIMIT 1",
    ] {
        let t: Option<i64> = on_pool!(store, pool => sqlx::query_scalar(sql).bind(run_id).fetch_optional(pool).await)?;
        latest = latest.max(t.unwrap_or(0));
    }
    Ok(u64::try_from(latest).unwrap_or(0))
}

/// All runs, newest first.
pub async fn list_runs(store: &Store) -> Result<Vec<Run>> {
    Ok(on_pool!(store, pool => sqlx::query_as::<_, Run>(
        "SELECT id, scenario, seed, started_at FROM runs ORDER BY id DESC",
    )
    .fetch_all(pool)
    .await)?)
}

/// Inserts `events` of `run_id`, numbered from `first_seq`, in one transaction; events
/// stored already are skipped. For writes outside the persistence task (a resume's missing
/// events, tests, tools).
pub async fn insert_events(
    store: &Store,
    run_id: i64,
    first_seq: u64,
    events: &[Event],
) -> Result<()> {
    if events.is_empty() {
        return Ok(());
    }
    on_pool!(store, pool => {
        let mut conn = pool.acquire().await?;
        conn.prepare_events(store.partitions(), run_id, events).await?;
        let mut tx = conn.begin().await?;
        tx.insert_event_rows(run_id, first_seq, events).await?;
        tx.commit().await?;
    });
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
    /// The event's place in its run's history (insertion order; on SQLite the row id, on
    /// PostgreSQL its number in the run). With `t_ms` it is the key of [`Cursor`].
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

/// A place in a filtered history: the instant and place of an event (see [`StoredEvent::id`]).
/// Shown (in URLs) as `<t_ms>.<id>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cursor {
    /// The event's instant.
    pub t_ms: i64,
    /// The event's place.
    pub id: i64,
}

impl Cursor {
    /// The cursor of an event.
    pub fn of(event: &StoredEvent) -> Cursor {
        Cursor {
            t_ms: event.t_ms,
            id: event.id,
        }
    }
}

impl std::fmt::Display for Cursor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.t_ms, self.id)
    }
}

/// Which page of a filtered history to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PageAt {
    /// The newest events.
    #[default]
    Newest,
    /// The oldest events (the first page of a history read oldest first).
    Oldest,
    /// The events just older than this place.
    Older(Cursor),
    /// The events just newer than this place.
    Newer(Cursor),
}

/// One page of a filtered history, newest first, with the places of the pages around it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EventPage {
    /// The events, newest first.
    pub rows: Vec<StoredEvent>,
    /// Where the next older page starts (`None`: this page holds the oldest events).
    pub older: Option<Cursor>,
    /// Where the next newer page starts (`None`: this page holds the newest events).
    pub newer: Option<Cursor>,
}

/// The column that orders events of one instant: the row id on SQLite (runs recorded before
/// events were numbered have no `seq`), the number on PostgreSQL (no row id across partitions).
fn id_column(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Sqlite => "id",
        Dialect::Postgres => "seq",
    }
}

/// A query builder on `pool`'s database (ties the builder's type to the pool's).
fn builder<'a, DB: Database>(_pool: &Pool<DB>, sql: String) -> QueryBuilder<'a, DB> {
    QueryBuilder::new(sql)
}

fn select_events(dialect: Dialect) -> String {
    format!(
        "SELECT {} AS id, t_ms, engine, subject, kind, details, actor FROM events",
        id_column(dialect)
    )
}

fn push_where<'a, DB: Database>(q: &mut QueryBuilder<'a, DB>, f: &EventFilter, dialect: Dialect)
where
    i64: Encode<'a, DB> + Type<DB>,
    String: Encode<'a, DB> + Type<DB>,
{
    // With a subject given, SQLite is kept on the subject index: a subject's events are few,
    // but without statistics its planner prefers the engine or kind index for their extra
    // equal column, and walks every event of the engine (300 ms at full scale for a server
    // with no events). A unary `+` makes a column unusable for an index there.
    // (A list of subjects keeps the engine's index: SQLite would read it in time order
    // through the time index rather than sort the subjects' events.)
    let unindexed = match (dialect, f.subject.is_some()) {
        (Dialect::Sqlite, true) => "+",
        _ => "",
    };
    q.push(" WHERE run_id = ").push_bind(f.run_id);
    if let Some(engine) = &f.engine {
        q.push(format_args!(" AND {unindexed}engine = "))
            .push_bind(engine.clone());
    }
    if let Some(subject) = &f.subject {
        q.push(" AND subject = ").push_bind(subject.clone());
    }
    if let Some(kind) = &f.kind {
        q.push(format_args!(" AND {unindexed}kind = "))
            .push_bind(kind.clone());
    }
    let kind_column = format!("{unindexed}kind");
    for (column, values) in [("subject", &f.subjects), (kind_column.as_str(), &f.kinds)] {
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
        q.push(" AND t_ms >= ").push_bind(store::to_i64(from));
    }
    if let Some(to) = f.to_ms {
        q.push(" AND t_ms <= ").push_bind(store::to_i64(to));
    }
    if let Some(text) = &f.details_contains {
        push_details_contain(q, text, dialect);
    }
}

/// Adds `AND details` holds `text` (a plain substring, no pattern) to `q`.
pub(crate) fn push_details_contain<'a, DB: Database>(
    q: &mut QueryBuilder<'a, DB>,
    text: &str,
    dialect: Dialect,
) where
    String: Encode<'a, DB> + Type<DB>,
{
    let position = match dialect {
        Dialect::Sqlite => "instr",
        Dialect::Postgres => "strpos",
    };
    q.push(format_args!(" AND {position}(details, "))
        .push_bind(text.to_owned())
        .push(") > 0");
}

/// The column a single read orders by before (instant, place): none (time order), the
/// subject, or the kind (within one engine: the kind index starts with the engine).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lead {
    Time,
    Subject,
    Kind,
}

impl Lead {
    /// The lead column's value of `event` (empty in time order).
    fn of(self, event: &StoredEvent) -> &str {
        match self {
            Lead::Time => "",
            Lead::Subject => &event.subject,
            Lead::Kind => &event.kind,
        }
    }

    fn column(self) -> Option<&'static str> {
        match self {
            Lead::Time => None,
            Lead::Subject => Some("subject"),
            Lead::Kind => Some("kind"),
        }
    }
}

/// Where a read starts: the lead column's value at an event (empty in time order) and the
/// event's place.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Key {
    lead: String,
    at: Cursor,
}

impl Key {
    fn time(at: Cursor) -> Key {
        Key {
            lead: String::new(),
            at,
        }
    }

    fn of(lead: Lead, event: &StoredEvent) -> Key {
        Key {
            lead: lead.of(event).to_owned(),
            at: Cursor::of(event),
        }
    }
}

/// Adds the keyset condition and order of a page; `newest_first` reads down (largest keys
/// first) from `place`.
fn push_page<'a, DB: Database>(
    q: &mut QueryBuilder<'a, DB>,
    dialect: Dialect,
    lead: Lead,
    place: Option<&Key>,
    newest_first: bool,
    limit: i64,
) where
    i64: Encode<'a, DB> + Type<DB>,
    String: Encode<'a, DB> + Type<DB>,
{
    let id = id_column(dialect);
    let columns = match lead.column() {
        Some(column) => format!("{column}, t_ms, {id}"),
        None => format!("t_ms, {id}"),
    };
    if let Some(k) = place {
        let op = if newest_first { "<" } else { ">" };
        q.push(format_args!(" AND ({columns}) {op} ("));
        if lead.column().is_some() {
            q.push_bind(k.lead.clone()).push(", ");
        }
        q.push_bind(k.at.t_ms)
            .push(", ")
            .push_bind(k.at.id)
            .push(")");
    }
    let dir = if newest_first { "DESC" } else { "ASC" };
    let order = match lead.column() {
        Some(column) => format!("{column} {dir}, t_ms {dir}, {id} {dir}"),
        None => format!("t_ms {dir}, {id} {dir}"),
    };
    q.push(format_args!(" ORDER BY {order} LIMIT "))
        .push_bind(limit);
}

/// Reads the events matching `filter` from `place`, newest first (`newest_first`) or
/// oldest first, at most `limit` (a list of subjects is read one subject at a time).
async fn read_events(
    store: &Store,
    filter: &EventFilter,
    place: Option<Cursor>,
    newest_first: bool,
    limit: i64,
) -> Result<Vec<StoredEvent>> {
    read_filtered(
        store,
        filter,
        Lead::Time,
        place.map(Key::time),
        newest_first,
        limit,
    )
    .await
}

/// Reads the events matching `filter` in (`lead`, instant, place) order from `place`, largest
/// keys first (`newest_first`) or smallest first, at most `limit`.
async fn read_led(
    store: &Store,
    filter: &EventFilter,
    lead: Lead,
    place: Option<Key>,
    newest_first: bool,
    limit: i64,
) -> Result<Vec<StoredEvent>> {
    let recent = recent_start(store, filter, lead, place.as_ref(), newest_first).await?;
    read_led_from(store, filter, recent, lead, place, newest_first, limit).await
}

/// For a read down from the newest events in time order on PostgreSQL, where the latest two
/// spans of simulated time that hold events start ([`recent_spans_only`]); `None` for any
/// other read. It does not depend on the filter's subject: a list of subjects asks once.
async fn recent_start(
    store: &Store,
    filter: &EventFilter,
    lead: Lead,
    place: Option<&Key>,
    newest_first: bool,
) -> Result<Option<u64>> {
    if !newest_first || lead != Lead::Time {
        return Ok(None);
    }
    let below = place.map(|k| u64::try_from(k.at.t_ms).unwrap_or(0));
    recent_spans_only(store, filter, below).await
}

/// [`read_led`] with the start of the recent spans already known: the rows from `recent` on
/// when there are enough of them, else the whole run's.
async fn read_led_from(
    store: &Store,
    filter: &EventFilter,
    recent: Option<u64>,
    lead: Lead,
    place: Option<Key>,
    newest_first: bool,
    limit: i64,
) -> Result<Vec<StoredEvent>> {
    if let Some(from) = recent {
        let bounded = EventFilter {
            from_ms: Some(from),
            ..filter.clone()
        };
        let rows =
            read_unbounded(store, &bounded, lead, place.as_ref(), newest_first, limit).await?;
        if rows.len() as i64 >= limit {
            return Ok(rows);
        }
    }
    read_unbounded(store, filter, lead, place.as_ref(), newest_first, limit).await
}

/// On PostgreSQL, where the latest two spans of simulated time that hold events start (at or
/// before `below_ms` and the filter's own end): the lower bound of a read down from the newest
/// events, since without one every span's partition of the run would open an index scan
/// (hundreds after a long run at `max`). `None` on SQLite, when the filter has a start of its
/// own, or when those spans are the whole run. A caller that finds too few rows from there
/// reads the whole run.
async fn recent_spans_only(
    store: &Store,
    filter: &EventFilter,
    below_ms: Option<u64>,
) -> Result<Option<u64>> {
    let (Some(pool), None) = (store.postgres_pool(), filter.from_ms) else {
        return Ok(None);
    };
    let below = match (below_ms, filter.to_ms) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    store::postgres::recent_spans_start(pool, filter.run_id, below).await
}

/// [`read_led`] as asked.
async fn read_unbounded(
    store: &Store,
    filter: &EventFilter,
    lead: Lead,
    place: Option<&Key>,
    newest_first: bool,
    limit: i64,
) -> Result<Vec<StoredEvent>> {
    let dialect = store.dialect();
    Ok(on_pool!(store, pool => {
        let mut q = builder(pool, select_events(dialect));
        push_where(&mut q, filter, dialect);
        push_page(&mut q, dialect, lead, place, newest_first, limit);
        q.build_query_as::<StoredEvent>().fetch_all(pool).await
    })?)
}

/// One page of at most `limit` events matching `filter`, newest first, at `at`. Reads at most
/// `limit + 1` rows through the filter's index, whatever the size of the run.
pub async fn page(
    store: &Store,
    filter: &EventFilter,
    at: PageAt,
    limit: i64,
) -> Result<EventPage> {
    sorted_page(store, filter, EventOrder::Time, at, limit).await
}

/// One page of at most `limit` events matching `filter` in `order`, at `at`: "newest" is the
/// largest end of the order (the latest instant, or the last name and its latest event), so
/// [`PageAt::Newest`] starts a page down from it and [`PageAt::Oldest`] up from the other end.
/// Reads at most `limit + 1` rows per engine through an index, whatever the size of the run.
pub async fn sorted_page(
    store: &Store,
    filter: &EventFilter,
    order: EventOrder,
    at: PageAt,
    limit: i64,
) -> Result<EventPage> {
    let limit = limit.max(1);
    let (place, newest_first) = match at {
        PageAt::Newest => (None, true),
        PageAt::Oldest => (None, false),
        PageAt::Older(c) => (Some(c), true),
        PageAt::Newer(c) => (Some(c), false),
    };
    let mut rows = order::read(store, filter, order, place, newest_first, limit + 1).await?;
    let more = rows.len() as i64 > limit;
    rows.truncate(limit as usize);
    if !newest_first {
        rows.reverse();
    }
    let first = rows.first().map(Cursor::of);
    let last = rows.last().map(Cursor::of);
    let (older, newer) = match at {
        PageAt::Newest => (last.filter(|_| more), None),
        PageAt::Oldest => (None, first.filter(|_| more)),
        PageAt::Older(_) => (last.filter(|_| more), first),
        PageAt::Newer(c) => (last.or(Some(c)), first.filter(|_| more)),
    };
    Ok(EventPage { rows, older, newer })
}

/// Reads the events matching `filter` in (`lead`, instant, place) order; when `filter` names
/// a list of subjects, each subject's `limit` rows through the subject index (in index order:
/// bounded whatever each one's history), merged in that order and cut to `limit`. A single
/// read with `subject IN (…)` would have SQLite sort every event of the subjects, or walk the
/// run in time order to find them.
async fn read_filtered(
    store: &Store,
    filter: &EventFilter,
    lead: Lead,
    place: Option<Key>,
    newest_first: bool,
    limit: i64,
) -> Result<Vec<StoredEvent>> {
    if filter.subjects.is_empty() {
        return read_led(store, filter, lead, place, newest_first, limit).await;
    }
    let recent = recent_start(store, filter, lead, place.as_ref(), newest_first).await?;
    let mut rows = Vec::new();
    for subject in &filter.subjects {
        let one = EventFilter {
            subject: Some(subject.clone()),
            subjects: Vec::new(),
            ..filter.clone()
        };
        rows.extend(
            read_led_from(
                store,
                &one,
                recent,
                lead,
                place.clone(),
                newest_first,
                limit,
            )
            .await?,
        );
    }
    rows.sort_by(|a, b| (lead.of(a), a.t_ms, a.id).cmp(&(lead.of(b), b.t_ms, b.id)));
    if newest_first {
        rows.reverse();
    }
    rows.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    Ok(rows)
}

/// The subjects of run `run_id` whose name starts with `prefix`, in name order: at most
/// `cap`, or `None` when more match. Each is found by one seek of the subject index (the
/// next name after the last one found), however many events it has, so a search costs at
/// most `cap + 1` seeks on a run of any size. Names compare byte by byte on both stores.
pub async fn subjects_starting_with(
    store: &Store,
    run_id: i64,
    prefix: &str,
    cap: usize,
) -> Result<Option<Vec<String>>> {
    let mut found: Vec<String> = Vec::new();
    loop {
        let after = found.last().cloned();
        let next: Option<(String,)> = on_pool!(store, pool => {
            let mut q = builder(pool, "SELECT subject FROM events WHERE run_id = ".to_owned());
            q.push_bind(run_id);
            match &after {
                Some(last) => q.push(" AND subject > ").push_bind(last.clone()),
                None => q.push(" AND subject >= ").push_bind(prefix.to_owned()),
            };
            q.push(" ORDER BY subject LIMIT 1");
            q.build_query_as::<(String,)>().fetch_optional(pool).await
        })?;
        match next {
            Some((subject,)) if subject.starts_with(prefix) => {
                if found.len() == cap {
                    return Ok(None);
                }
                found.push(subject);
            }
            _ => return Ok(Some(found)),
        }
    }
}

/// The newest `limit` events matching `filter`, newest first.
pub async fn recent_events(
    store: &Store,
    filter: &EventFilter,
    limit: i64,
) -> Result<Vec<StoredEvent>> {
    read_events(store, filter, None, true, limit).await
}

/// The simulated time of the `n`-th newest event matching `filter` (`None` when fewer
/// match): a bound that keeps a search of the events' text to the latest `n`. Reads `n`
/// entries of an index, not the events.
pub async fn nth_newest_t_ms(store: &Store, filter: &EventFilter, n: i64) -> Result<Option<u64>> {
    // On PostgreSQL the latest two spans first, as a read of the newest events does.
    if let Some(from) = recent_spans_only(store, filter, None).await? {
        let bounded = EventFilter {
            from_ms: Some(from),
            ..filter.clone()
        };
        if let Some(t) = nth_newest_t_ms_in(store, &bounded, n).await? {
            return Ok(Some(t));
        }
    }
    nth_newest_t_ms_in(store, filter, n).await
}

/// [`nth_newest_t_ms`] as asked.
async fn nth_newest_t_ms_in(store: &Store, filter: &EventFilter, n: i64) -> Result<Option<u64>> {
    let dialect = store.dialect();
    let found: Option<(i64,)> = on_pool!(store, pool => {
        let mut q = builder(pool, "SELECT t_ms FROM events".to_owned());
        push_where(&mut q, filter, dialect);
        q.push(" ORDER BY t_ms DESC LIMIT 1 OFFSET ")
            .push_bind((n - 1).max(0));
        q.build_query_as::<(i64,)>().fetch_optional(pool).await
    })?;
    Ok(found.map(|(t,)| u64::try_from(t).unwrap_or(0)))
}

/// The newest `cap` events matching `filter`, oldest first (a chart's latest points).
pub async fn latest_in_time_order(
    store: &Store,
    filter: &EventFilter,
    cap: i64,
) -> Result<Vec<StoredEvent>> {
    let mut rows = recent_events(store, filter, cap).await?;
    rows.reverse();
    Ok(rows)
}

/// Up to `limit` events matching `filter` after `place` (from the start when `None`), oldest
/// first: an export reads a run this way, one bounded batch at a time.
pub async fn events_after(
    store: &Store,
    filter: &EventFilter,
    place: Option<Cursor>,
    limit: i64,
) -> Result<Vec<StoredEvent>> {
    read_events(store, filter, place, false, limit).await
}

#[cfg(test)]
mod tests {
    use super::{first_gap, push_page, push_where, select_events, EventFilter, Lead};
    use crate::store::{Dialect, Store};
    use sqlx::{QueryBuilder, Sqlite};

    /// SQLite's plan for the newest events matching `filter`, one line per step.
    async fn sqlite_plan(store: &Store, filter: &EventFilter) -> String {
        sqlite_plan_led(store, filter, Lead::Time).await
    }

    /// SQLite's plan for the largest (`lead`, instant, place) keys matching `filter`.
    async fn sqlite_plan_led(store: &Store, filter: &EventFilter, lead: Lead) -> String {
        let Some(pool) = store.sqlite_pool() else {
            panic!("a SQLite store")
        };
        let mut q = QueryBuilder::<Sqlite>::new("EXPLAIN QUERY PLAN ");
        q.push(select_events(Dialect::Sqlite));
        push_where(&mut q, filter, Dialect::Sqlite);
        push_page(&mut q, Dialect::Sqlite, lead, None, true, 50);
        let steps: Vec<(i64, i64, i64, String)> = q
            .build_query_as()
            .fetch_all(pool)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        steps
            .into_iter()
            .map(|s| s.3)
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[tokio::test]
    async fn a_subjects_events_are_read_through_the_subject_index() {
        let store = Store::connect("sqlite::memory:")
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let filter = |subject: Option<&str>, subjects: &[&str], kind: Option<&str>| EventFilter {
            run_id: 1,
            engine: Some("lms".into()),
            subject: subject.map(str::to_owned),
            subjects: subjects.iter().map(|s| (*s).to_owned()).collect(),
            kind: kind.map(str::to_owned),
            ..EventFilter::default()
        };
        // (filter, the index its plan must use)
        let cases = [
            (filter(Some("XA-042-007"), &[], None), "events_by_subject"),
            (
                filter(Some("z042"), &[], Some("load.sample")),
                "events_by_subject",
            ),
            (
                filter(None, &["rl-001", "cc0.rl-001"], None),
                "events_by_engine",
            ),
            (filter(None, &[], Some("session.placed")), "events_by_kind"),
            (filter(None, &[], None), "events_by_engine"),
        ];
        for (f, index) in cases {
            let plan = sqlite_plan(&store, &f).await;
            assert!(plan.contains(index), "{f:?} should use {index}:\n{plan}");
        }
    }

    #[tokio::test]
    async fn a_column_order_is_read_through_an_index_in_its_order_without_a_sort() {
        let store = Store::connect("sqlite::memory:")
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let filter = |engine: Option<&str>| EventFilter {
            run_id: 1,
            engine: engine.map(str::to_owned),
            ..EventFilter::default()
        };
        // (filter, lead column, the index its plan must use)
        let cases = [
            (filter(None), Lead::Subject, "events_by_subject"),
            (filter(Some("lms")), Lead::Kind, "events_by_kind"),
            (filter(Some("lms")), Lead::Time, "events_by_engine"),
        ];
        for (f, lead, index) in cases {
            let plan = sqlite_plan_led(&store, &f, lead).await;
            assert!(plan.contains(index), "{lead:?} should use {index}:\n{plan}");
            assert!(!plan.contains("TEMP B-TREE"), "{lead:?} sorts:\n{plan}");
        }
    }

    #[test]
    fn the_first_gap_among_the_latest_events() {
        let cases: [(&[i64], bool, u64); 8] = [
            (&[], true, 0),
            (&[0, 1, 2], true, 3),
            (&[1, 2], true, 0),
            (&[1, 2], false, 3),
            (&[0, 1, 4, 5], true, 2),
            (&[10, 11, 14], false, 12),
            (&[10, 11, 12], false, 13),
            (&[0, 2], true, 1),
        ];
        for (seqs, whole, want) in cases {
            assert_eq!(first_gap(seqs, whole), want, "{seqs:?} whole={whole}");
        }
    }
}
