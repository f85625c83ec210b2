//! The state of the load-management engine: servers (compact, one struct each), zones,
//! applications, sessions keyed by user, users and timers.

use std::cmp::Reverse;

use serde::{Deserialize, Serialize};

use super::config::ElectionPreference;
use super::placement::AppIndex;
use super::views::ServerPower;
use crate::rng::Rng;

/// One server.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Server {
    pub host: String,
    /// 1-based, configuration order.
    pub id: u32,
    pub zone: u32,
    /// Index into the engine's evaluators.
    pub evaluator: u32,
    /// Applications published (indexes) and, aligned, the position in each one's index.
    pub apps: Vec<u16>,
    pub app_pos: Vec<u32>,
    /// Sessions per application (aligned with `apps`, as (app, count) for the rules).
    pub app_sessions: Vec<(u16, u32)>,
    pub preference: ElectionPreference,
    pub power: ServerPower,
    /// When the power state next changes (boot done, services up).
    pub power_until: Option<u64>,
    pub started_ms: Option<u64>,
    pub connected: u32,
    pub disconnected: u32,
    /// Logons in progress: (start, end) ms.
    pub logons: Vec<(u64, u64)>,
    /// Counters in `rules::Counter` order.
    pub counters: [f64; 7],
    pub cpu_base: f64,
    /// Spikes (cpu, memory): value and end (ms).
    pub spikes: [Option<(f64, u64)>; 2],
    /// True load index (server evaluator).
    pub load: u32,
    /// What the server would report now: server load and per application (aligned).
    pub report: u32,
    pub report_apps: Vec<u32>,
    /// The data collector's view.
    pub dc_load: Option<u32>,
    pub dc_apps: Vec<u32>,
    pub dc_updated: Option<u64>,
    pub dc_contact: Option<u64>,
    /// Its own noise stream.
    pub rng: Rng,
    /// Logoffs and disconnections since the zone's last `sessions.ended`.
    pub ended: u32,
    pub disconnects: u32,
    /// Pushes to the collector since the zone's last `load.pushed`: on a ±threshold drift
    /// (`delta`) and on the collector's request (`requested`), and the collector's view
    /// before the first of them.
    pub pushes_delta: u32,
    /// See `pushes_delta`.
    pub pushes_requested: u32,
    /// See `pushes_delta`.
    pub push_from: Option<u32>,
    /// The server's entry in its zone's last `load.sample` (connected, disconnected, load,
    /// dc load).
    pub last_sample: Option<[u32; 4]>,
}

impl Server {
    /// Connected + disconnected.
    pub fn sessions(&self) -> u32 {
        self.connected + self.disconnected
    }

    /// Adds `delta` sessions of application `app`.
    pub fn add_app_session(&mut self, app: u16, delta: i32) {
        if let Some((_, n)) = self.app_sessions.iter_mut().find(|(a, _)| *a == app) {
            *n = n.saturating_add_signed(delta);
        }
    }
}

/// A zone and its data collector.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Zone {
    pub id: String,
    pub name: String,
    pub servers: Vec<u32>,
    pub collector: Option<u32>,
    pub ranking: Vec<u32>,
}

/// A published application.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct App {
    pub name: String,
    pub evaluator: Option<u32>,
    pub index: AppIndex,
}

/// Connected or disconnected, as stored.
pub(crate) const CONNECTED: u8 = 0;
/// See [`CONNECTED`].
pub(crate) const DISCONNECTED: u8 = 1;

/// One session (a user has at most one).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Session {
    pub server: u32,
    pub ip: u32,
    pub since: u64,
    /// Distinguishes this session from a later one of the same user (stale timers).
    pub serial: u32,
    pub app: u16,
    pub state: u8,
}

/// What a session timer does.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub(crate) enum TimerKind {
    /// The user disconnects; `extra` = seconds away.
    Disconnect,
    /// The user launches again (reconnects); `extra` = seconds until logoff.
    Relaunch,
    /// The user logs off.
    Logoff,
}

/// A session timer.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub(crate) struct Timer {
    pub at: u64,
    pub seq: u64,
    pub user: u32,
    pub serial: u32,
    pub kind: TimerKind,
    pub extra: u32,
}

/// Min-heap entry.
pub(crate) type TimerEntry = Reverse<Timer>;

/// A logon storm in progress.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Storm {
    pub id: u32,
    pub users: u32,
    pub start: u64,
    pub over: u64,
    pub app: Option<u16>,
    /// Logons issued so far.
    pub next: u32,
    pub placed: u32,
    pub rejected: u32,
    pub rng: Rng,
}

impl Storm {
    /// When logon `k` happens.
    pub fn time_of(&self, k: u32) -> u64 {
        let users = u64::from(self.users.max(1));
        self.start + self.over * u64::from(k) / users
    }
}

/// Bit marking a user id as interned by name (not a generated `u000123`).
pub(crate) const NAMED: u32 = 1 << 31;

/// The generated name of user number `n`.
pub(crate) fn generated_name(n: u32) -> String {
    format!("u{n:06}")
}

/// The number of a generated name (`u000123` → 123), if the name has that exact form.
pub(crate) fn generated_number(name: &str) -> Option<u32> {
    let digits = name.strip_prefix('u')?;
    if digits.len() < 6 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u32 = digits.parse().ok()?;
    (n > 0 && n < NAMED && generated_name(n) == name).then_some(n)
}

/// A uniform address in one of `ranges` (a range drawn first).
pub(crate) fn draw_ip(rng: &mut Rng, ranges: &[(u32, u32)]) -> u32 {
    if ranges.is_empty() {
        return 0;
    }
    let (a, b) = ranges[rng.below(ranges.len() as u64) as usize];
    let span = u64::from(b - a) + 1;
    a + u32::try_from(rng.below(span)).unwrap_or(0)
}

/// An exponential duration of mean `mean_ms` (capped at 20 means), at least 1 s.
pub(crate) fn draw_exp(rng: &mut Rng, mean_ms: u64) -> u64 {
    let u = rng.unit_f64();
    let x = -(1.0 - u).ln() * mean_ms as f64;
    let cap = mean_ms.saturating_mul(20) as f64;
    // Finite and within 0..=cap after the clamp.
    (x.clamp(1000.0, cap.max(1000.0))) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_names_round_trip() {
        assert_eq!(generated_name(7), "u000007");
        assert_eq!(generated_number("u000007"), Some(7));
        assert_eq!(generated_number("u1234567"), Some(1_234_567));
        for bad in ["u0000007", "u00007", "alice", "u", "u000000", "x000001"] {
            assert_eq!(generated_number(bad), None, "{bad}");
        }
    }

    #[test]
    fn draws_stay_in_range() {
        let mut rng = Rng::new(1);
        for _ in 0..100 {
            let ip = draw_ip(&mut rng, &[(10, 20), (100, 100)]);
            assert!((10..=20).contains(&ip) || ip == 100);
            let d = draw_exp(&mut rng, 60_000);
            assert!((1000..=1_200_000).contains(&d));
        }
    }
}
