//! Axis ticks of the charts: simulated-time ticks at a readable step (`Day 2 06:00`,
//! `06:15`, `06:15:30`) and value ticks at 1, 2 or 5 × a power of ten.

const SEC: u64 = 1_000;
const MIN: u64 = 60 * SEC;
const HOUR: u64 = 60 * MIN;
const DAY: u64 = 24 * HOUR;

/// Steps a time axis may take, smallest first.
const TIME_STEPS: [u64; 20] = [
    SEC,
    2 * SEC,
    5 * SEC,
    10 * SEC,
    15 * SEC,
    30 * SEC,
    MIN,
    2 * MIN,
    5 * MIN,
    10 * MIN,
    15 * MIN,
    30 * MIN,
    HOUR,
    2 * HOUR,
    3 * HOUR,
    6 * HOUR,
    12 * HOUR,
    DAY,
    2 * DAY,
    7 * DAY,
];

/// One tick: where (ms or value) and its label.
#[derive(Clone, Debug, PartialEq)]
pub struct Tick<T> {
    /// Position on the axis, in the axis' unit.
    pub at: T,
    /// What the tick reads.
    pub label: String,
}

/// Ticks of a simulated-time axis from `from_ms` to `to_ms`: at most `max_ticks`, at the
/// smallest readable step that fits, on multiples of that step. A tick reads `Day N HH:MM` at
/// a day boundary or when it is the first one, `HH:MM` otherwise (`HH:MM:SS` below a minute).
pub fn time_ticks(from_ms: u64, to_ms: u64, max_ticks: usize) -> Vec<Tick<u64>> {
    let span = to_ms.saturating_sub(from_ms);
    if span == 0 || max_ticks == 0 {
        return Vec::new();
    }
    let step = TIME_STEPS
        .into_iter()
        .find(|s| span / s < max_ticks as u64)
        .unwrap_or_else(|| span.div_ceil((max_ticks as u64 - 1).max(1)).div_ceil(DAY) * DAY);
    let mut ticks = Vec::new();
    let mut t = from_ms.div_ceil(step) * step;
    while t <= to_ms {
        let seconds = step < MIN;
        let day_label = ticks.is_empty() || t % DAY == 0 || step >= DAY;
        ticks.push(Tick {
            at: t,
            label: time_label(t, day_label, seconds),
        });
        t += step;
    }
    ticks
}

fn time_label(t_ms: u64, with_day: bool, seconds: bool) -> String {
    let in_day = t_ms % DAY;
    let (h, m, s) = (in_day / HOUR, in_day % HOUR / MIN, in_day % MIN / SEC);
    let clock = if seconds {
        format!("{h:02}:{m:02}:{s:02}")
    } else {
        format!("{h:02}:{m:02}")
    };
    if with_day {
        format!("Day {} {clock}", t_ms / DAY + 1)
    } else {
        clock
    }
}

/// The top of a value axis that holds `highest`: the next 1, 2 or 5 × 10ⁿ (at least 1).
pub fn nice_top(highest: f64) -> f64 {
    if !highest.is_finite() || highest <= 1.0 {
        return 1.0;
    }
    let magnitude = 10f64.powf(highest.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|f| f * magnitude)
        .find(|top| *top >= highest)
        .unwrap_or(10.0 * magnitude)
}

/// Ticks of a value axis from 0 to `top`: about `max_ticks` at a 1/2/5 step, labelled with
/// thousands grouped (`10,000`) and at most one decimal.
pub fn value_ticks(top: f64, max_ticks: usize) -> Vec<Tick<f64>> {
    if !(top.is_finite() && top > 0.0) || max_ticks < 2 {
        return Vec::new();
    }
    let rough = top / (max_ticks - 1) as f64;
    let magnitude = 10f64.powf(rough.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|f| f * magnitude)
        .find(|s| *s >= rough)
        .unwrap_or(10.0 * magnitude);
    (0..)
        .map(|i| f64::from(i) * step)
        .take_while(|v| *v <= top * (1.0 + 1e-9))
        .map(|v| Tick {
            at: v,
            label: group_thousands(v),
        })
        .collect()
}

/// `12,500` / `0.5`: a number as axes and tooltips print it.
pub fn group_thousands(v: f64) -> String {
    if v.fract().abs() > 1e-9 {
        return format!("{v:.1}");
    }
    let digits = format!("{}", v.abs().round() as u64);
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if v < 0.0 {
        format!("-{out}")
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels<T>(ticks: &[Tick<T>]) -> Vec<&str> {
        ticks.iter().map(|t| t.label.as_str()).collect()
    }

    #[test]
    fn time_ticks_take_the_smallest_readable_step_that_fits() {
        let cases: [(u64, u64, usize, Vec<&str>); 4] = [
            // One hour from Day 1 10:07: 10-minute steps, the first tick names its day.
            (
                10 * HOUR + 7 * MIN,
                11 * HOUR + 7 * MIN,
                8,
                vec!["Day 1 10:10", "10:20", "10:30", "10:40", "10:50", "11:00"],
            ),
            // Ninety seconds: 15-second steps, with seconds.
            (
                DAY + 30 * SEC,
                DAY + 2 * MIN,
                8,
                vec![
                    "Day 2 00:00:30",
                    "00:00:45",
                    "00:01:00",
                    "00:01:15",
                    "00:01:30",
                    "00:01:45",
                    "00:02:00",
                ],
            ),
            // Across midnight: the day boundary names the new day.
            (
                20 * HOUR,
                DAY + 4 * HOUR,
                6,
                vec!["Day 1 20:00", "22:00", "Day 2 00:00", "02:00", "04:00"],
            ),
            // A week: one tick a day (at most 8), each with its day.
            (
                0,
                7 * DAY,
                8,
                vec![
                    "Day 1 00:00",
                    "Day 2 00:00",
                    "Day 3 00:00",
                    "Day 4 00:00",
                    "Day 5 00:00",
                    "Day 6 00:00",
                    "Day 7 00:00",
                    "Day 8 00:00",
                ],
            ),
        ];
        for (from, to, max, expected) in cases {
            let ticks = time_ticks(from, to, max);
            assert_eq!(labels(&ticks), expected, "{from}..{to}");
            assert!(ticks.len() <= max);
            assert!(ticks.iter().all(|t| t.at >= from && t.at <= to));
        }
    }

    #[test]
    fn an_empty_or_very_long_span_still_gives_bounded_ticks() {
        assert!(time_ticks(5, 5, 8).is_empty());
        let ticks = time_ticks(0, 400 * DAY, 8);
        assert!(!ticks.is_empty() && ticks.len() <= 8, "{}", ticks.len());
    }

    #[test]
    fn value_axes_use_round_steps() {
        assert_eq!(nice_top(0.0), 1.0);
        assert_eq!(nice_top(7.0), 10.0);
        assert_eq!(nice_top(1_200.0), 2_000.0);
        assert_eq!(nice_top(10_000.0), 10_000.0);
        assert_eq!(nice_top(4_100.0), 5_000.0);
        assert_eq!(labels(&value_ticks(10_000.0, 5)), ["0", "5,000", "10,000"]);
        assert_eq!(
            labels(&value_ticks(10_000.0, 6)),
            ["0", "2,000", "4,000", "6,000", "8,000", "10,000"]
        );
        assert_eq!(labels(&value_ticks(1.0, 3)), ["0", "0.5", "1"]);
        assert!(value_ticks(0.0, 5).is_empty());
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(group_thousands(1_000_000.0), "1,000,000");
        assert_eq!(group_thousands(999.0), "999");
        assert_eq!(group_thousands(-12_500.0), "-12,500");
        assert_eq!(group_thousands(2.5), "2.5");
    }
}
