//! [`ChartFrame`]: the frame every time chart is drawn in. Around the chart's own SVG (which
//! stretches to the frame's width) it puts a time axis with readable ticks, an optional value
//! axis, a crosshair with a tooltip naming the instant and the chart's values there, and, for
//! charts over the run's time, zoom by dragging across a range (which opens that custom range
//! in the URL, see [`crate::components::time_range`]).

use leptos::prelude::*;

use crate::components::time_range::use_range_link;
use crate::erase::ErasedChildren;
use crate::format::sim_time;
use crate::model::axis::{time_ticks, value_ticks};

/// Most time ticks on an axis (labels stay apart at 360 px).
const TIME_TICKS: usize = 6;
/// Most value ticks on an axis.
const VALUE_TICKS: usize = 5;
/// A drag narrower than this share of the width is a click, not a zoom.
const MIN_DRAG: f64 = 0.01;

/// How the time axis reads its instants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeAxis {
    /// Simulated time of the run (`Day N HH:MM`); dragging zooms into the range.
    Run,
    /// Time since the start of an experiment (`+HH:MM:SS`); no zoom.
    Elapsed,
}

/// Where the pointer is across the plot, 0.0 (left) to 1.0 (right).
#[cfg(feature = "hydrate")]
fn pointer_fraction(ev: &leptos::ev::MouseEvent) -> Option<f64> {
    use wasm_bindgen::JsCast;
    let plot = ev.current_target()?.dyn_into::<web_sys::Element>().ok()?;
    let rect = plot.get_bounding_client_rect();
    (rect.width() > 0.0)
        .then(|| ((f64::from(ev.client_x()) - rect.left()) / rect.width()).clamp(0.0, 1.0))
}

#[cfg(not(feature = "hydrate"))]
fn pointer_fraction(_ev: &leptos::ev::MouseEvent) -> Option<f64> {
    None
}

/// The label of a tick on an elapsed-time axis.
fn elapsed_label(t_ms: u64) -> String {
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
    let at = move |fraction: f64| from_ms + (fraction * span as f64).round() as u64;
    let pct = move |t: u64| (t.saturating_sub(from_ms) as f64 / span as f64) * 100.0;
    let instant = move |t: u64| match axis {
        TimeAxis::Run => sim_time(t),
        TimeAxis::Elapsed => elapsed_label(t),
    };
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
    let hover = RwSignal::new(None::<f64>);
    let drag = RwSignal::new(None::<f64>);
    let range_link = use_range_link();
    let navigate = leptos_router::hooks::use_navigate();
    let zooms = zoom && axis == TimeAxis::Run;
    let on_up = move |ev: leptos::ev::MouseEvent| {
        let (Some(start), Some(end)) = (drag.get_untracked(), pointer_fraction(&ev)) else {
            return;
        };
        drag.set(None);
        if zooms && (end - start).abs() >= MIN_DRAG {
            let (a, b) = (start.min(end), start.max(end));
            navigate(&range_link(at(a), at(b)), Default::default());
        }
    };
    let tip = move || {
        hover.get().map(|f| {
            let t = at(f);
            // On the side with more room, never wider than that room.
            let side = if f > 0.5 { "right" } else { "left" };
            let place = if f > 0.5 {
                format!(
                    "right:{:.2}%;max-width:calc({:.2}% - 12px)",
                    (1.0 - f) * 100.0,
                    f * 100.0
                )
            } else {
                format!(
                    "left:{:.2}%;max-width:calc({:.2}% - 12px)",
                    f * 100.0,
                    (1.0 - f) * 100.0
                )
            };
            view! {
                <div class="crosshair" style=format!("left:{:.2}%", f * 100.0)></div>
                <div class=format!("chart-tip {side}") style=place role="status">
                    <b>{instant(t)}</b>" "{tooltip.run(t)}
                </div>
            }
        })
    };
    let selection = move || match (drag.get(), hover.get()) {
        (Some(a), Some(b)) if zooms && (a - b).abs() >= MIN_DRAG => Some(view! {
            <div class="zoom-selection" style=format!("left:{:.2}%;width:{:.2}%", a.min(b) * 100.0, (a - b).abs() * 100.0)></div>
        }),
        _ => None,
    };
    view! {
        <div class="chart-frame" class:with-values=y_top.is_some()>
            {y_ticks.map(|ticks| view! {
                <div class="y-axis" aria-hidden="true" title=y_unit>{ticks}</div>
            })}
            <div
                class="plot"
                class:zooms=zooms
                title=if zooms { "Drag across a range to zoom into it" } else { "" }
                on:mousemove=move |ev| hover.set(pointer_fraction(&ev))
                on:mouseleave=move |_| {
                    hover.set(None);
                    drag.set(None);
                }
                on:mousedown=move |ev| {
                    ev.prevent_default();
                    drag.set(pointer_fraction(&ev));
                }
                on:mouseup=on_up
            >
                {children.view()}
                {tip}
                {selection}
            </div>
            <div class="x-axis" aria-hidden="true">{x_ticks}</div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::elapsed_label;

    #[test]
    fn elapsed_time_reads_from_the_start() {
        assert_eq!(elapsed_label(0), "+00:00:00");
        assert_eq!(elapsed_label(90_500), "+00:01:30");
        assert_eq!(elapsed_label(3_723_000), "+01:02:03");
    }
}
