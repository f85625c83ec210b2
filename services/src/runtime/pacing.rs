//! Converts elapsed wall-clock time into simulated time at a speed factor, without losing
//! the fractions of a millisecond between ticks.

use std::time::Duration;

/// Accumulates wall time × factor and hands out whole simulated milliseconds.
#[derive(Debug, Default, Clone)]
pub struct Pacer {
    /// Simulated microseconds earned but not yet handed out (always < 1000).
    carry_us: u128,
}

impl Pacer {
    /// Simulated milliseconds to advance for `wall` elapsed at `factor`×.
    pub fn advance(&mut self, wall: Duration, factor: u64) -> u64 {
        let earned = wall.as_micros() * u128::from(factor) + self.carry_us;
        self.carry_us = earned % 1000;
        u64::try_from(earned / 1000).unwrap_or(u64::MAX)
    }

    /// Forgets the carried fraction (after a pause or a speed change).
    pub fn reset(&mut self) {
        self.carry_us = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advances_by_wall_time_times_factor() {
        let table = [
            (Duration::from_millis(100), 1, 100),
            (Duration::from_millis(100), 10, 1_000),
            (Duration::from_millis(100), 60, 6_000),
            (Duration::from_millis(100), 600, 60_000),
            (Duration::from_secs(1), 1, 1_000),
        ];
        for (wall, factor, expected) in table {
            assert_eq!(
                Pacer::default().advance(wall, factor),
                expected,
                "{wall:?} x{factor}"
            );
        }
    }

    #[test]
    fn keeps_fractions_across_ticks() {
        let mut p = Pacer::default();
        let total: u64 = (0..1000)
            .map(|_| p.advance(Duration::from_micros(300), 1))
            .sum();
        assert_eq!(total, 300, "1000 ticks of 0.3 ms make 300 ms");
    }
}
