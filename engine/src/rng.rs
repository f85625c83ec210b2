//! The seeded pseudo-random generator every engine draws from.
//!
//! Hand-written so that a stream depends only on its seed, never on a dependency upgrade:
//!
//! * **State**: xoshiro256** (Blackman & Vigna, 2018), four 64-bit words.
//! * **Seeding**: the four words are four successive outputs of SplitMix64 started at the seed,
//!   which never yields the all-zero state xoshiro cannot leave.
//! * **Forking**: [`Rng::fork`] hashes its label with 64-bit FNV-1a, combines it with the
//!   parent's *seed* (not its current state) and seeds a new generator. A child stream thus
//!   depends only on (parent seed, label): drawing from one stream, or adding an engine with a
//!   new label, never perturbs another stream.
//!
//! Not cryptographic. Given the same seed, every method returns the same values on every
//! platform (including wasm32).

use serde::{Deserialize, Serialize};
/// A deterministic xoshiro256** generator (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rng {
    seed: u64,
    state: [u64; 4],
}

/// The SplitMix64 increment (the golden ratio in 64-bit fixed point).
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// Advances a SplitMix64 state and returns its next output.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(GOLDEN_GAMMA);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// 64-bit FNV-1a hash of `bytes` (stable across platforms and releases).
fn fnv1a(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xCBF2_9CE4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01B3;
    bytes
        .iter()
        .fold(OFFSET, |h, b| (h ^ u64::from(*b)).wrapping_mul(PRIME))
}

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        let mut sm = seed;
        let state = [
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
        ];
        Rng { seed, state }
    }

    /// The seed this generator was created with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// An independent stream named `label`, derived from this generator's seed only (see the
    /// module doc). Labels are conventionally paths such as `"core/heartbeat/hb-1"`.
    pub fn fork(&self, label: &str) -> Rng {
        let mut mix = self.seed ^ fnv1a(label.as_bytes()).rotate_left(17);
        Rng::new(splitmix64(&mut mix))
    }

    /// The next 64 uniformly distributed bits.
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.state;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform integer in `0..n`, without modulo bias (Lemire's multiply-and-reject).
    /// Returns 0 when `n == 0`.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let threshold = n.wrapping_neg() % n;
        loop {
            let product = u128::from(self.next_u64()) * u128::from(n);
            // Truncation is the point: the low half decides rejection.
            let low = product as u64;
            if low >= threshold {
                return (product >> 64) as u64;
            }
        }
    }

    /// A uniform integer in `lo..=hi`. The bounds are swapped if `lo > hi`.
    pub fn range_inclusive(&mut self, lo: i64, hi: i64) -> i64 {
        let (lo, hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
        // Width of the range minus one, computed in two's complement (fits in u64).
        let span = hi.wrapping_sub(lo) as u64;
        let offset = if span == u64::MAX {
            self.next_u64()
        } else {
            self.below(span + 1)
        };
        lo.wrapping_add(offset as i64)
    }

    /// A uniform float in `[0, 1)` with 53 bits of precision.
    pub fn unit_f64(&mut self) -> f64 {
        const SCALE: f64 = 1.0 / (1u64 << 53) as f64;
        (self.next_u64() >> 11) as f64 * SCALE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::{any, prop_assert, proptest};

    fn take(rng: &mut Rng, n: usize) -> Vec<u64> {
        (0..n).map(|_| rng.next_u64()).collect()
    }

    #[test]
    fn same_seed_same_sequence() {
        assert_eq!(take(&mut Rng::new(7), 100), take(&mut Rng::new(7), 100));
    }

    #[test]
    fn different_seeds_differ() {
        assert_ne!(take(&mut Rng::new(1), 8), take(&mut Rng::new(2), 8));
    }

    #[test]
    fn stream_is_pinned() {
        // Guards against accidental algorithm changes: these values must never change.
        assert_eq!(
            take(&mut Rng::new(0), 3),
            [
                0x99EC_5F36_CB75_F2B4,
                0xBF6E_1F78_4956_452A,
                0x1A5F_849D_4933_E6E0
            ]
        );
        assert_eq!(
            Rng::new(42).fork("core/a").next_u64(),
            0x0455_30D2_E181_83E6
        );
        assert_eq!(fnv1a(b""), 0xCBF2_9CE4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xAF63_DC4C_8601_EC8C);
        let mut sm = 0u64;
        assert_eq!(splitmix64(&mut sm), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn forks_are_independent_of_parent_draws_and_of_each_other() {
        let parent = Rng::new(42);
        let mut used = Rng::new(42);
        take(&mut used, 10);
        assert_eq!(
            take(&mut parent.fork("core/a"), 5),
            take(&mut used.fork("core/a"), 5)
        );
        assert_ne!(
            take(&mut parent.fork("core/a"), 5),
            take(&mut parent.fork("core/b"), 5)
        );
        assert_ne!(
            take(&mut parent.fork("core/a"), 5),
            take(&mut Rng::new(42), 5)
        );
        assert_ne!(
            take(&mut Rng::new(1).fork("x"), 5),
            take(&mut Rng::new(2).fork("x"), 5)
        );
    }

    #[test]
    fn below_zero_and_one() {
        let mut rng = Rng::new(3);
        assert_eq!(rng.below(0), 0);
        assert_eq!(rng.below(1), 0);
    }

    #[test]
    fn range_covers_extremes() {
        let mut rng = Rng::new(9);
        let v = rng.range_inclusive(i64::MIN, i64::MAX);
        assert!((i64::MIN..=i64::MAX).contains(&v));
        assert_eq!(rng.range_inclusive(5, 5), 5);
        let mut seen = [false; 3];
        for _ in 0..200 {
            let v = rng.range_inclusive(1, -1);
            seen[usize::try_from(v + 1).unwrap_or(0)] = true;
        }
        assert_eq!(seen, [true; 3]);
    }

    proptest! {
        #[test]
        fn below_stays_in_range(seed in any::<u64>(), n in 1u64..) {
            let mut rng = Rng::new(seed);
            for _ in 0..16 {
                prop_assert!(rng.below(n) < n);
            }
        }

        #[test]
        fn range_inclusive_stays_in_range(seed in any::<u64>(), a in any::<i64>(), b in any::<i64>()) {
            let mut rng = Rng::new(seed);
            let (lo, hi) = (a.min(b), a.max(b));
            let v = rng.range_inclusive(a, b);
            prop_assert!(lo <= v && v <= hi);
        }

        #[test]
        fn unit_f64_is_in_half_open_interval(seed in any::<u64>()) {
            let mut rng = Rng::new(seed);
            let x = rng.unit_f64();
            prop_assert!((0.0..1.0).contains(&x));
        }
    }
}
