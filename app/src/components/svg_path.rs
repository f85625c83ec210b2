//! The path data of the charts' lines: steps (a value held until the next one) and straight
//! lines, each written into one string with its coordinates to a tenth ([`Tenths`]), without
//! a string per point.

use std::fmt::Write;

use crate::format::Tenths;

/// Steps through `points` (x, y): to the first, then for each next one across to its x and
/// up or down to its y; the last value is held to `right`. Empty without a point.
pub fn steps(points: impl IntoIterator<Item = (f64, f64)>, right: f64) -> String {
    let mut d = String::new();
    for (x, y) in points {
        let step = if d.is_empty() { "M" } else { " H" };
        let turn = if d.is_empty() { "," } else { " V" };
        // Writing into a `String` cannot fail.
        let _ = write!(d, "{step}{}{turn}{}", Tenths(x), Tenths(y));
    }
    if !d.is_empty() {
        let _ = write!(d, " H{}", Tenths(right));
    }
    d
}

/// A closed area: `top`'s steps (as [`steps`], held to `right`), then back from the right
/// along `bottom`, a level per x of `top` from the last to the first. `bottom` holds a y per
/// point of `top` (missing ones are left out). Empty without a point.
pub fn step_area(top: &[(f64, f64)], bottom: &[f64], right: f64) -> String {
    let mut d = steps(top.iter().copied(), right);
    if d.is_empty() {
        return d;
    }
    for ((x, _), y) in top.iter().zip(bottom).rev() {
        let _ = write!(d, " V{} H{}", Tenths(*y), Tenths(*x));
    }
    d.push_str(" Z");
    d
}

/// A straight line through `points` (x, y), each point followed by a space. Empty without a
/// point.
pub fn line(points: impl IntoIterator<Item = (f64, f64)>) -> String {
    let mut d = String::new();
    for (x, y) in points {
        let to = if d.is_empty() { "M" } else { "L" };
        let _ = write!(d, "{to}{},{} ", Tenths(x), Tenths(y));
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_hold_each_value_until_the_next_and_to_the_right_edge() {
        type Points = &'static [(f64, f64)];
        // (points, path with the right edge at 900)
        let cases: [(Points, &str); 3] = [
            (&[], ""),
            (&[(0.0, 10.0)], "M0.0,10.0 H900.0"),
            (
                &[(0.0, 10.0), (5.04, 20.06), (7.0, 0.0)],
                "M0.0,10.0 H5.0 V20.1 H7.0 V0.0 H900.0",
            ),
        ];
        for (points, path) in cases {
            assert_eq!(steps(points.iter().copied(), 900.0), path, "{points:?}");
        }
    }

    #[test]
    fn an_area_goes_back_along_its_bottom_and_closes() {
        assert_eq!(step_area(&[], &[], 900.0), "");
        assert_eq!(
            step_area(&[(0.0, 10.0), (50.0, 20.0)], &[30.0, 40.0], 900.0),
            "M0.0,10.0 H50.0 V20.0 H900.0 V40.0 H50.0 V30.0 H0.0 Z"
        );
    }

    #[test]
    fn a_line_moves_to_its_first_point_and_draws_to_the_others() {
        assert_eq!(line([]), "");
        assert_eq!(line([(0.0, 1.25), (10.0, 2.0)]), "M0.0,1.3 L10.0,2.0 ");
    }
}
