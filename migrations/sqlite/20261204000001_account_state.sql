-- Accounts an admin has disabled (when; NULL: enabled), and the session epoch: a session
-- carries the epoch of its sign-in and is valid only while it matches, so a password reset
-- (which increments it) ends every other session of the user.
ALTER TABLE users ADD COLUMN disabled_at TEXT;
ALTER TABLE users ADD COLUMN session_epoch INTEGER NOT NULL DEFAULT 0;
