//! Small display helpers shared by pages.

use engine::SimTime;

/// Simulated time as a person reads it: `Day N HH:MM:SS`, the first simulated day being
/// day 1. The exact offset is [`sim_offset`] (shown on hover).
pub fn sim_time(t_ms: u64) -> String {
    const SEC: u64 = 1_000;
    const DAY: u64 = 86_400 * SEC;
    let in_day = t_ms % DAY / SEC;
    format!(
        "Day {} {:02}:{:02}:{:02}",
        t_ms / DAY + 1,
        in_day / 3_600,
        in_day % 3_600 / 60,
        in_day % 60
    )
}

/// The exact offset since the start of the run, `D+HH:MM:SS.mmm` (the form the time bar and
/// the `at` URL parameter take).
pub fn sim_offset(t_ms: u64) -> String {
    SimTime(t_ms).to_string()
}

/// A simulated instant in a page: `Day N HH:MM:SS`, with the exact offset since the start on
/// hover.
#[leptos::component]
pub fn Instant(
    /// Milliseconds since the start of the run.
    t_ms: u64,
) -> impl leptos::IntoView {
    use leptos::prelude::*;
    view! {
        <time class="instant" title=format!("+{} since the start ({t_ms} ms)", sim_offset(t_ms))>
            {sim_time(t_ms)}
        </time>
    }
}

/// A count with its thousands grouped by commas (`1234567` → `1,234,567`).
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A coordinate of a drawing (an SVG path or point list) with one decimal, as `{:.1}` writes
/// it, without the standard library's exact decimal expansion: its slow path took a tenth of
/// the GSLB page's server time at full scale. A value close to a tie (`1.15`, `0.25`) may round
/// the other way than `{:.1}` would, and `-0.0` reads `0.0`: a twentieth of a unit at most.
pub struct Tenths(pub f64);

impl std::fmt::Display for Tenths {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tenths = (self.0 * 10.0).round();
        // Not a number, or beyond what an `i64` holds exactly: the standard form.
        if tenths.is_nan() || tenths.abs() >= 1e15 {
            return write!(f, "{:.1}", self.0);
        }
        // Exact: a whole number below 2^53.
        let tenths = tenths as i64;
        let sign = if tenths < 0 { "-" } else { "" };
        let n = tenths.unsigned_abs();
        write!(f, "{sign}{}.{}", n / 10, n % 10)
    }
}

/// A JSON object's text shortened for a table cell.
pub fn short_details(details: &str, max: usize) -> String {
    if details.chars().count() <= max {
        details.to_owned()
    } else {
        let cut: String = details.chars().take(max.saturating_sub(1)).collect();
        format!("{cut}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn coordinates_read_with_one_decimal() {
        let cases = [
            (0.0, "0.0"),
            (1.04, "1.0"),
            (1.06, "1.1"),
            (-3.26, "-3.3"),
            (-0.04, "0.0"),
            (1234.56, "1234.6"),
            (99.96, "100.0"),
            (f64::NAN, "NaN"),
            (1e20, "100000000000000000000.0"),
            (-f64::INFINITY, "-inf"),
        ];
        for (x, want) in cases {
            assert_eq!(Tenths(x).to_string(), want, "{x}");
        }
    }

    proptest! {
        /// One decimal, within a twentieth of the value, and the standard form's text
        /// wherever the value is not within a millionth of a tie.
        #[test]
        fn coordinates_round_to_the_nearest_tenth(x in -1e7f64..1e7) {
            let text = Tenths(x).to_string();
            prop_assert_eq!(text.split('.').nth(1).map(str::len), Some(1), "{}", text);
            let read: f64 = text.parse().map_err(|e| TestCaseError::fail(format!("{e}")))?;
            prop_assert!((read - x).abs() <= 0.05 + 1e-6, "{} for {}", text, x);
            let from_tie = ((x * 10.0).rem_euclid(1.0) - 0.5).abs();
            if from_tie > 1e-6 && read != 0.0 {
                prop_assert_eq!(text, format!("{x:.1}"));
            }
        }
    }

    #[test]
    fn simulated_instants_read_as_day_and_time() {
        let cases = [
            (0, "Day 1 00:00:00", "0+00:00:00.000"),
            (999, "Day 1 00:00:00", "0+00:00:00.999"),
            (45_259_896, "Day 1 12:34:19", "0+12:34:19.896"),
            (86_399_999, "Day 1 23:59:59", "0+23:59:59.999"),
            (86_400_000, "Day 2 00:00:00", "1+00:00:00.000"),
            (
                30 * 86_400_000 + 3_600_000,
                "Day 31 01:00:00",
                "30+01:00:00.000",
            ),
        ];
        for (t_ms, shown, offset) in cases {
            assert_eq!(sim_time(t_ms), shown, "{t_ms}");
            assert_eq!(sim_offset(t_ms), offset, "{t_ms}");
        }
    }

    #[test]
    fn counts_group_their_thousands() {
        let cases = [
            (0, "0"),
            (999, "999"),
            (1000, "1,000"),
            (10000, "10,000"),
            (1_000_000, "1,000,000"),
            (123_456_789, "123,456,789"),
        ];
        for (n, want) in cases {
            assert_eq!(thousands(n), want);
        }
    }

    #[test]
    fn shortens_long_details_only() {
        assert_eq!(short_details("{}", 10), "{}");
        assert_eq!(short_details("abcdefghijkl", 5), "abcd…");
    }
}
