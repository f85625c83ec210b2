-- The audit log sorts by who, what or the outcome as well as by time: each order reads its
-- own index (the entry's number ends each one, as it ends every order). The sorted names
-- compare byte by byte, as SQLite's do, whatever the server's locale.
ALTER TABLE audit_log
    ALTER COLUMN actor   TYPE TEXT COLLATE "C",
    ALTER COLUMN action  TYPE TEXT COLLATE "C",
    ALTER COLUMN outcome TYPE TEXT COLLATE "C";
CREATE INDEX audit_by_actor   ON audit_log (actor, id);
CREATE INDEX audit_by_action  ON audit_log (action, id);
CREATE INDEX audit_by_outcome ON audit_log (outcome, id);
