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
