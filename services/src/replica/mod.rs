//! Several consoles on one PostgreSQL database: one **leader** runs the run (it holds the
//! advisory lock of [`crate::store::postgres::Leadership`]), every other console is a
//! **follower** that keeps its own copy of the simulation by replaying the run's journal
//! (the engines are pure: the same journal gives the same state) up to the leader's clock.
//!
//! - [`beacon`]: the leader announces where its clock stands (`NOTIFY`), and followers
//!   listen; a follower that hears nothing for a while reads the store instead.
//! - [`inbox`]: an input (operator action, speed change, step, DNS query) accepted by a
//!   follower is posted to the `inbox` table; the leader applies it and writes its answer
//!   in the same transaction as the journal entry it became, so a follower acknowledges an
//!   input only once it is durable, exactly as the leader would.
//!
//! The runtime side (the follower's task, the leader's inbox pump, promotion) lives in
//! [`crate::runtime`].

pub mod beacon;
pub mod inbox;

use serde::{Deserialize, Serialize};

/// What a console is to its run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReplicaRole {
    /// Advances the clock, applies inputs and writes the run's history (the only console
    /// of a SQLite store is always the leader).
    Leader,
    /// Replays the leader's journal and serves pages from its own copy.
    Follower,
}

impl ReplicaRole {
    /// `leader` or `follower`.
    pub fn as_str(self) -> &'static str {
        match self {
            ReplicaRole::Leader => "leader",
            ReplicaRole::Follower => "follower",
        }
    }
}

/// Milliseconds since the Unix epoch on this machine's clock (the follower's lag compares
/// the leader's clock with its own: keep the replicas' clocks synchronised, e.g. NTP).
pub fn wall_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}
