-- The audit log sorts by who, what or the outcome as well as by time: each order reads its
-- own index (the entry's number ends each one, as it ends every order).
CREATE INDEX audit_by_actor   ON audit_log (actor, id);
CREATE INDEX audit_by_action  ON audit_log (action, id);
CREATE INDEX audit_by_outcome ON audit_log (outcome, id);
