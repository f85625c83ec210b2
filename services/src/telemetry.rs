//! Names of the Prometheus metrics this crate records (the exporter lives in `server`).

/// Counter: engine events produced (emitted) by the runtime; compare with
/// [`EVENTS_PERSISTED`]: the difference is on its way to the disk.
pub const EVENTS_EMITTED: &str = "switchyard_events_emitted_total";
/// Counter: engine events written to the database.
pub const EVENTS_PERSISTED: &str = "switchyard_events_persisted_total";
/// Counter: event batches that failed to persist (the cause is logged).
pub const PERSIST_ERRORS: &str = "switchyard_persist_errors_total";
/// Gauge: how late the runtime's last tick started, in wall-clock milliseconds.
pub const CLOCK_LAG_MS: &str = "switchyard_clock_lag_ms";
/// Gauge: simulated milliseconds since the scenario start.
pub const SIM_TIME_MS: &str = "switchyard_sim_time_ms";
/// Counter: HTTP requests served, by method and status.
pub const HTTP_REQUESTS: &str = "switchyard_http_requests_total";
/// Counter: inputs journaled (durable before they were acknowledged).
pub const JOURNAL_ENTRIES: &str = "switchyard_journal_entries_total";
/// Counter: snapshots of the simulation stored.
pub const SNAPSHOTS_WRITTEN: &str = "switchyard_snapshots_written_total";
/// Gauge: 1 while this console leads its run, 0 while it follows another.
pub const LEADER: &str = "switchyard_leader";
/// Gauge: a follower's lag behind the leader's clock marks, in seconds (0 on the leader).
pub const FOLLOWER_LAG_SECONDS: &str = "switchyard_follower_lag_seconds";
/// Counter: inputs a follower accepted and the leader applied or refused.
pub const INBOX_INPUTS: &str = "switchyard_inbox_inputs_total";
/// Counter: hourly rollup rows written (or rewritten) for the charts.
pub const ROLLUP_ROWS: &str = "switchyard_rollup_rows_total";
/// Counter: raw events deleted row by row by retention (whole partitions dropped on
/// PostgreSQL are logged, not counted).
pub const EVENTS_EXPIRED: &str = "switchyard_events_expired_total";
