-- Hourly rollups of the sampled series the charts draw (services/src/rollups.rs): per run,
-- engine, subject, kind and simulated hour, the hour's samples merged in order (the state at
-- the end of the hour) and how many there were. They outlive the raw events' retention.
CREATE TABLE rollups (
    run_id   INTEGER NOT NULL REFERENCES runs (id),
    engine   TEXT    NOT NULL,
    subject  TEXT    NOT NULL,
    kind     TEXT    NOT NULL,
    hour     INTEGER NOT NULL,
    samples  INTEGER NOT NULL,
    t_ms     INTEGER NOT NULL,
    details  TEXT    NOT NULL,
    PRIMARY KEY (run_id, engine, kind, subject, hour)
) WITHOUT ROWID;
CREATE INDEX rollups_by_hour ON rollups (run_id, engine, kind, hour);
