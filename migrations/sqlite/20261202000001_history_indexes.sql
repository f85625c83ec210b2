-- History at any size: the engine filter reads through an index of its own, newest first
-- (the row id ends every index, so `ORDER BY t_ms DESC, id DESC` needs no sort).
CREATE INDEX events_by_engine ON events (run_id, engine, t_ms);
