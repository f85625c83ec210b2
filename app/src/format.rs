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
