-- Inputs accepted by a follower console, waiting for the leader to apply them (the same
-- logical schema as on PostgreSQL; a SQLite store has one console, so it stays empty).
CREATE TABLE inbox (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER NOT NULL REFERENCES runs (id),
    kind        TEXT    NOT NULL CHECK (kind IN ('action', 'speed', 'step', 'dns')),
    entry       TEXT    NOT NULL,
    actor       TEXT,
    audit       TEXT,
    posted_at   TEXT    NOT NULL,
    claimed_at  TEXT,
    answer      TEXT,
    answered_at TEXT
);
CREATE INDEX inbox_waiting ON inbox (run_id, id) WHERE answer IS NULL;
