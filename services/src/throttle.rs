//! Throttling of sign-in attempts per user name and per client address, with `governor`'s
//! keyed GCRA limiters (no hand-rolled timing).

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::error::{Result, ServiceError};

/// Attempts a user name may make in a burst before it is throttled.
pub const PER_USER_BURST: u32 = 10;
/// One more attempt per user name is allowed every this many seconds.
pub const PER_USER_REFILL_S: u64 = 6;
/// Attempts one address may make in a burst (covers several user names).
pub const PER_ADDRESS_BURST: u32 = 30;
/// One more attempt per address is allowed every this many seconds.
pub const PER_ADDRESS_REFILL_S: u64 = 2;

/// Limits sign-in attempts. Cheap to clone.
#[derive(Clone)]
pub struct SignInLimiter {
    per_user: Arc<DefaultKeyedRateLimiter<String>>,
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

impl SignInLimiter {
    /// A limiter with the documented quotas.
    pub fn new() -> Self {
        SignInLimiter {
            per_user: Arc::new(RateLimiter::keyed(quota(PER_USER_BURST, PER_USER_REFILL_S))),
            per_address: Arc::new(RateLimiter::keyed(quota(
                PER_ADDRESS_BURST,
                PER_ADDRESS_REFILL_S,
            ))),
        }
    }

    /// Counts one sign-in attempt for `username` from `address`; refuses it when either has
    /// used up its quota, saying when to retry.
    pub fn check(&self, username: &str, address: Option<IpAddr>) -> Result<()> {
        let now = DefaultClock::default().now();
        if let Some(ip) = address {
            if let Err(not_until) = self.per_address.check_key(&ip) {
                return Err(throttled(not_until.wait_time_from(now)));
            }
        }
        if let Err(not_until) = self.per_user.check_key(&username.to_lowercase()) {
            return Err(throttled(not_until.wait_time_from(now)));
        }
        Ok(())
    }
}

fn throttled(wait: Duration) -> ServiceError {
    ServiceError::Throttled {
        retry_after_s: wait.as_secs().max(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_user_name_is_throttled_after_its_burst() {
        let limiter = SignInLimiter::new();
        for _ in 0..PER_USER_BURST {
            limiter.check("alice", None).expect("within burst");
        }
        assert!(matches!(
            limiter.check("ALICE", None),
            Err(ServiceError::Throttled { .. })
        ));
        limiter
            .check("bob", None)
            .expect("other users are not affected");
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
