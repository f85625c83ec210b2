//! Throttling of sign-in attempts, in two parts:
//!
//! - **per user name and client address**, an exponential back-off after wrong passwords:
//!   [`FREE_FAILURES`] wrong attempts cost nothing, then each one more makes that pair wait
//!   1 s, 2 s, 4 s … up to [`MAX_BACKOFF`]; a right password clears it. The wait applies to
//!   that pair only: a user signing in from another address is never held back by someone
//!   guessing their password elsewhere (the old per-user limit let anyone lock the admin
//!   out with one wrong attempt every few seconds);
//! - **per client address**, a burst of [`PER_ADDRESS_BURST`] attempts then one per
//!   [`PER_ADDRESS_REFILL_S`] s, whatever the names (password spraying), with `governor`'s
//!   keyed GCRA limiter.
//!
//! Both live in the console's memory: each replica throttles what it receives. Every
//! attempt also pays one argon2id verification (tens of milliseconds).

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::error::{Result, ServiceError};

/// Wrong passwords a user name may try from one address before the back-off starts.
pub const FREE_FAILURES: u32 = 3;
/// The longest wait the back-off imposes.
pub const MAX_BACKOFF: Duration = Duration::from_secs(15 * 60);
/// Attempts one address may make in a burst (covers several user names).
pub const PER_ADDRESS_BURST: u32 = 30;
/// One more attempt per address is allowed every this many seconds.
pub const PER_ADDRESS_REFILL_S: u64 = 2;
/// Pairs (user name, address) remembered at most; beyond, those whose wait is over are
/// forgotten first.
const MAX_TRACKED: usize = 100_000;

/// Wrong attempts of one user name from one address.
#[derive(Debug, Clone, Copy)]
struct Failures {
    count: u32,
    /// No attempt before this instant.
    until: Instant,
}

/// (lower-case user name, client address; `None` when unknown).
type Pair = (String, Option<IpAddr>);

/// Limits sign-in attempts. Cheap to clone.
#[derive(Clone)]
pub struct SignInLimiter {
    failures: Arc<Mutex<HashMap<Pair, Failures>>>,
    per_address: Arc<DefaultKeyedRateLimiter<IpAddr>>,
}

impl std::fmt::Debug for SignInLimiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SignInLimiter")
    }
}

impl Default for SignInLimiter {
    fn default() -> Self {
        Self::new()
    }
}

fn quota(burst: u32, refill_s: u64) -> Quota {
    let burst = NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN);
    Quota::with_period(Duration::from_secs(refill_s.max(1)))
        .unwrap_or_else(|| Quota::per_minute(burst))
        .allow_burst(burst)
}

/// The wait after `count` wrong attempts in a row.
pub fn backoff(count: u32) -> Duration {
    match count.checked_sub(FREE_FAILURES) {
        None | Some(0) => Duration::ZERO,
        Some(n) => Duration::from_secs(1u64 << (n - 1).min(20)).min(MAX_BACKOFF),
    }
}

impl SignInLimiter {
    /// A limiter with the documented quotas.
    pub fn new() -> Self {
        SignInLimiter {
            failures: Arc::default(),
            per_address: Arc::new(RateLimiter::keyed(quota(
                PER_ADDRESS_BURST,
                PER_ADDRESS_REFILL_S,
            ))),
        }
    }

    fn pair(username: &str, address: Option<IpAddr>) -> Pair {
        (username.to_lowercase(), address)
    }

    /// Counts one sign-in attempt for `username` from `address`; refuses it, saying when to
    /// retry, while that pair waits out its back-off or the address has used up its quota.
    pub fn check(&self, username: &str, address: Option<IpAddr>) -> Result<()> {
        let now = Instant::now();
        if let Some(failures) = self.lock().get(&Self::pair(username, address)) {
            if failures.until > now {
                return Err(throttled(failures.until - now));
            }
        }
        if let Some(ip) = address {
            if let Err(not_until) = self.per_address.check_key(&ip) {
                return Err(throttled(
                    not_until.wait_time_from(DefaultClock::default().now()),
                ));
            }
        }
        Ok(())
    }

    /// Records a wrong password for `username` from `address`: the pair's back-off grows.
    pub fn failed(&self, username: &str, address: Option<IpAddr>) {
        let now = Instant::now();
        let mut failures = self.lock();
        if failures.len() >= MAX_TRACKED {
            failures.retain(|_, f| f.until > now);
        }
        let entry = failures
            .entry(Self::pair(username, address))
            .or_insert(Failures {
                count: 0,
                until: now,
            });
        entry.count = entry.count.saturating_add(1);
        entry.until = now + backoff(entry.count);
    }

    /// Records a right password: the pair's back-off is cleared.
    pub fn succeeded(&self, username: &str, address: Option<IpAddr>) {
        self.lock().remove(&Self::pair(username, address));
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Pair, Failures>> {
        // A panic while holding the lock cannot leave the map inconsistent (plain inserts).
        self.failures
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

fn throttled(wait: Duration) -> ServiceError {
    ServiceError::Throttled {
        retry_after_s: wait.as_secs_f64().ceil().max(1.0) as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_starts_after_the_free_failures_and_doubles_up_to_its_cap() {
        let cases = [
            (0, 0),
            (1, 0),
            (3, 0),
            (4, 1),
            (5, 2),
            (6, 4),
            (13, 512),
            (14, 900),
            (40, 900),
            (u32::MAX, 900),
        ];
        for (count, seconds) in cases {
            assert_eq!(backoff(count), Duration::from_secs(seconds), "{count}");
        }
    }

    #[test]
    fn wrong_passwords_hold_back_only_their_pair() {
        let limiter = SignInLimiter::new();
        let attacker: IpAddr = [203, 0, 113, 7].into();
        let admin: IpAddr = [10, 0, 0, 2].into();
        for _ in 0..=FREE_FAILURES {
            limiter
                .check("Admin", Some(attacker))
                .expect("not yet held back");
            limiter.failed("Admin", Some(attacker));
        }
        assert!(matches!(
            limiter.check("admin", Some(attacker)),
            Err(ServiceError::Throttled { retry_after_s: 1 })
        ));
        // The same name from another address, another name from the attacker's: free.
        limiter
            .check("admin", Some(admin))
            .expect("another address");
        limiter.check("bob", Some(attacker)).expect("another name");
        // A right password clears the pair.
        limiter.succeeded("admin", Some(attacker));
        limiter.check("admin", Some(attacker)).expect("cleared");
    }

    #[test]
    fn an_address_is_throttled_across_user_names() {
        let limiter = SignInLimiter::new();
        let ip: IpAddr = [127, 0, 0, 9].into();
        for i in 0..PER_ADDRESS_BURST {
            limiter
                .check(&format!("user{i}"), Some(ip))
                .expect("within burst");
        }
        assert!(limiter.check("fresh", Some(ip)).is_err());
        limiter
            .check("fresh", Some([127, 0, 0, 10].into()))
            .expect("other address");
    }
}
