-- Snapshots of a run's simulation (engine::Simulation::snapshot): a resume or a look at a past
-- instant starts from the latest one at or before it and replays the journal after it.
-- `journal_seq` and `event_seq` are how many journal entries and events came before it.
CREATE TABLE snapshots (
    id           INTEGER PRIMARY KEY,
    run_id       INTEGER NOT NULL REFERENCES runs (id),
    t_ms         INTEGER NOT NULL,
    journal_seq  INTEGER NOT NULL,
    event_seq    INTEGER NOT NULL,
    per_engine   TEXT    NOT NULL,
    speed        TEXT    NOT NULL,
    format       INTEGER NOT NULL,
    bytes        BLOB    NOT NULL,
    at           TEXT    NOT NULL
);
CREATE INDEX snapshots_by_time ON snapshots (run_id, t_ms);
