//! The overview cards' sparklines: an engine's changes per 10 simulated minutes over the
//! last 4 simulated hours (the overview's answer carries them).

use leptos::prelude::*;

use crate::model::activity::{sparkline_points, ActivityView};

/// Width and height of a sparkline, in SVG units (CSS pixels).
const WIDTH: f64 = 96.0;
const HEIGHT: f64 = 20.0;

/// A line of `activity`'s counts with its total beside it; the summary is its accessible
/// name and its hover text.
#[component]
pub fn Sparkline(activity: ActivityView) -> impl IntoView {
    let summary = activity.summary();
    let title = summary.clone();
    let points = sparkline_points(&activity.counts, WIDTH, HEIGHT);
    view! {
        <span class="sparkline" data-engine=activity.engine.clone() data-total=activity.total() title=title>
            <svg
                role="img"
                aria-label=summary
                width=WIDTH
                height=HEIGHT
                viewBox=format!("0 0 {WIDTH} {HEIGHT}")
                preserveAspectRatio="none"
            >
                <polyline points=points fill="none"/>
            </svg>
            <span class="spark-total small">{activity.total()}</span>
        </span>
    }
}
