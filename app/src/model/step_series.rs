//! Step series (points oldest first, each in force until the next) cut to a chart's window
//! and thinned to its width. Pure data: the server functions cut what they send, the charts
//! what they draw.

/// The points of a step series that matter in `[from, to]`: the one in force at `from`
/// (moved to `from`) and those inside the window.
pub fn in_window<T: Clone>(
    points: &[T],
    t_ms: impl Fn(&T) -> u64,
    set: impl Fn(&mut T, u64),
    from: u64,
    to: u64,
) -> Vec<T> {
    let first_inside = points.partition_point(|p| t_ms(p) <= from);
    let mut out: Vec<T> = Vec::new();
    if let Some(before) = first_inside.checked_sub(1).and_then(|i| points.get(i)) {
        let mut p = before.clone();
        set(&mut p, from);
        out.push(p);
    }
    out.extend(
        points[first_inside..]
            .iter()
            .take_while(|p| t_ms(p) <= to)
            .cloned(),
    );
    out
}

/// At most `buckets` points of a step series (oldest first) spread over `[from, to]`: in each
/// of `buckets` equal slices of the window, the point of the highest `value` (the first of
/// equals), so that a chart as wide as `buckets` pixels keeps every peak. A series that
/// already fits is returned as it is.
pub fn thin_to_peaks<T>(
    points: Vec<T>,
    t_ms: impl Fn(&T) -> u64,
    value: impl Fn(&T) -> u64,
    from: u64,
    to: u64,
    buckets: usize,
) -> Vec<T> {
    if points.len() <= buckets || buckets == 0 {
        return points;
    }
    let span = to.saturating_sub(from).max(1);
    let slice = |t: u64| -> usize {
        let offset = u128::from(t.clamp(from, to) - from);
        let b = offset * buckets as u128 / u128::from(span);
        usize::try_from(b).unwrap_or(usize::MAX).min(buckets - 1)
    };
    let mut out: Vec<T> = Vec::with_capacity(buckets);
    let mut current: Option<usize> = None;
    for p in points {
        let b = slice(t_ms(&p));
        match (current, out.last()) {
            (Some(c), Some(kept)) if c == b => {
                if value(&p) > value(kept) {
                    if let Some(last) = out.last_mut() {
                        *last = p;
                    }
                }
            }
            _ => {
                current = Some(b);
                out.push(p);
            }
        }
    }
    out
}

/// The last point at or before `t` of a step series.
pub fn at_instant<T>(points: &[T], t_ms: impl Fn(&T) -> u64, t: u64) -> Option<&T> {
    points
        .partition_point(|p| t_ms(p) <= t)
        .checked_sub(1)
        .and_then(|i| points.get(i))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A step point: instant and value.
    type Point = (u64, char);

    #[test]
    fn a_window_keeps_the_point_in_force_at_its_start() {
        let points = [(0u64, 'a'), (100, 'b'), (200, 'c'), (300, 'd')];
        let cases: [(u64, u64, Vec<Point>); 4] = [
            (150, 250, vec![(150, 'b'), (200, 'c')]),
            (100, 300, vec![(100, 'b'), (200, 'c'), (300, 'd')]),
            (0, 50, vec![(0, 'a')]),
            (400, 500, vec![(400, 'd')]),
        ];
        for (from, to, want) in cases {
            assert_eq!(
                in_window(&points, |p| p.0, |p, t| p.0 = t, from, to),
                want,
                "{from}..{to}"
            );
        }
        assert_eq!(at_instant(&points, |p| p.0, 250), Some(&(200, 'c')));
        assert_eq!(at_instant(&points[1..], |p| p.0, 50), None);
    }

    #[test]
    fn a_long_series_is_thinned_to_the_peak_of_each_slice() {
        // (instant, value): four slices of 100 ms over [0, 400].
        let points: Vec<(u64, u64)> = vec![
            (0, 5),
            (30, 9),
            (60, 9),
            (90, 1),
            (150, 2),
            (310, 7),
            (320, 3),
            (399, 8),
            (400, 4),
        ];
        let thin = |buckets| thin_to_peaks(points.clone(), |p| p.0, |p| p.1, 0, 400, buckets);
        assert_eq!(thin(4), vec![(30, 9), (150, 2), (399, 8)]);
        assert_eq!(thin(1), vec![(30, 9)]);
        assert_eq!(thin(9), points, "a series that fits is kept whole");
        assert_eq!(thin(0), points);
        let many: Vec<(u64, u64)> = (0..10_000).map(|t| (t, t % 97)).collect();
        let kept = thin_to_peaks(many, |p| p.0, |p| p.1, 0, 9_999, 450);
        assert!(kept.len() <= 450, "{}", kept.len());
        assert!(kept.windows(2).all(|w| w[0].0 < w[1].0), "oldest first");
        assert_eq!(
            kept.iter().map(|p| p.1).max(),
            Some(96),
            "the highest peak is kept"
        );
    }
}
