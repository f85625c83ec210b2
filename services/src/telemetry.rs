//! Names of the Prometheus metrics this crate records (the exporter lives in `server`), and
//! their descriptions ([`describe`]).
//!
//! Names follow Prometheus' conventions, checked by `promtool check metrics` in the router
//! tests: base units spelled out (`_seconds`), counters ending in `_total`, HELP text for
//! every metric.

/// Counter: engine events produced (emitted) by the runtime; compare with
/// [`EVENTS_PERSISTED`]: the difference is on its way to the disk.
pub const EVENTS_EMITTED: &str = "switchyard_events_emitted_total";
/// Counter: engine events written to the database.
pub const EVENTS_PERSISTED: &str = "switchyard_events_persisted_total";
/// Counter: event batches that failed to persist (the cause is logged).
pub const PERSIST_ERRORS: &str = "switchyard_persist_errors_total";
/// Gauge: how late the runtime's last tick started, in wall-clock seconds.
pub const CLOCK_LAG_SECONDS: &str = "switchyard_clock_lag_seconds";
/// Gauge: simulated seconds since the scenario start.
pub const SIM_TIME_SECONDS: &str = "switchyard_sim_time_seconds";
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
/// Gauge: alerts firing on the run, labelled `severity` (`critical`, `warning`, `info`).
pub const ALERTS_FIRING: &str = "switchyard_alerts_firing";
/// Gauge: subjects flapping on the run (flap detection), labelled `engine`.
pub const FLAPPING_SUBJECTS: &str = "switchyard_flapping_subjects";

/// Describes every metric above to the installed recorder (its HELP text and unit), so that
/// `/metrics` lists each one with HELP and TYPE lines. Call once after installing the recorder.
pub fn describe() {
    use metrics::{describe_counter, describe_gauge, Unit};
    describe_counter!(
        EVENTS_EMITTED,
        Unit::Count,
        "Engine events produced by the runtime since this console started."
    );
    describe_counter!(
        EVENTS_PERSISTED,
        Unit::Count,
        "Engine events written to the database since this console started."
    );
    describe_counter!(
        PERSIST_ERRORS,
        Unit::Count,
        "Event or snapshot batches that failed to persist (the cause is logged)."
    );
    describe_gauge!(
        CLOCK_LAG_SECONDS,
        Unit::Seconds,
        "How late the runtime's last tick started, in wall-clock seconds."
    );
    describe_gauge!(
        SIM_TIME_SECONDS,
        Unit::Seconds,
        "Simulated time since the scenario start, in seconds."
    );
    describe_counter!(
        HTTP_REQUESTS,
        Unit::Count,
        "HTTP requests served, by method and status."
    );
    describe_counter!(
        JOURNAL_ENTRIES,
        Unit::Count,
        "Operator inputs journaled before they were acknowledged."
    );
    describe_counter!(
        SNAPSHOTS_WRITTEN,
        Unit::Count,
        "Snapshots of the simulation stored."
    );
    describe_gauge!(
        LEADER,
        "1 while this console leads its run, 0 while it follows another console."
    );
    describe_gauge!(
        FOLLOWER_LAG_SECONDS,
        Unit::Seconds,
        "A follower's lag behind the leader's clock marks, in seconds (0 on the leader)."
    );
    describe_counter!(
        INBOX_INPUTS,
        Unit::Count,
        "Inputs a follower accepted for the leader to apply or refuse."
    );
    describe_counter!(
        ROLLUP_ROWS,
        Unit::Count,
        "Hourly rollup rows written or rewritten for the charts."
    );
    describe_counter!(
        EVENTS_EXPIRED,
        Unit::Count,
        "Raw events deleted row by row by retention."
    );
    describe_gauge!(
        ALERTS_FIRING,
        Unit::Count,
        "Alerts firing on the run, by severity."
    );
    describe_gauge!(
        FLAPPING_SUBJECTS,
        Unit::Count,
        "Subjects flapping on the run (flap detection), by engine."
    );
}

/// Sets the alert gauges to `counts`.
pub fn set_alerts(counts: &crate::alerts::AlertCounts) {
    for (severity, n) in [
        ("critical", counts.critical),
        ("warning", counts.warning),
        ("info", counts.info),
    ] {
        metrics::gauge!(ALERTS_FIRING, "severity" => severity).set(n as f64);
    }
}

/// Sets the flapping gauges from the subjects flapping on `sim`.
pub fn set_flapping(sim: &engine::Simulation) {
    let flapping = sim.flapping();
    for engine in engine::EngineId::ALL
        .into_iter()
        .filter(|e| *e != engine::EngineId::Core)
    {
        let n = flapping.iter().filter(|f| f.engine == engine).count();
        metrics::gauge!(FLAPPING_SUBJECTS, "engine" => engine.as_str()).set(n as f64);
    }
}
