-- Durable runs: every input that changes a run is journaled before it is acknowledged, and
-- events carry their place in the run so that a resumed run never stores one twice.

-- The scenario a run was started with (its TOML text and the seed's speed), so a run can be
-- resumed without the file; `ended_at` is set when a run is closed for good (`--new-run`, or
-- a finished `simulate`). A run with no `ended_at` is unfinished and `serve` resumes it.
ALTER TABLE runs ADD COLUMN scenario_toml TEXT;
ALTER TABLE runs ADD COLUMN ended_at TEXT;

-- One row per input to a run, in the order the runtime took them: an operator or scenario
-- action, a speed change, a single step, a DNS query (it moves the GSLB round robin). `t_ms` is the simulated instant at which it takes
-- effect; `entry` is its JSON (an action in the flat `kind` form of docs/SCENARIOS.md).
CREATE TABLE journal (
    run_id  INTEGER NOT NULL REFERENCES runs (id),
    seq     INTEGER NOT NULL,
    t_ms    INTEGER NOT NULL,
    kind    TEXT    NOT NULL CHECK (kind IN ('action', 'speed', 'step', 'dns')),
    entry   TEXT    NOT NULL,
    actor   TEXT,
    at      TEXT    NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

-- An event's place in its run (0, 1, 2, ... in the order the engines produced them). Rows
-- written before this column existed keep NULL, which the unique index allows.
ALTER TABLE events ADD COLUMN seq INTEGER;
CREATE UNIQUE INDEX events_by_seq ON events (run_id, seq);

-- The speed the clock started at (a resumed run without speed changes goes on at it).
ALTER TABLE runs ADD COLUMN start_speed TEXT;

-- Runs recorded before the journal existed cannot be resumed: they are closed.
UPDATE runs SET ended_at = started_at WHERE ended_at IS NULL;
