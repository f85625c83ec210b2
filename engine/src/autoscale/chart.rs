//! A zone's timeline as a chart draws it ([`Timeline`]: metric series bucketed to the chart's
//! width, limits, node steps, state spans, breach streaks and decisions), reduced from the
//! engine's per-minute history ([`MinuteView`]s of [`AutoscaleEngine::timeline`] or of a
//! what-if replay).
//!
//! [`AutoscaleEngine::timeline`]: super::AutoscaleEngine::timeline

use serde::{Deserialize, Serialize};

use super::config::{GroupParams, Metric};
use super::views::{ClusterState, MinuteOutcome, MinuteView};

/// One threshold's metric over a timeline, with its limits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricSeries {
    /// Which metric.
    pub metric: Metric,
    /// Lower limit.
    pub min: f64,
    /// Upper limit.
    pub max: f64,
    /// `(minute, value)`, at most one point per chart bucket (the bucket's highest value).
    pub points: Vec<(u64, f64)>,
}

/// Minutes `[from, to)` a cluster spent in one state (evaluation skipped or waiting).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateSpan {
    /// First minute.
    pub from: u64,
    /// The minute after the last one.
    pub to: u64,
    /// The state.
    pub state: ClusterState,
}

/// Consecutive minutes `[from, to)` of breach: above a maximum, or every metric below its
/// minimum.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BreachSpan {
    /// First minute.
    pub from: u64,
    /// The minute after the last one.
    pub to: u64,
    /// Above a maximum (`true`) or all below their minimum.
    pub above: bool,
}

/// A decision on the timeline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marker {
    /// Minute.
    pub minute: u64,
    /// `scale_out`, `scale_in` or `at_limit`.
    pub kind: String,
    /// Nodes added or removed.
    pub nodes: u32,
}

/// A zone's timeline as a chart draws it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Timeline {
    /// Availability zone.
    pub zone: String,
    /// First minute shown.
    pub from_minute: u64,
    /// Last minute shown.
    pub to_minute: u64,
    /// One series per threshold, in the group's threshold order.
    pub series: Vec<MetricSeries>,
    /// Nodes in service: `(minute, nodes)` at every change (and the first minute).
    pub nodes: Vec<(u64, u32)>,
    /// Fewest nodes allowed.
    pub min_nodes: u32,
    /// Most nodes allowed.
    pub max_nodes: u32,
    /// Cooldown, drain, TTL wait, scaling and idle periods.
    pub spans: Vec<StateSpan>,
    /// Breach streaks.
    pub breaches: Vec<BreachSpan>,
    /// Scale-outs, scale-ins and decisions refused at the node limit.
    pub markers: Vec<Marker>,
    /// Scale-outs in the window.
    pub scale_outs: u32,
    /// Scale-ins in the window.
    pub scale_ins: u32,
}

/// Most points per metric series of a chart (the SVG is 900 units wide).
pub const CHART_POINTS: usize = 900;

impl Timeline {
    /// Reduces `minutes` (oldest first) to a chart of at most [`CHART_POINTS`] points per
    /// series; decisions, spans and node changes are kept exactly.
    pub fn build(zone: &str, minutes: &[MinuteView], params: &GroupParams) -> Timeline {
        let from_minute = minutes.first().map_or(0, |m| m.minute);
        let to_minute = minutes.last().map_or(0, |m| m.minute);
        let bucket = minutes.len().div_ceil(CHART_POINTS).max(1);
        let series = params
            .thresholds
            .iter()
            .enumerate()
            .map(|(i, t)| MetricSeries {
                metric: t.parameter,
                min: t.min,
                max: t.max,
                points: minutes
                    .chunks(bucket)
                    .filter_map(|chunk| {
                        let first = chunk.first()?.minute;
                        chunk
                            .iter()
                            .filter_map(|m| m.metrics.get(i).copied())
                            .filter(|v| v.is_finite())
                            .reduce(f64::max)
                            .map(|v| (first, v))
                    })
                    .collect(),
            })
            .collect();
        let mut nodes: Vec<(u64, u32)> = Vec::new();
        let mut spans: Vec<StateSpan> = Vec::new();
        let mut breaches: Vec<BreachSpan> = Vec::new();
        let mut markers = Vec::new();
        let (mut scale_outs, mut scale_ins) = (0, 0);
        let mut decided_before = false;
        // The direction of the breach in which a refused decision was marked.
        let mut marked_breach: Option<bool> = None;
        for m in minutes {
            if nodes.last().is_none_or(|(_, n)| *n != m.nodes) {
                nodes.push((m.minute, m.nodes));
            }
            if m.state != ClusterState::Evaluating {
                match spans.last_mut() {
                    Some(s) if s.state == m.state && s.to == m.minute => s.to = m.minute + 1,
                    _ => spans.push(StateSpan {
                        from: m.minute,
                        to: m.minute + 1,
                        state: m.state,
                    }),
                }
            }
            // At the node limit the breach goes on: above if any metric is above its maximum.
            let above_any = params
                .thresholds
                .iter()
                .zip(&m.metrics)
                .any(|(t, v)| *v > t.max);
            let breach = match &m.outcome {
                MinuteOutcome::AboveMax { .. } | MinuteOutcome::ScaleOut { .. } => Some(true),
                MinuteOutcome::BelowMin { .. } | MinuteOutcome::ScaleIn { .. } => Some(false),
                MinuteOutcome::AtLimit => Some(above_any),
                _ => None,
            };
            if let Some(above) = breach {
                match breaches.last_mut() {
                    // A decision ends its streak; the next breach starts a new one.
                    Some(b) if b.above == above && b.to == m.minute && !decided_before => {
                        b.to = m.minute + 1
                    }
                    _ => breaches.push(BreachSpan {
                        from: m.minute,
                        to: m.minute + 1,
                        above,
                    }),
                }
            }
            // A refused decision is marked once per breach (the engine restarts the streak
            // and refuses again every watch time while the breach lasts).
            if breach.is_none() || breach != marked_breach {
                marked_breach = None;
            }
            let marker = match &m.outcome {
                MinuteOutcome::ScaleOut { nodes } => {
                    scale_outs += 1;
                    Some(("scale_out", *nodes))
                }
                MinuteOutcome::ScaleIn { nodes } => {
                    scale_ins += 1;
                    Some(("scale_in", *nodes))
                }
                MinuteOutcome::AtLimit if marked_breach.is_none() => {
                    marked_breach = breach;
                    Some(("at_limit", 0))
                }
                _ => None,
            };
            if let Some((kind, n)) = marker {
                markers.push(Marker {
                    minute: m.minute,
                    kind: kind.to_owned(),
                    nodes: n,
                });
            }
            decided_before = matches!(
                m.outcome,
                MinuteOutcome::ScaleOut { .. } | MinuteOutcome::ScaleIn { .. }
            );
        }
        Timeline {
            zone: zone.to_owned(),
            from_minute,
            to_minute,
            series,
            nodes,
            min_nodes: params.min_nodes,
            max_nodes: params.max_nodes,
            spans,
            breaches,
            markers,
            scale_outs,
            scale_ins,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn minute(minute: u64, nodes: u32, outcome: MinuteOutcome, state: ClusterState) -> MinuteView {
        MinuteView {
            minute,
            metrics: vec![minute as f64],
            demand: 50.0,
            nodes,
            outcome,
            state,
        }
    }

    #[test]
    fn a_timeline_keeps_decisions_spans_and_node_changes() {
        use ClusterState as S;
        use MinuteOutcome as O;
        let minutes = vec![
            minute(1, 1, O::AboveMax { streak: 1 }, S::Evaluating),
            minute(2, 1, O::AboveMax { streak: 2 }, S::Evaluating),
            minute(3, 2, O::ScaleOut { nodes: 1 }, S::Cooldown),
            minute(
                4,
                2,
                O::Skipped {
                    reason: "cooldown".into(),
                },
                S::Cooldown,
            ),
            minute(5, 2, O::Inside, S::Evaluating),
            minute(6, 2, O::BelowMin { streak: 1 }, S::Evaluating),
            minute(7, 1, O::ScaleIn { nodes: 1 }, S::Draining),
            minute(8, 1, O::BelowMin { streak: 1 }, S::Evaluating),
            minute(9, 1, O::AtLimit, S::Evaluating),
            minute(10, 1, O::BelowMin { streak: 1 }, S::Evaluating),
            minute(11, 1, O::AtLimit, S::Evaluating),
        ];
        let t = Timeline::build("z", &minutes, &GroupParams::seed_example());
        assert_eq!((t.from_minute, t.to_minute), (1, 11));
        assert_eq!(t.nodes, vec![(1, 1), (3, 2), (7, 1)]);
        assert_eq!((t.scale_outs, t.scale_ins), (1, 1));
        assert_eq!(
            t.spans,
            vec![
                StateSpan {
                    from: 3,
                    to: 5,
                    state: S::Cooldown
                },
                StateSpan {
                    from: 7,
                    to: 8,
                    state: S::Draining
                },
            ]
        );
        assert_eq!(
            t.breaches,
            vec![
                BreachSpan {
                    from: 1,
                    to: 4,
                    above: true
                },
                BreachSpan {
                    from: 6,
                    to: 8,
                    above: false
                },
                // Minutes 9 and 11 at the limit (metrics below the maximum 85): one marker.
                BreachSpan {
                    from: 8,
                    to: 12,
                    above: false
                },
            ]
        );
        assert_eq!(t.series[0].points.len(), 11);
        let kinds: Vec<&str> = t.markers.iter().map(|m| m.kind.as_str()).collect();
        assert_eq!(kinds, ["scale_out", "scale_in", "at_limit"]);
    }

    #[test]
    fn long_timelines_are_bucketed_to_the_chart_width() {
        let minutes: Vec<MinuteView> = (1..=10_080)
            .map(|m| minute(m, 1, MinuteOutcome::Inside, ClusterState::Evaluating))
            .collect();
        let t = Timeline::build("z", &minutes, &GroupParams::seed_example());
        assert!(t.series[0].points.len() <= CHART_POINTS);
        // Each bucket keeps its highest value.
        assert_eq!(t.series[0].points.last().map(|p| p.1), Some(10_080.0));
    }
}
