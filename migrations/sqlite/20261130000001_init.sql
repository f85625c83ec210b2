-- Switchyard's first schema: accounts, simulation runs, their events, and the audit log.

CREATE TABLE users (
    id            INTEGER PRIMARY KEY,
    username      TEXT    NOT NULL UNIQUE COLLATE NOCASE,
    password_hash TEXT    NOT NULL,
    role          TEXT    NOT NULL CHECK (role IN ('viewer', 'operator', 'admin')),
    created_at    TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL
);

-- One row per start of the simulation (a `serve` process or a `simulate` run).
CREATE TABLE runs (
    id          INTEGER PRIMARY KEY,
    scenario    TEXT    NOT NULL,
    seed        INTEGER NOT NULL,
    started_at  TEXT    NOT NULL
);

-- Engine events; `details` is a JSON object, `actor` the user behind an operator action.
CREATE TABLE events (
    id       INTEGER PRIMARY KEY,
    run_id   INTEGER NOT NULL REFERENCES runs (id),
    t_ms     INTEGER NOT NULL,
    engine   TEXT    NOT NULL,
    subject  TEXT    NOT NULL,
    kind     TEXT    NOT NULL,
    details  TEXT    NOT NULL,
    actor    TEXT
);
CREATE INDEX events_by_time    ON events (run_id, t_ms);
CREATE INDEX events_by_subject ON events (run_id, subject, t_ms);
CREATE INDEX events_by_kind    ON events (run_id, engine, kind, t_ms);

-- Every mutating action of a signed-in user: who, when (wall clock, UTC), what, with which arguments.
CREATE TABLE audit_log (
    id         INTEGER PRIMARY KEY,
    at         TEXT    NOT NULL,
    actor      TEXT    NOT NULL,
    action     TEXT    NOT NULL,
    arguments  TEXT    NOT NULL,
    outcome    TEXT    NOT NULL
);
CREATE INDEX audit_by_time ON audit_log (at);
