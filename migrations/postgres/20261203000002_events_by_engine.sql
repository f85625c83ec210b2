-- Events partitioned by run, then by engine, then by span of 30 simulated days
-- (services/src/store/postgres.rs creates the partitions). An engine filter is a partition
-- prune, so the run's key serves the engine's pages in (instant, number) order and the
-- separate engine index goes; the other indexes drop the run (one run per partition). Fewer
-- and narrower indexes write faster, and an engine's old events go by dropping partitions
-- (retention). The events of the first layout are moved over.
ALTER TABLE events RENAME TO events_by_run;
ALTER INDEX events_pkey RENAME TO events_by_run_pkey;
ALTER INDEX events_by_subject RENAME TO events_by_run_subject;
ALTER INDEX events_by_engine RENAME TO events_by_run_engine;
ALTER INDEX events_by_kind RENAME TO events_by_run_kind;

CREATE TABLE events (
    run_id   BIGINT NOT NULL,
    seq      BIGINT NOT NULL,
    t_ms     BIGINT NOT NULL,
    engine   TEXT COLLATE "C" NOT NULL,
    subject  TEXT COLLATE "C" NOT NULL,
    kind     TEXT COLLATE "C" NOT NULL,
    details  TEXT   NOT NULL,
    actor    TEXT,
    PRIMARY KEY (run_id, t_ms, seq, engine)
) PARTITION BY LIST (run_id);
CREATE INDEX events_by_subject ON events (subject, t_ms, seq);
CREATE INDEX events_by_kind    ON events (kind, t_ms, seq);

DO $$
DECLARE
    p record;
    span CONSTANT bigint := 2592000000;
BEGIN
    FOR p IN SELECT DISTINCT run_id, engine, t_ms / span AS k FROM events_by_run LOOP
        EXECUTE format(
            'CREATE TABLE IF NOT EXISTS ev_%s PARTITION OF events FOR VALUES IN (%s) PARTITION BY LIST (engine)',
            p.run_id, p.run_id);
        EXECUTE format(
            'CREATE TABLE IF NOT EXISTS ev_%s_%s PARTITION OF ev_%s FOR VALUES IN (%L) PARTITION BY RANGE (t_ms)',
            p.run_id, p.engine, p.run_id, p.engine);
        EXECUTE format(
            'CREATE TABLE IF NOT EXISTS ev_%s_%s_%s PARTITION OF ev_%s_%s FOR VALUES FROM (%s) TO (%s)',
            p.run_id, p.engine, p.k, p.run_id, p.engine, p.k * span, (p.k + 1) * span);
    END LOOP;
END $$;

INSERT INTO events (run_id, seq, t_ms, engine, subject, kind, details, actor)
SELECT run_id, seq, t_ms, engine, subject, kind, details, actor FROM events_by_run;
DROP TABLE events_by_run;
