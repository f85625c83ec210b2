-- Alert rules an admin defines (the rule as JSON, validated before it is stored), and the
-- alert history of each run: fired, acknowledged by whom, resolved. An alert with no
-- `resolved_ms` is firing.
CREATE TABLE alert_rules (
    name       TEXT    PRIMARY KEY,
    rule       TEXT    NOT NULL,
    saved_by   TEXT    NOT NULL,
    saved_at   TEXT    NOT NULL
);

CREATE TABLE alerts (
    id              INTEGER PRIMARY KEY,
    run_id          INTEGER NOT NULL,
    rule            TEXT    NOT NULL,
    severity        TEXT    NOT NULL,
    subject         TEXT    NOT NULL,
    text            TEXT    NOT NULL,
    since_ms        INTEGER NOT NULL,
    fired_ms        INTEGER NOT NULL,
    fired_at        TEXT    NOT NULL,
    acked_by        TEXT,
    acked_at        TEXT,
    resolved_ms     INTEGER,
    resolved_at     TEXT,
    resolved_reason TEXT
);
CREATE INDEX alerts_by_run ON alerts (run_id, id);
CREATE INDEX alerts_open ON alerts (run_id, rule, subject) WHERE resolved_ms IS NULL;
