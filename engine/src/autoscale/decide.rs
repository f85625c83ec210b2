//! The decision core shared by the engine and the what-if: compiled limits, the metric model,
//! a cluster's decision state (nodes in service, phase, breach streak) and one minute's step
//! (SPEC §4). Pure and allocation-free; the engine wraps it with nodes, IP addresses and
//! events, the what-if replays it over recorded demand.

use super::config::{GroupParams, Metric};

/// A threshold parameter, compiled.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Threshold {
    pub(crate) metric: Metric,
    pub(crate) min: f64,
    pub(crate) max: f64,
}

/// The parameters of a group in the form the step uses.
#[derive(Copy, Clone, Debug, PartialEq)]
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
#[derive(Copy, Clone, Debug, PartialEq)]
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
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
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
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
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
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
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
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
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
        let p = GroupParams {
            min_nodes: 1,
            max_nodes: 4,
            watch_time_min: 3,
            cooldown_min: 10,
            drain_timeout_min: 10,
            ttl_s: 60,
            thresholds: vec![ThresholdConfig {
                parameter: Metric::Memory,
                min: 40.0,
                max: 85.0,
            }],
        };
        Limits::new(&p, dns)
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

    #[test]
    fn not_deployed_is_idle_with_zero_metrics() {
        let lim = seed_limits(true);
        let mut core = Core::new(1);
        let r = core.step(1, 95.0, false, &lim, &MODEL);
        assert_eq!(r.outcome, Outcome::Idle);
        assert_eq!(r.values, [0.0; 3]);
    }
}
