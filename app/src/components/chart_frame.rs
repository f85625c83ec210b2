//! [`ChartFrame`]: the frame every time chart is drawn in. Around the chart's own SVG (which
//! stretches to the frame's width) it puts a time axis with readable ticks, an optional value
//! axis, a crosshair with a tooltip naming the instant and the chart's values there, and, for
//! charts over the run's time, zoom by dragging across a range (which opens that custom range
//! in the URL, see [`crate::components::time_range`]).
//!
//! The frame is server-rendered: the tooltip's texts are computed here at [`TIP_SAMPLES`]
//! instants across the plot (consecutive equal ones merged) and written into `data-tips`; the
//! page's behaviours ([`crate::components::behaviours`]) draw the crosshair, the tooltip and
//! the dragged range from it.

use leptos::prelude::*;

use crate::erase::ErasedChildren;
use crate::model::axis::{time_ticks, value_ticks};

/// Most time ticks on an axis (labels stay apart at 360 px).
const TIME_TICKS: usize = 6;
/// Most value ticks on an axis.
const VALUE_TICKS: usize = 5;
/// A drag narrower than this share of the width is a click, not a zoom.
pub const MIN_DRAG: f64 = 0.01;
/// Instants across the plot at which the tooltip's text is computed (a few pixels apart on
/// the widest chart).
pub const TIP_SAMPLES: u64 = 240;

/// How the time axis reads its instants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeAxis {
    /// Simulated time of the run (`Day N HH:MM`); dragging zooms into the range.
    Run,
    /// Time since the start of an experiment (`+HH:MM:SS`); no zoom.
    Elapsed,
}

/// The label of a tick on an elapsed-time axis.
pub fn elapsed_label(t_ms: u64) -> String {
    let s = t_ms / 1_000;
    format!("+{:02}:{:02}:{:02}", s / 3_600, s / 60 % 60, s % 60)
}

/// A time chart's frame: axes, crosshair with tooltip, drag to zoom.
#[component]
pub fn ChartFrame(
    /// Start of the time axis, ms.
    from_ms: u64,
    /// End of the time axis, ms.
    to_ms: u64,
    /// Top of the value axis (its bottom is 0); no value axis when `None`.
    #[prop(optional)]
    y_top: Option<f64>,
    /// What the values count (`VDAs`, `sessions`), said on the value axis.
    #[prop(optional)]
    y_unit: &'static str,
    /// How the time axis reads.
    #[prop(default = TimeAxis::Run)]
    axis: TimeAxis,
    /// Whether dragging opens the dragged range (charts that follow the range picker).
    #[prop(default = true)]
    zoom: bool,
    /// The chart's values at an instant, for the tooltip.
    tooltip: Callback<u64, String>,
    /// The chart's `<svg>`.
    children: ErasedChildren,
) -> impl IntoView {
    let span = to_ms.saturating_sub(from_ms).max(1);
    let pct = move |t: u64| (t.saturating_sub(from_ms) as f64 / span as f64) * 100.0;
    let x_ticks = time_ticks(from_ms, to_ms, TIME_TICKS)
        .into_iter()
        .map(|t| {
            let label = match axis {
                TimeAxis::Run => t.label,
                TimeAxis::Elapsed => elapsed_label(t.at),
            };
            // Labels at the edges are anchored inside the frame, never past it.
            let edge = match pct(t.at) {
                p if p < 8.0 => "tick start",
                p if p > 92.0 => "tick end",
                _ => "tick",
            };
            view! { <span class=edge style=format!("left:{:.2}%", pct(t.at)) data-t-ms=t.at.to_string()>{label}</span> }
        })
        .collect_view();
    let y_ticks = y_top.map(|top| {
        value_ticks(top, VALUE_TICKS)
            .into_iter()
            .map(|t| view! { <span class="tick" style=format!("bottom:{:.2}%", t.at / top * 100.0)>{t.label}</span> })
            .collect_view()
    });
    let zooms = zoom && axis == TimeAxis::Run;
    let tips = tips_json(from_ms, span, |t| tooltip.run(t));
    view! {
        <div class="chart-frame" class:with-values=y_top.is_some()>
            {y_ticks.map(|ticks| view! {
                <div class="y-axis" aria-hidden="true" title=y_unit>{ticks}</div>
            })}
            <div
                class="plot"
                class:zooms=zooms
                title=if zooms { "Drag across a range to zoom into it" } else { "" }
                data-tips=tips
                data-from=from_ms.to_string()
                data-to=to_ms.to_string()
                data-axis=match axis { TimeAxis::Run => "run", TimeAxis::Elapsed => "elapsed" }
            >
                {children.view()}
            </div>
            <div class="x-axis" aria-hidden="true">{x_ticks}</div>
        </div>
    }
}

/// The tooltip's texts at [`TIP_SAMPLES`] instants from `from_ms` over `span` ms, as JSON
/// `[[t_ms, "text"], …]`, an entry only where the text changes.
fn tips_json(from_ms: u64, span: u64, text_at: impl Fn(u64) -> String) -> String {
    let mut tips: Vec<(u64, String)> = Vec::new();
    for i in 0..=TIP_SAMPLES {
        let t = from_ms + span * i / TIP_SAMPLES;
        let text = text_at(t);
        if tips.last().is_none_or(|(_, last)| *last != text) {
            tips.push((t, text));
        }
    }
    serde_json::to_string(&tips).unwrap_or_else(|_| "[]".to_owned())
}

#[cfg(test)]
mod tests {
    use super::{elapsed_label, tips_json, TIP_SAMPLES};

    #[test]
    fn a_tip_is_written_where_the_text_changes() {
        let tips = tips_json(1_000, TIP_SAMPLES * 10, |t| {
            if t < 1_000 + TIP_SAMPLES * 5 {
                "low".into()
            } else {
                "high".into()
            }
        });
        assert_eq!(
            tips,
            format!("[[1000,\"low\"],[{},\"high\"]]", 1_000 + TIP_SAMPLES * 5)
        );
        assert_eq!(tips_json(0, 1, |_| "x".into()), "[[0,\"x\"]]");
    }

    #[test]
    fn elapsed_time_reads_from_the_start() {
        assert_eq!(elapsed_label(0), "+00:00:00");
        assert_eq!(elapsed_label(90_500), "+00:01:30");
        assert_eq!(elapsed_label(3_723_000), "+01:02:03");
    }
}
