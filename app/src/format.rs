//! Small display helpers shared by pages.

use engine::SimTime;

/// Simulated time as `D+HH:MM:SS.mmm`.
pub fn sim_time(t_ms: u64) -> String {
    SimTime(t_ms).to_string()
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
    fn shortens_long_details_only() {
        assert_eq!(short_details("{}", 10), "{}");
        assert_eq!(short_details("abcdefghijkl", 5), "abcd…");
    }
}
