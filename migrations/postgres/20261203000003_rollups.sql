-- Hourly rollups of the sampled series the charts draw (services/src/rollups.rs): per run,
-- engine, subject, kind and simulated hour, the hour's samples merged in order (the state at
-- the end of the hour) and how many there were. They outlive the raw events' retention.
CREATE TABLE rollups (
    run_id   BIGINT NOT NULL REFERENCES runs (id),
    engine   TEXT COLLATE "C" NOT NULL,
    subject  TEXT COLLATE "C" NOT NULL,
    kind     TEXT COLLATE "C" NOT NULL,
    hour     BIGINT NOT NULL,
    samples  BIGINT NOT NULL,
    t_ms     BIGINT NOT NULL,
    details  TEXT   NOT NULL,
    PRIMARY KEY (run_id, engine, kind, subject, hour)
);
CREATE INDEX rollups_by_hour ON rollups (run_id, engine, kind, hour);
