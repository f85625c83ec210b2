//! The decision core shared by the engine and the what-if: compiled limits, the metric model,
//! a cluster's decision state (nodes in service, phase, breach streak) and one minute's step
//! (SPEC §4). Pure and allocation-free; the engine wraps it with nodes, IP addresses and
//! events, the what-if replays it over recorded demand.

use serde::{Deserialize, Serialize};

use super::config::{GroupParams, Metric};

/// A threshold parameter, compiled.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Threshold {
    pub(crate) metric: Metric,
    pub(crate) min: f64,
    pub(crate) max: f64,
}

/// The parameters of a group in the form the step uses.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Limits {
    pub(crate) min_nodes: u32,
    pub(crate) max_nodes: u32,
    pub(crate) watch: u32,
    pub(crate) cooldown: u64,
    pub(crate) drain: u64,
    /// Minutes of TTL wait after a drain: `ceil(ttl_s / 60)` in DNS mode, 0 in NLB mode.
    pub(crate) ttl_wait: u64,
    thresholds: [Threshold; 3],
    count: usize,
}

/// Minutes a DNS TTL of `ttl_s` seconds keeps the evaluation waiting (whole minutes, rounded
/// up: the statistics are collected once a minute).
pub(crate) fn ttl_minutes(ttl_s: u32) -> u64 {
    u64::from(ttl_s).div_ceil(60)
}

impl Limits {
    /// Compiles `p` for a group in DNS (`dns`) or NLB mode. At most three thresholds (one per
    /// metric, as validated) are kept.
    pub(crate) fn new(p: &GroupParams, dns: bool) -> Limits {
        let empty = Threshold {
            metric: Metric::Cpu,
            min: 0.0,
            max: 0.0,
        };
        let mut thresholds = [empty; 3];
        let mut count = 0;
        for (slot, t) in thresholds.iter_mut().zip(&p.thresholds) {
            *slot = Threshold {
                metric: t.parameter,
                min: t.min,
                max: t.max,
            };
            count += 1;
        }
        Limits {
            min_nodes: p.min_nodes,
            max_nodes: p.max_nodes,
            watch: p.watch_time_min,
            cooldown: u64::from(p.cooldown_min),
            drain: u64::from(p.drain_timeout_min),
            ttl_wait: if dns { ttl_minutes(p.ttl_s) } else { 0 },
            thresholds,
            count,
        }
    }

    /// The thresholds, in the group's order.
    pub(crate) fn thresholds(&self) -> &[Threshold] {
        &self.thresholds[..self.count]
    }
}

/// How demand becomes statistics (docs/AUTOSCALE.md, "Metrics").
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct MetricModel {
    /// The demand's reference: the group's `min_nodes` as configured in the scenario.
    pub(crate) base_nodes: f64,
    /// Throughput of one node at 100 % utilisation (Mbps).
    pub(crate) node_mbps: f64,
}

impl MetricModel {
    /// Utilisation of each node in service, percent, capped at 100.
    pub(crate) fn utilisation(&self, demand: f64, in_service: u32) -> f64 {
        let n = f64::from(in_service.max(1));
        (demand * self.base_nodes / n).clamp(0.0, 100.0)
    }

    /// The value of `metric` at utilisation `util`.
    pub(crate) fn value(&self, metric: Metric, util: f64) -> f64 {
        match metric {
            Metric::Cpu | Metric::Memory => util,
            Metric::Throughput => util * self.node_mbps / 100.0,
        }
    }

    /// The statistics of a cluster with `in_service` nodes offered `demand`, in the order of
    /// `thresholds` (all 0 when the application is not deployed: no traffic reaches it).
    pub(crate) fn values(
        &self,
        demand: f64,
        in_service: u32,
        deployed: bool,
        thresholds: &[Threshold],
    ) -> [f64; 3] {
        let mut out = [0.0; 3];
        if deployed {
            let util = self.utilisation(demand, in_service);
            for (v, t) in out.iter_mut().zip(thresholds) {
                *v = self.value(t.metric, util);
            }
        }
        out
    }
}

/// Where a cluster is between two evaluations. Every `until`/`at` is a minute number.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Phase {
    /// Statistics are compared with the limits.
    Evaluating,
    /// After a scale-out: minutes up to `until` are skipped.
    Cooldown { until: u64 },
    /// After a scale-in: connections drain up to `until`; then `ttl` minutes of TTL wait.
    Draining { until: u64, ttl: u64 },
    /// DNS mode, after the drain: resolvers may hold the removed IPs up to `until`.
    TtlWait { until: u64 },
    /// The removed nodes are detached, deprovisioned and deregistered at minute `at`: the
    /// evaluation waits for it and starts again the minute after.
    Deprovisioning { at: u64 },
}

/// Why an evaluation was skipped.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Skip {
    Cooldown,
    Drain,
    Ttl,
    InProgress,
}

impl Skip {
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            Skip::Cooldown => "cooldown",
            Skip::Drain => "drain",
            Skip::Ttl => "ttl",
            Skip::InProgress => "in_progress",
        }
    }
}

/// Scale-out or scale-in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Direction {
    Out,
    In,
}

impl Direction {
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            Direction::Out => "scale_out",
            Direction::In => "scale_in",
        }
    }
}

/// What made a decision due.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Trigger {
    /// The thresholds (and the watch time).
    Threshold,
    /// Fewer nodes in service than `min_nodes` (raised by a settings change).
    MinNodes,
    /// More nodes in service than `max_nodes` (lowered by a settings change).
    MaxNodes,
}

impl Trigger {
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            Trigger::Threshold => "threshold",
            Trigger::MinNodes => "min_nodes",
            Trigger::MaxNodes => "max_nodes",
        }
    }
}

/// One minute's outcome (the compact form of [`MinuteOutcome`](super::views::MinuteOutcome)).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    Inside,
    AboveMax(u32),
    BelowMin(u32),
    ScaleOut(u32),
    ScaleIn(u32),
    AtLimit(Direction),
    Skipped(Skip),
    Idle,
}

/// What one step did, for the engine's lifecycle and events.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct StepResult {
    pub(crate) outcome: Outcome,
    pub(crate) trigger: Trigger,
    /// The streak that made the decision due (minutes).
    pub(crate) streak: u32,
    /// The drain ended this minute and the TTL wait began (DNS mode).
    pub(crate) ttl_started: bool,
    /// The nodes removed by the last scale-in were deprovisioned this minute.
    pub(crate) deprovisioned: bool,
    /// Nodes in service when the statistics were collected.
    pub(crate) n_eval: u32,
    /// The statistics, in threshold order.
    pub(crate) values: [f64; 3],
}

/// A cluster's decision state.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Core {
    pub(crate) in_service: u32,
    pub(crate) phase: Phase,
    /// Consecutive evaluated minutes with some parameter above its maximum (> 0), or with
    /// every parameter below its minimum (< 0).
    pub(crate) streak: i32,
}

impl Core {
    /// A cluster of `nodes` nodes, evaluating.
    pub(crate) fn new(nodes: u32) -> Core {
        Core {
            in_service: nodes,
            phase: Phase::Evaluating,
            streak: 0,
        }
    }

    /// The phase transitions due at minute `m` (before its evaluation): whether the TTL wait
    /// began and whether the removed nodes were deprovisioned.
    fn transitions(&mut self, m: u64) -> (bool, bool) {
        let (mut ttl_started, mut deprovisioned) = (false, false);
        loop {
            self.phase = match self.phase {
                Phase::Cooldown { until } if m > until => Phase::Evaluating,
                Phase::Draining { until, ttl } if m > until => {
                    if ttl > 0 {
                        ttl_started = true;
                        Phase::TtlWait {
                            until: m.saturating_add(ttl - 1),
                        }
                    } else {
                        deprovisioned = true;
                        Phase::Deprovisioning { at: m }
                    }
                }
                Phase::TtlWait { until } if m > until => {
                    deprovisioned = true;
                    Phase::Deprovisioning { at: m }
                }
                Phase::Deprovisioning { at } if m > at => Phase::Evaluating,
                _ => return (ttl_started, deprovisioned),
            };
        }
    }

    /// Minute `m` (T1 = 1): phase transitions, statistics of `demand`, then the evaluation
    /// (SPEC §4): skipped outside [`Phase::Evaluating`]; node bounds first; scale out when
    /// any parameter has been above its maximum for the watch time, scale in when every one
    /// has been below its minimum for the watch time, one node at a time; a due decision at
    /// the node limit is `AtLimit`. Streaks reset on a minute inside the limits, on a skipped
    /// minute and after a decision.
    pub(crate) fn step(
        &mut self,
        m: u64,
        demand: f64,
        deployed: bool,
        lim: &Limits,
        model: &MetricModel,
    ) -> StepResult {
        let (ttl_started, deprovisioned) = self.transitions(m);
        let n_eval = self.in_service;
        let values = model.values(demand, n_eval, deployed, lim.thresholds());
        let (outcome, trigger, streak) = self.evaluate(m, &values, deployed, lim);
        StepResult {
            outcome,
            trigger,
            streak,
            ttl_started,
            deprovisioned,
            n_eval,
            values,
        }
    }

    /// The evaluation of minute `m` with statistics `values`: (outcome, trigger, the streak
    /// that made a decision due).
    fn evaluate(
        &mut self,
        m: u64,
        values: &[f64; 3],
        deployed: bool,
        lim: &Limits,
    ) -> (Outcome, Trigger, u32) {
        if !deployed {
            self.streak = 0;
            return (Outcome::Idle, Trigger::Threshold, 0);
        }
        let skip = match self.phase {
            Phase::Evaluating => None,
            Phase::Cooldown { .. } => Some(Skip::Cooldown),
            Phase::Draining { .. } => Some(Skip::Drain),
            Phase::TtlWait { .. } => Some(Skip::Ttl),
            Phase::Deprovisioning { .. } => Some(Skip::InProgress),
        };
        if let Some(s) = skip {
            self.streak = 0;
            return (Outcome::Skipped(s), Trigger::Threshold, 0);
        }
        if self.in_service < lim.min_nodes {
            let k = lim.min_nodes - self.in_service;
            return (self.scale_out(m, k, lim), Trigger::MinNodes, 0);
        }
        if self.in_service > lim.max_nodes {
            let k = self.in_service - lim.max_nodes;
            return (self.scale_in(m, k, lim), Trigger::MaxNodes, 0);
        }
        let thresholds = lim.thresholds();
        let above = values.iter().zip(thresholds).any(|(v, t)| *v > t.max);
        let below =
            !thresholds.is_empty() && values.iter().zip(thresholds).all(|(v, t)| *v < t.min);
        if above {
            self.streak = self.streak.max(0).saturating_add(1);
            let streak = self.streak.unsigned_abs();
            if streak < lim.watch {
                return (Outcome::AboveMax(streak), Trigger::Threshold, 0);
            }
            let outcome = if self.in_service < lim.max_nodes {
                self.scale_out(m, 1, lim)
            } else {
                self.streak = 0;
                Outcome::AtLimit(Direction::Out)
            };
            (outcome, Trigger::Threshold, streak)
        } else if below {
            self.streak = self.streak.min(0).saturating_sub(1);
            let streak = self.streak.unsigned_abs();
            if streak < lim.watch {
                return (Outcome::BelowMin(streak), Trigger::Threshold, 0);
            }
            let outcome = if self.in_service > lim.min_nodes {
                self.scale_in(m, 1, lim)
            } else {
                self.streak = 0;
                Outcome::AtLimit(Direction::In)
            };
            (outcome, Trigger::Threshold, streak)
        } else {
            self.streak = 0;
            (Outcome::Inside, Trigger::Threshold, 0)
        }
    }

    fn scale_out(&mut self, m: u64, k: u32, lim: &Limits) -> Outcome {
        self.in_service += k;
        self.streak = 0;
        self.phase = Phase::Cooldown {
            until: m.saturating_add(lim.cooldown),
        };
        Outcome::ScaleOut(k)
    }

    fn scale_in(&mut self, m: u64, k: u32, lim: &Limits) -> Outcome {
        self.in_service -= k;
        self.streak = 0;
        self.phase = Phase::Draining {
            until: m.saturating_add(lim.drain),
            ttl: lim.ttl_wait,
        };
        Outcome::ScaleIn(k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::autoscale::config::ThresholdConfig;

    fn seed_limits(dns: bool) -> Limits {
        Limits::new(&GroupParams::seed_example(), dns)
    }

    const MODEL: MetricModel = MetricModel {
        base_nodes: 1.0,
        node_mbps: 500.0,
    };

    #[test]
    fn ttl_rounds_up_to_whole_minutes() {
        assert_eq!(ttl_minutes(0), 0);
        assert_eq!(ttl_minutes(1), 1);
        assert_eq!(ttl_minutes(60), 1);
        assert_eq!(ttl_minutes(61), 2);
        assert_eq!(seed_limits(false).ttl_wait, 0);
        assert_eq!(seed_limits(true).ttl_wait, 1);
    }

    #[test]
    fn scaling_out_lowers_the_metrics() {
        let m = MetricModel {
            base_nodes: 2.0,
            node_mbps: 500.0,
        };
        assert_eq!(m.utilisation(60.0, 2), 60.0);
        assert_eq!(m.utilisation(60.0, 3), 40.0);
        assert_eq!(m.utilisation(300.0, 2), 100.0);
        assert_eq!(m.value(Metric::Throughput, 40.0), 200.0);
        assert_eq!(m.value(Metric::Memory, 40.0), 40.0);
    }

    #[test]
    fn the_seed_example_step_by_step() {
        // (minute, demand, expected outcome)
        let mut demand = vec![90.0, 90.0, 70.0, 90.0, 90.0, 90.0];
        demand.extend([90.0; 11]);
        demand.extend([60.0; 20]);
        for dns in [true, false] {
            let lim = seed_limits(dns);
            let mut core = Core::new(1);
            let outcomes: Vec<Outcome> = (1..=33u64)
                .map(|m| {
                    core.step(m, demand[m as usize - 1], true, &lim, &MODEL)
                        .outcome
                })
                .collect();
            assert_eq!(outcomes[0], Outcome::AboveMax(1));
            assert_eq!(outcomes[1], Outcome::AboveMax(2));
            assert_eq!(outcomes[2], Outcome::Inside);
            assert_eq!(outcomes[5], Outcome::ScaleOut(1));
            assert!(outcomes[6..16]
                .iter()
                .all(|o| *o == Outcome::Skipped(Skip::Cooldown)));
            assert_eq!(outcomes[16], Outcome::Inside);
            assert_eq!(outcomes[19], Outcome::ScaleIn(1));
            assert!(outcomes[20..30]
                .iter()
                .all(|o| *o == Outcome::Skipped(Skip::Drain)));
            if dns {
                assert_eq!(outcomes[30], Outcome::Skipped(Skip::Ttl));
                assert_eq!(outcomes[31], Outcome::Skipped(Skip::InProgress));
                assert_eq!(outcomes[32], Outcome::Inside);
            } else {
                assert_eq!(outcomes[30], Outcome::Skipped(Skip::InProgress));
                assert_eq!(outcomes[31], Outcome::Inside);
            }
        }
    }

    #[test]
    fn a_due_decision_at_the_limit_resets_the_streak() {
        let lim = seed_limits(false);
        let mut core = Core::new(1);
        let got: Vec<Outcome> = (1..=4)
            .map(|m| core.step(m, 10.0, true, &lim, &MODEL).outcome)
            .collect();
        assert_eq!(
            got,
            vec![
                Outcome::BelowMin(1),
                Outcome::BelowMin(2),
                Outcome::AtLimit(Direction::In),
                Outcome::BelowMin(1)
            ]
        );
    }

    #[test]
    fn bounds_are_restored_first() {
        let mut lim = seed_limits(false);
        lim.min_nodes = 3;
        let mut core = Core::new(1);
        let r = core.step(1, 50.0, true, &lim, &MODEL);
        assert_eq!(
            (r.outcome, r.trigger),
            (Outcome::ScaleOut(2), Trigger::MinNodes)
        );
        assert_eq!(core.in_service, 3);
        lim.min_nodes = 1;
        lim.max_nodes = 1;
        let mut core = Core::new(3);
        let r = core.step(1, 50.0, true, &lim, &MODEL);
        assert_eq!(
            (r.outcome, r.trigger),
            (Outcome::ScaleIn(2), Trigger::MaxNodes)
        );
    }

    /// Limits with the given thresholds (min 1, max 3 nodes, watch 2, cooldown 2, drain 2,
    /// DNS TTL 90 s: a TTL wait of 2 minutes).
    fn limits(thresholds: Vec<ThresholdConfig>, dns: bool) -> Limits {
        Limits::new(
            &GroupParams {
                min_nodes: 1,
                max_nodes: 3,
                watch_time_min: 2,
                cooldown_min: 2,
                drain_timeout_min: 2,
                ttl_s: 90,
                thresholds,
            },
            dns,
        )
    }

    fn thr(parameter: Metric, min: f64, max: f64) -> ThresholdConfig {
        ThresholdConfig {
            parameter,
            min,
            max,
        }
    }

    /// The outcome of one evaluated minute of a fresh core of `nodes` nodes.
    fn first_minute(nodes: u32, demand: f64, lim: &Limits) -> Outcome {
        Core::new(nodes).step(1, demand, true, lim, &MODEL).outcome
    }

    #[test]
    fn a_parameter_exactly_at_a_limit_is_inside() {
        // Memory 40/85; base 1 node: the utilisation of n nodes is demand / n.
        let lim = seed_limits(false);
        let cases = [
            (
                "exactly at the maximum: not above",
                1,
                85.0,
                Outcome::Inside,
            ),
            ("just above the maximum", 1, 85.5, Outcome::AboveMax(1)),
            (
                "exactly at the minimum: not below",
                2,
                80.0,
                Outcome::Inside,
            ),
            ("just below the minimum", 2, 79.0, Outcome::BelowMin(1)),
            ("between the limits", 1, 60.0, Outcome::Inside),
        ];
        for (name, nodes, demand, want) in cases {
            assert_eq!(first_minute(nodes, demand, &lim), want, "{name}");
        }
        // Held for the watch time at exactly a limit: never a decision.
        for (nodes, demand) in [(1, 85.0), (2, 80.0)] {
            let mut core = Core::new(nodes);
            for m in 1..=10 {
                let r = core.step(m, demand, true, &lim, &MODEL);
                assert_eq!(r.outcome, Outcome::Inside, "minute {m}, {nodes} nodes");
            }
            assert_eq!(core.in_service, nodes);
        }
    }

    #[test]
    fn any_parameter_above_scales_out_every_one_below_scales_in() {
        // cpu 40/85 and throughput 100/400 Mbps (500 Mbps a node at 100 %: 20 % .. 80 %).
        let lim = limits(
            vec![
                thr(Metric::Cpu, 40.0, 85.0),
                thr(Metric::Throughput, 100.0, 400.0),
            ],
            false,
        );
        let cases = [
            (
                "only throughput above (82 % = 410 Mbps)",
                1,
                82.0,
                Outcome::AboveMax(1),
            ),
            ("both above", 1, 90.0, Outcome::AboveMax(1)),
            (
                "cpu below, throughput inside (30 % = 150 Mbps)",
                1,
                30.0,
                Outcome::Inside,
            ),
            ("both below (10 % = 50 Mbps)", 2, 20.0, Outcome::BelowMin(1)),
            (
                "throughput exactly at its minimum (20 %)",
                1,
                20.0,
                Outcome::Inside,
            ),
            (
                "throughput exactly at its maximum (80 %)",
                1,
                80.0,
                Outcome::Inside,
            ),
        ];
        for (name, nodes, demand, want) in cases {
            assert_eq!(first_minute(nodes, demand, &lim), want, "{name}");
        }
        // The statistics, in threshold order.
        let r = Core::new(2).step(1, 50.0, true, &lim, &MODEL);
        assert_eq!(r.values, [25.0, 125.0, 0.0]);
        assert_eq!(r.n_eval, 2);
    }

    #[test]
    fn the_condition_counts_not_the_parameter() {
        // cpu above at minute 1, throughput above at minute 2 (and cpu inside): a streak of
        // 2, the watch time: scale-out.
        let lim = limits(
            vec![
                thr(Metric::Cpu, 10.0, 85.0),
                thr(Metric::Throughput, 10.0, 400.0),
            ],
            false,
        );
        let mut core = Core::new(1);
        let a = core.step(1, 90.0, true, &lim, &MODEL);
        assert_eq!(a.outcome, Outcome::AboveMax(1));
        let b = core.step(2, 84.0, true, &lim, &MODEL);
        assert_eq!((b.outcome, b.streak), (Outcome::ScaleOut(1), 2));
    }

    #[test]
    fn a_due_scale_out_at_max_nodes_is_at_limit_and_the_streak_restarts() {
        let lim = limits(vec![thr(Metric::Cpu, 40.0, 85.0)], false);
        let mut core = Core::new(3);
        let got: Vec<(Outcome, u32)> = (1..=5)
            .map(|m| {
                let r = core.step(m, 300.0, true, &lim, &MODEL);
                (r.outcome, r.streak)
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (Outcome::AboveMax(1), 0),
                (Outcome::AtLimit(Direction::Out), 2),
                (Outcome::AboveMax(1), 0),
                (Outcome::AtLimit(Direction::Out), 2),
                (Outcome::AboveMax(1), 0),
            ]
        );
        assert_eq!((core.in_service, core.phase), (3, Phase::Evaluating));
        // One node below the maximum: it scales out to the maximum, no further.
        let mut core = Core::new(2);
        core.step(1, 300.0, true, &lim, &MODEL);
        let r = core.step(2, 300.0, true, &lim, &MODEL);
        assert_eq!(
            (r.outcome, r.trigger),
            (Outcome::ScaleOut(1), Trigger::Threshold)
        );
        assert_eq!(core.in_service, 3);
        assert_eq!(core.phase, Phase::Cooldown { until: 4 });
    }

    #[test]
    fn a_scale_in_goes_down_to_min_nodes_and_no_further() {
        let lim = limits(vec![thr(Metric::Cpu, 40.0, 85.0)], false);
        let mut core = Core::new(2);
        assert_eq!(
            core.step(1, 10.0, true, &lim, &MODEL).outcome,
            Outcome::BelowMin(1)
        );
        let r = core.step(2, 10.0, true, &lim, &MODEL);
        assert_eq!((r.outcome, r.streak), (Outcome::ScaleIn(1), 2));
        assert_eq!(core.in_service, 1);
        assert_eq!(core.phase, Phase::Draining { until: 4, ttl: 0 });
        // Drain 3..=4, deprovisioning at 5, evaluating from 6: at min_nodes now.
        for m in 3..=5 {
            core.step(m, 10.0, true, &lim, &MODEL);
        }
        assert_eq!(
            core.step(6, 10.0, true, &lim, &MODEL).outcome,
            Outcome::BelowMin(1)
        );
        let r = core.step(7, 10.0, true, &lim, &MODEL);
        assert_eq!((r.outcome, r.streak), (Outcome::AtLimit(Direction::In), 2));
        assert_eq!(core.in_service, 1);
    }

    #[test]
    fn phases_report_the_ttl_wait_and_the_deprovisioning_minute() {
        // DNS, TTL 90 s = 2 minutes. Scale-in at 2; drain 3..=4; TTL wait 5..=6;
        // deprovisioning at 7; evaluating at 8.
        let lim = limits(vec![thr(Metric::Cpu, 40.0, 85.0)], true);
        assert_eq!(lim.ttl_wait, 2);
        let mut core = Core::new(2);
        let got: Vec<(u64, Outcome, bool, bool)> = (1..=8)
            .map(|m| {
                let r = core.step(m, 10.0, true, &lim, &MODEL);
                (m, r.outcome, r.ttl_started, r.deprovisioned)
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (1, Outcome::BelowMin(1), false, false),
                (2, Outcome::ScaleIn(1), false, false),
                (3, Outcome::Skipped(Skip::Drain), false, false),
                (4, Outcome::Skipped(Skip::Drain), false, false),
                (5, Outcome::Skipped(Skip::Ttl), true, false),
                (6, Outcome::Skipped(Skip::Ttl), false, false),
                (7, Outcome::Skipped(Skip::InProgress), false, true),
                (8, Outcome::BelowMin(1), false, false),
            ]
        );
        // NLB: no TTL wait; deprovisioning right after the drain.
        let lim = limits(vec![thr(Metric::Cpu, 40.0, 85.0)], false);
        let mut core = Core::new(2);
        let flags: Vec<(bool, bool)> = (1..=6)
            .map(|m| {
                let r = core.step(m, 10.0, true, &lim, &MODEL);
                (r.ttl_started, r.deprovisioned)
            })
            .collect();
        assert_eq!(flags[4], (false, true), "deprovisioned at 5");
        assert!(flags.iter().filter(|f| f.0 || f.1).count() == 1);
    }

    #[test]
    fn a_cooldown_skips_its_minutes_then_evaluates_again() {
        let lim = limits(vec![thr(Metric::Cpu, 40.0, 85.0)], false);
        let mut core = Core::new(1);
        let got: Vec<Outcome> = (1..=6)
            .map(|m| core.step(m, 95.0, true, &lim, &MODEL).outcome)
            .collect();
        // 95 % on 1 node, 47.5 % on 2 after the scale-out at 2.
        assert_eq!(
            got,
            vec![
                Outcome::AboveMax(1),
                Outcome::ScaleOut(1),
                Outcome::Skipped(Skip::Cooldown),
                Outcome::Skipped(Skip::Cooldown),
                Outcome::Inside,
                Outcome::Inside,
            ]
        );
        assert_eq!(core.in_service, 2);
    }

    #[test]
    fn a_skipped_minute_resets_the_streak() {
        // Above at 1 (streak 1); 2..=4 skipped by a cooldown set from outside; the streak
        // starts again at 5.
        let lim = seed_limits(false);
        let mut core = Core::new(1);
        core.step(1, 90.0, true, &lim, &MODEL);
        core.phase = Phase::Cooldown { until: 4 };
        for m in 2..=4 {
            core.step(m, 90.0, true, &lim, &MODEL);
        }
        assert_eq!(core.streak, 0);
        assert_eq!(
            core.step(5, 90.0, true, &lim, &MODEL).outcome,
            Outcome::AboveMax(1)
        );
        // Not deployed resets it too.
        core.step(6, 90.0, false, &lim, &MODEL);
        assert_eq!(
            core.step(7, 90.0, true, &lim, &MODEL).outcome,
            Outcome::AboveMax(1)
        );
    }

    #[test]
    fn names_of_skips_directions_and_triggers() {
        let skips = [Skip::Cooldown, Skip::Drain, Skip::Ttl, Skip::InProgress].map(Skip::as_str);
        assert_eq!(skips, ["cooldown", "drain", "ttl", "in_progress"]);
        assert_eq!(
            [Direction::Out, Direction::In].map(Direction::as_str),
            ["scale_out", "scale_in"]
        );
        assert_eq!(
            [Trigger::Threshold, Trigger::MinNodes, Trigger::MaxNodes].map(Trigger::as_str),
            ["threshold", "min_nodes", "max_nodes"]
        );
    }

    #[test]
    fn not_deployed_is_idle_with_zero_metrics() {
        let lim = seed_limits(true);
        let mut core = Core::new(1);
        let r = core.step(1, 95.0, false, &lim, &MODEL);
        assert_eq!(r.outcome, Outcome::Idle);
        assert_eq!(r.values, [0.0; 3]);
    }
}
