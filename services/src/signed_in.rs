//! Who a session belongs to, remembered for a moment: every request of a signed-in user is
//! checked by the sign-in gate, which reads the session record and then the account (two
//! queries, each a round trip to the database's connection). Pages render at hundreds a
//! second; the answer is reused for at most [`MAX_AGE`].
//!
//! The gate remembers only on an SQLite file, which one console serves: on PostgreSQL, where
//! replicas share the sessions and the database is across a network, every request asks.
//! What this console changes itself takes effect at once: every change to an account made
//! through [`crate::accounts`] moves the store's accounts version
//! ([`crate::Store::accounts_version`]), which makes every remembered answer stale, and
//! signing out forgets the session. What another process changes on the same file (the
//! `user` command) takes effect within [`MAX_AGE`].

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tower_sessions::session::Id;

use crate::accounts::User;

/// How long an answer may be reused, at most.
pub const MAX_AGE: Duration = Duration::from_secs(1);

/// How many sessions are remembered at most: past it, the stale answers are dropped, and
/// all of them if none is.
pub const CAPACITY: usize = 4096;

/// The remembered answers (see the module docs). Cheap to clone (one shared map).
#[derive(Debug, Clone, Default)]
pub struct SignedIn {
    answers: Arc<Mutex<HashMap<Id, Answer>>>,
}

/// One session's user and what it was read for.
#[derive(Debug, Clone)]
struct Answer {
    user: User,
    accounts_version: u64,
    at: Instant,
}

impl Answer {
    fn fresh(&self, accounts_version: u64, now: Instant) -> bool {
        self.accounts_version == accounts_version && now.duration_since(self.at) < MAX_AGE
    }
}

impl SignedIn {
    /// The user of session `id`, when it was read less than [`MAX_AGE`] ago while the
    /// accounts were at `accounts_version`.
    pub fn get(&self, id: Id, accounts_version: u64) -> Option<User> {
        let now = Instant::now();
        let answers = self.answers.lock().unwrap_or_else(|e| e.into_inner());
        answers
            .get(&id)
            .filter(|a| a.fresh(accounts_version, now))
            .map(|a| a.user.clone())
    }

    /// Remembers that session `id` is `user`'s, as read with the accounts at
    /// `accounts_version` (the version taken *before* the read, so that a change made during
    /// it leaves the answer stale).
    pub fn put(&self, id: Id, accounts_version: u64, user: User) {
        let now = Instant::now();
        let mut answers = self.answers.lock().unwrap_or_else(|e| e.into_inner());
        if answers.len() >= CAPACITY && !answers.contains_key(&id) {
            answers.retain(|_, a| a.fresh(accounts_version, now));
            if answers.len() >= CAPACITY {
                answers.clear();
            }
        }
        answers.insert(
            id,
            Answer {
                user,
                accounts_version,
                at: now,
            },
        );
    }

    /// Forgets session `id` (signed out, or its id changed).
    pub fn forget(&self, id: Id) {
        self.answers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id);
    }

    /// How many sessions are remembered (stale ones included).
    pub fn len(&self) -> usize {
        self.answers.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Role;

    fn user(name: &str) -> User {
        User {
            id: 1,
            username: name.into(),
            role: Role::Viewer,
            created_at: String::new(),
            disabled_at: None,
            session_epoch: 0,
        }
    }

    #[test]
    fn an_answer_serves_its_session_and_version_only() {
        let cache = SignedIn::default();
        let (a, b) = (Id(1), Id(2));
        cache.put(a, 7, user("alice"));
        assert_eq!(cache.get(a, 7).map(|u| u.username), Some("alice".into()));
        assert!(cache.get(b, 7).is_none(), "another session");
        assert!(cache.get(a, 8).is_none(), "an account changed since");
        cache.forget(a);
        assert!(cache.get(a, 7).is_none(), "signed out");
    }

    #[test]
    fn an_answer_goes_stale_after_max_age() {
        let cache = SignedIn::default();
        cache.put(Id(1), 0, user("alice"));
        {
            let mut answers = cache.answers.lock().expect("not poisoned");
            let answer = answers.get_mut(&Id(1)).expect("remembered");
            answer.at = Instant::now()
                .checked_sub(MAX_AGE)
                .expect("the clock is past MAX_AGE");
        }
        assert!(cache.get(Id(1), 0).is_none());
    }

    #[test]
    fn the_map_never_grows_past_its_capacity() {
        let cache = SignedIn::default();
        for i in 0..(CAPACITY as i128 + 10) {
            cache.put(Id(i), 0, user("alice"));
        }
        assert!(cache.len() <= CAPACITY, "{} remembered", cache.len());
        assert!(
            cache.get(Id(CAPACITY as i128 + 9), 0).is_some(),
            "the newest is kept"
        );
    }
}
