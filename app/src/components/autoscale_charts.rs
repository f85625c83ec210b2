//! The timeline of an autoscale cluster as one SVG: every threshold's metric with its minimum
//! and maximum lines, breach streaks, scale-out / scale-in markers, cooldown, drain and (DNS
//! mode) TTL periods shaded, and the nodes in service as a step chart in a strip below.

use engine::autoscale::config::Metric;
use engine::autoscale::views::ClusterState;
use leptos::prelude::*;

use engine::autoscale::chart::{MetricSeries, Timeline};

use crate::components::chart_frame::ChartFrame;
use crate::components::svg_path;
use crate::erase::Erase;
use crate::model::autoscale::{metric_name, metric_unit};
use crate::model::autoscale_groups::STATE_KEYS;
use crate::model::listing::key_of;

const WIDTH: f64 = 900.0;
/// Height of the metrics area.
const METRIC_H: f64 = 170.0;
/// Top of the node strip.
const STRIP_TOP: f64 = 182.0;
/// Height of the node strip.
const STRIP_H: f64 = 58.0;
const HEIGHT: f64 = STRIP_TOP + STRIP_H;
/// Height of a breach bar.
const BREACH_H: f64 = 5.0;
/// Stroke classes cycled for the metric series.
const SERIES: usize = 8;

/// The name of a state in CSS classes and data attributes (`ttl_wait`).
pub fn state_key(state: ClusterState) -> &'static str {
    key_of(&STATE_KEYS, &state)
}

/// `Day N HH:MM` of a simulated minute.
pub fn minute_label(minute: u64) -> String {
    let (d, h, m) = (minute / 1_440, (minute / 60) % 24, minute % 60);
    format!("Day {} {h:02}:{m:02}", d + 1)
}

/// The top of a series' y axis: 100 for percentages; for throughput the data and its limits
/// with some headroom, rounded up to a hundred.
fn scale_top(s: &MetricSeries) -> f64 {
    match s.metric {
        Metric::Cpu | Metric::Memory => 100.0,
        Metric::Throughput => {
            let high = s.points.iter().map(|p| p.1).fold(s.max, f64::max) * 1.15;
            ((high / 100.0).ceil() * 100.0).max(100.0)
        }
    }
}

/// The scales of timelines drawn side by side (recorded vs what-if): each metric's top and the
/// node strip's top, the largest of any of them, so equal heights mean equal values.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SharedScale {
    /// Top of each metric's axis.
    pub metrics: Vec<(Metric, f64)>,
    /// Top of the node strip.
    pub nodes: u32,
}

impl SharedScale {
    /// The scale that holds every one of `timelines`.
    pub fn of(timelines: &[&Timeline]) -> Self {
        let mut scale = Self::default();
        for t in timelines {
            for s in &t.series {
                let top = scale_top(s);
                match scale.metrics.iter_mut().find(|m| m.0 == s.metric) {
                    Some(m) => m.1 = m.1.max(top),
                    None => scale.metrics.push((s.metric, top)),
                }
            }
            scale.nodes = scale.nodes.max(node_top(t));
        }
        scale
    }
}

/// The node strip's top: the larger of the limit and the data (at least 1).
fn node_top(t: &Timeline) -> u32 {
    t.nodes
        .iter()
        .map(|n| n.1)
        .max()
        .unwrap_or(0)
        .max(t.max_nodes)
        .max(1)
}

/// One zone's timeline. `dns`: the group is in DNS mode (the TTL band is labelled).
#[component]
pub fn TimelineChart(
    timeline: Timeline,
    dns: bool,
    /// Element id of the `<svg>`.
    id: String,
    /// The scales shared with the timelines it is compared with (its own when `None`).
    #[prop(optional)]
    scale: Option<SharedScale>,
    /// Whether dragging across it opens that range (not for a what-if, which is no range of
    /// the run).
    #[prop(default = true)]
    zoom: bool,
) -> impl IntoView {
    let own_node_top = node_top(&timeline);
    let Timeline {
        zone,
        from_minute,
        to_minute,
        series,
        nodes,
        min_nodes,
        max_nodes,
        spans,
        breaches,
        markers,
        scale_outs,
        scale_ins,
    } = timeline;
    let slots = (to_minute.saturating_sub(from_minute) + 1) as f64;
    let x = move |minute: u64| (minute.saturating_sub(from_minute) as f64 / slots) * WIDTH;
    // A minute's point sits in the middle of its slot.
    let mid = move |minute: u64| x(minute) + WIDTH / slots / 2.0;
    let empty = series.iter().all(|s| s.points.is_empty());

    let shaded = spans
        .into_iter()
        .map(|s| {
            let (x0, x1) = (x(s.from), x(s.to.min(to_minute + 1)));
            let label = if s.state == ClusterState::TtlWait && dns {
                "DNS TTL in effect".to_owned()
            } else {
                s.state.label().to_owned()
            };
            view! {
                <rect x=x0 y="0" width=(x1 - x0).max(0.5) height=HEIGHT class=format!("as-span as-{}", state_key(s.state)) data-state=state_key(s.state)>
                    <title>{format!("{label}: {} → {}", minute_label(s.from), minute_label(s.to))}</title>
                </rect>
            }
        })
        .collect_view();
    let breach_bars = breaches
        .into_iter()
        .map(|b| {
            let (x0, x1) = (x(b.from), x(b.to.min(to_minute + 1)));
            let (y, class, text) = if b.above {
                (0.0, "as-breach as-above", "above a maximum")
            } else {
                (METRIC_H - BREACH_H, "as-breach as-below", "every metric below its minimum")
            };
            view! {
                <rect x=x0 y=y width=(x1 - x0).max(0.5) height=BREACH_H class=class data-breach=if b.above { "above" } else { "below" }>
                    <title>{format!("{text}: {} minute(s) from {}", b.to - b.from, minute_label(b.from))}</title>
                </rect>
            }
        })
        .collect_view();
    let tops: Vec<f64> = series
        .iter()
        .map(|s| {
            let shared = scale
                .as_ref()
                .and_then(|sc| sc.metrics.iter().find(|m| m.0 == s.metric));
            shared.map_or_else(|| scale_top(s), |m| m.1)
        })
        .collect();
    let lines = series
        .iter()
        .zip(&tops)
        .enumerate()
        .map(|(i, (s, top))| {
            let y = |v: f64| METRIC_H - (v.clamp(0.0, *top) / top) * (METRIC_H - 2.0 * BREACH_H) - BREACH_H;
            let d = svg_path::line(s.points.iter().map(|(m, v)| (mid(*m), y(*v))));
            let class = format!("series-{}", i % SERIES);
            let name = metric_name(s.metric);
            view! {
                <line x1="0" x2=WIDTH y1=y(s.max) y2=y(s.max) class=format!("as-limit {class}") data-limit=format!("{name}-max")>
                    <title>{format!("{name} maximum {}", s.max)}</title>
                </line>
                <line x1="0" x2=WIDTH y1=y(s.min) y2=y(s.min) class=format!("as-limit as-min {class}") data-limit=format!("{name}-min")>
                    <title>{format!("{name} minimum {}", s.min)}</title>
                </line>
                <path d=d class=class data-series=name/>
            }
        })
        .collect_view();
    // Nodes in service: steps in the strip, scaled to the larger of the limit and the data.
    let node_top = scale
        .as_ref()
        .map_or(own_node_top, |sc| sc.nodes.max(own_node_top));
    let ny = move |n: u32| {
        STRIP_TOP + STRIP_H - (f64::from(n) / f64::from(node_top)) * (STRIP_H - 6.0) - 3.0
    };
    let node_path = svg_path::steps(nodes.iter().map(|(m, n)| (x(*m), ny(*n))), WIDTH);
    let last_nodes = nodes.last().map_or(0, |n| n.1);
    let marks = markers
        .into_iter()
        .map(|m| {
            let px = mid(m.minute);
            let text = match m.kind.as_str() {
                "scale_out" => format!("scale-out (+{}) at {}", m.nodes, minute_label(m.minute)),
                "scale_in" => format!("scale-in (−{}) at {}", m.nodes, minute_label(m.minute)),
                _ => format!("at the node limit at {}", minute_label(m.minute)),
            };
            view! {
                <line x1=px x2=px y1="0" y2=HEIGHT class=format!("as-marker as-{}", m.kind) data-marker=m.kind.clone() data-minute=m.minute.to_string()>
                    <title>{text}</title>
                </line>
            }
        })
        .collect_view();
    // The tooltip: every metric and the nodes in service in the minute under the pointer.
    let tip_series: Vec<(Metric, Vec<(u64, f64)>)> = series
        .iter()
        .map(|s| (s.metric, s.points.clone()))
        .collect();
    let tip_nodes = nodes.clone();
    let tooltip = Callback::new(move |t: u64| {
        let minute = t / 60_000;
        let mut parts: Vec<String> = tip_series
            .iter()
            .filter_map(|(metric, points)| {
                points.iter().find(|p| p.0 == minute).map(|p| {
                    format!(
                        "{} {:.1} {}",
                        metric_name(*metric),
                        p.1,
                        metric_unit(*metric)
                    )
                })
            })
            .collect();
        if let Some(n) = tip_nodes.iter().rev().find(|n| n.0 <= minute) {
            parts.push(format!("{} node(s) in service", n.1));
        }
        parts.join(" · ")
    });
    let (from_ms, to_ms) = (from_minute * 60_000, (to_minute + 1) * 60_000);
    let label = format!("Timeline of {zone}");
    let legend_series = series
        .iter()
        .zip(&tops)
        .enumerate()
        .map(|(i, (s, top))| {
            let unit = metric_unit(s.metric);
            let scale = if s.metric == Metric::Throughput { format!(", axis 0–{top} {unit}") } else { String::new() };
            view! {
                <span><i class=format!("series-{}", i % SERIES)></i>{format!("{} (min {} / max {} {unit}{scale})", metric_name(s.metric), s.min, s.max)}</span>
            }
        })
        .collect_view();
    view! {
        <div class="as-timeline" data-zone=zone.clone()>
            {empty.then(|| view! { <p class="muted">"No statistics recorded yet (one per cluster every simulated minute)."</p> })}
            <ChartFrame from_ms to_ms tooltip zoom>
            <svg class="chart as-chart" viewBox=format!("0 0 {WIDTH} {HEIGHT}") preserveAspectRatio="none" role="img"
                aria-label=label id=id
                data-scale-outs=scale_outs.to_string() data-scale-ins=scale_ins.to_string()
                data-max-nodes=max_nodes.to_string() data-nodes=last_nodes.to_string()>
                {shaded}
                <rect x="0" y=STRIP_TOP width=WIDTH height=STRIP_H class="as-strip"/>
                <line x1="0" x2=WIDTH y1=ny(max_nodes) y2=ny(max_nodes) class="as-node-limit" data-limit="max_nodes">
                    <title>{format!("maximum {max_nodes} nodes")}</title>
                </line>
                <line x1="0" x2=WIDTH y1=ny(min_nodes) y2=ny(min_nodes) class="as-node-limit as-min" data-limit="min_nodes">
                    <title>{format!("minimum {min_nodes} nodes")}</title>
                </line>
                {breach_bars}
                {lines}
                <path d=node_path class="as-nodes" data-series="nodes"/>
                {marks}
            </svg>
            </ChartFrame>
            <div class="legend">
                {legend_series}
                <span><i class="as-nodes"></i>{format!("nodes in service (strip, 0–{node_top}; limits {min_nodes}–{max_nodes} dashed)")}</span>
                <span><i class="as-scale_out"></i>{format!("scale-out ({scale_outs})")}</span>
                <span><i class="as-scale_in"></i>{format!("scale-in ({scale_ins})")}</span>
                <span><i class="as-above"></i>"above max"</span>
                <span><i class="as-below"></i>"all below min"</span>
                <span><i class="as-cooldown"></i>"cooldown"</span>
                <span><i class="as-draining"></i>"drain"</span>
                {dns.then(|| view! { <span><i class="as-ttl_wait"></i>"DNS TTL"</span> })}
            </div>
        </div>
    }
    .erase()
}
