//! An engine's recent changes for the overview's sparklines, and the shape of the line.

use std::fmt::Write;

use serde::{Deserialize, Serialize};

use crate::format::Tenths;

/// One engine's changes (events other than heartbeats) per bucket of simulated time, oldest
/// bucket first, the last one being the current bucket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActivityView {
    /// The engine's name.
    pub engine: String,
    /// Simulated instant at which the oldest bucket starts.
    pub from_ms: u64,
    /// Simulated milliseconds per bucket.
    pub bucket_ms: u64,
    /// Changes per bucket.
    pub counts: Vec<u32>,
}

impl ActivityView {
    /// Changes over the whole window.
    pub fn total(&self) -> u64 {
        self.counts.iter().map(|c| u64::from(*c)).sum()
    }

    /// The busiest bucket's changes.
    pub fn peak(&self) -> u32 {
        self.counts.iter().copied().max().unwrap_or(0)
    }

    /// The window's length in simulated minutes.
    pub fn window_minutes(&self) -> u64 {
        self.bucket_ms * self.counts.len() as u64 / 60_000
    }

    /// The window in words: "4 simulated hours", "1 simulated hour", "30 simulated minutes".
    pub fn window_words(&self) -> String {
        let minutes = self.window_minutes();
        match (minutes / 60, minutes % 60) {
            (1, 0) => "1 simulated hour".to_owned(),
            (hours, 0) if hours > 0 => format!("{hours} simulated hours"),
            _ => format!("{minutes} simulated minutes"),
        }
    }

    /// The sentence a screen reader and a hover read for the line.
    pub fn summary(&self) -> String {
        format!(
            "{}: {} changes in the last {}, at most {} per {} minutes",
            self.engine,
            self.total(),
            self.window_words(),
            self.peak(),
            self.bucket_ms / 60_000
        )
    }
}

/// The SVG `points` of a sparkline `width` × `height` for `counts`: evenly spaced, the
/// busiest bucket at the top (less a 1-unit margin), zero at the bottom.
pub fn sparkline_points(counts: &[u32], width: f64, height: f64) -> String {
    let peak = counts.iter().copied().max().unwrap_or(0).max(1) as f64;
    let step = if counts.len() > 1 {
        width / (counts.len() - 1) as f64
    } else {
        0.0
    };
    let mut points = String::with_capacity(counts.len() * 10);
    for (i, c) in counts.iter().enumerate() {
        let x = i as f64 * step;
        let y = height - 1.0 - (f64::from(*c) / peak) * (height - 2.0);
        let gap = if i == 0 { "" } else { " " };
        // Writing into a `String` cannot fail.
        let _ = write!(points, "{gap}{},{}", Tenths(x), Tenths(y));
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_spans_the_width_with_the_peak_on_top_and_zero_at_the_bottom() {
        // (counts, points)
        let cases: [(&[u32], &str); 4] = [
            (&[0, 0, 0], "0.0,19.0 50.0,19.0 100.0,19.0"),
            (&[0, 4, 2], "0.0,19.0 50.0,1.0 100.0,10.0"),
            (&[3], "0.0,1.0"),
            (&[], ""),
        ];
        for (counts, points) in cases {
            assert_eq!(sparkline_points(counts, 100.0, 20.0), points, "{counts:?}");
        }
    }

    #[test]
    fn the_summary_says_the_total_the_peak_and_the_window() {
        let view = ActivityView {
            engine: "lhc".into(),
            from_ms: 0,
            bucket_ms: 600_000,
            counts: vec![0, 5, 2, 0, 0, 0],
        };
        assert_eq!(
            view.summary(),
            "lhc: 7 changes in the last 1 simulated hour, at most 5 per 10 minutes"
        );
        let young = ActivityView {
            counts: vec![3, 1],
            ..view.clone()
        };
        assert_eq!(
            young.summary(),
            "lhc: 4 changes in the last 20 simulated minutes, at most 3 per 10 minutes"
        );
        let full = ActivityView {
            counts: vec![0; 24],
            ..view
        };
        assert_eq!(full.window_words(), "4 simulated hours");
    }
}
