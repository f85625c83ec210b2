//! Evaluators compiled for speed, rule loads and the load-index formula (SPEC §2 *Load
//! index*). Pure functions: the engine feeds them a server's inputs.

use core::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::config::rules::Rule;
use super::config::{LoadFormula, ThrottleTable};

/// Full load.
pub const FULL: f64 = 10_000.0;

/// The order of rule codes in the product's `RuleLoads` string (assumed: it reproduces both
/// seed strings, `1:3e;d:0;6:6;3:24;` and `d:0;b:3;`).
pub const RULE_LOADS_ORDER: [char; 12] =
    ['1', '2', 'd', '6', '3', '4', '5', '7', '8', '9', 'b', 'o'];

/// Index of a performance counter in [`Inputs::counters`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Counter {
    Cpu = 0,
    Memory = 1,
    PageSwaps = 2,
    PageFaults = 3,
    ContextSwitches = 4,
    DiskDataIo = 5,
    DiskOperations = 6,
}

/// One rule, ready to evaluate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) enum Compiled {
    /// `o`: sessions of the application (index) over `users`.
    App { app: u16, users: f64 },
    /// `b`: sessions over `users`.
    Server { users: f64 },
    /// `d`: per-logon load of the level.
    Throttle { per_logon: f64 },
    /// Counter rules.
    Counter {
        counter: Counter,
        low: f64,
        high: f64,
    },
    /// `5`: windows as `[start, end)` minutes of the week (Monday 00:00 = 0).
    Schedule { windows: Vec<(u32, u32)> },
    /// `9`: load 0; the ranges filter placement.
    Ip,
}

/// An evaluator: its rules as configured and compiled.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Evaluator {
    pub name: String,
    pub rules: Vec<Rule>,
    pub compiled: Vec<Compiled>,
    /// IP ranges (`start..=end` as u32), when the evaluator has an IP range rule.
    pub ip_ranges: Option<Vec<(u32, u32)>>,
    /// Per-logon throttling load, 0 without a throttling rule.
    pub lt_load: u32,
}

/// What a rule load depends on.
#[derive(Clone, Debug)]
pub(crate) struct Inputs<'a> {
    /// Counters in [`Counter`] order.
    pub counters: [f64; 7],
    /// Sessions (connected + disconnected).
    pub sessions: u32,
    /// Sessions per application index on the server.
    pub app_sessions: &'a [(u16, u32)],
    /// Σ over logons in progress of their remaining fraction.
    pub logon_units: f64,
    /// Minutes since Monday 00:00.
    pub minute_of_week: u32,
}

impl Evaluator {
    /// Compiles `rules`; `app_index` maps application names to indexes.
    pub fn compile(
        name: &str,
        rules: &[Rule],
        throttle: &ThrottleTable,
        app_index: impl Fn(&str) -> Option<usize>,
    ) -> Evaluator {
        let mut ip_ranges = None;
        let mut lt_load = 0;
        let compiled = rules
            .iter()
            .map(|r| match r {
                Rule::ApplicationUserLoad { app, users } => Compiled::App {
                    app: app_index(app)
                        .and_then(|i| u16::try_from(i).ok())
                        .unwrap_or(u16::MAX),
                    users: f64::from((*users).max(1)),
                },
                Rule::ServerUserLoad { users } => Compiled::Server {
                    users: f64::from((*users).max(1)),
                },
                Rule::LoadThrottling { level } => {
                    lt_load = throttle.load(*level);
                    Compiled::Throttle {
                        per_logon: f64::from(lt_load),
                    }
                }
                Rule::CpuUtilization(t) => counter(Counter::Cpu, t.low, t.high),
                Rule::MemoryUsage(t) => counter(Counter::Memory, t.low, t.high),
                Rule::PageSwaps(t) => counter(Counter::PageSwaps, t.low, t.high),
                Rule::PageFaults(t) => counter(Counter::PageFaults, t.low, t.high),
                Rule::ContextSwitches(t) => counter(Counter::ContextSwitches, t.low, t.high),
                Rule::DiskDataIo(t) => counter(Counter::DiskDataIo, t.low, t.high),
                Rule::DiskOperations(t) => counter(Counter::DiskOperations, t.low, t.high),
                Rule::Scheduling { windows } => Compiled::Schedule {
                    windows: windows
                        .iter()
                        .map(|w| {
                            let day = w.day as u32 * 1440;
                            (day + u32::from(w.start_min), day + u32::from(w.end_min))
                        })
                        .collect(),
                },
                Rule::IpRange { ranges } => {
                    ip_ranges = Some(
                        ranges
                            .iter()
                            .map(|r| (u32::from(r.start), u32::from(r.end)))
                            .collect(),
                    );
                    Compiled::Ip
                }
            })
            .collect();
        Evaluator {
            name: name.to_owned(),
            rules: rules.to_vec(),
            compiled,
            ip_ranges,
            lt_load,
        }
    }

    /// Whether a client at `ip` passes the evaluator's IP range rule (true without one).
    pub fn admits(&self, ip: u32) -> bool {
        self.ip_ranges
            .as_ref()
            .is_none_or(|rs| rs.iter().any(|(a, b)| *a <= ip && ip <= *b))
    }

    /// Rule loads in rule order, at full precision.
    pub fn rule_loads(&self, inputs: &Inputs<'_>) -> Vec<f64> {
        self.compiled.iter().map(|r| rule_load(r, inputs)).collect()
    }

    /// The load index at full precision (capped, not rounded).
    pub fn index_f64(&self, inputs: &Inputs<'_>, formula: LoadFormula) -> f64 {
        let mut max = 0.0f64;
        let mut sum = 0.0f64;
        let mut n = 0u32;
        for r in &self.compiled {
            if matches!(r, Compiled::Ip) {
                continue;
            }
            let l = rule_load(r, inputs);
            max = max.max(l);
            sum += l;
            n += 1;
        }
        combine(max, sum, n, formula)
    }

    /// The load index, rounded to an integer `0..=10000`.
    pub fn index(&self, inputs: &Inputs<'_>, formula: LoadFormula) -> u32 {
        round_index(self.index_f64(inputs, formula))
    }
}

fn counter(counter: Counter, low: u64, high: u64) -> Compiled {
    Compiled::Counter {
        counter,
        low: low as f64,
        high: high as f64,
    }
}

/// `max + 5% x sum(others)` or `max + 5% x average(others)`, capped at 10000. `n` counts
/// the rule loads (the maximum included) and `sum` is their sum.
pub(crate) fn combine(max: f64, sum: f64, n: u32, formula: LoadFormula) -> f64 {
    let others = (sum - max).max(0.0);
    let extra = match formula {
        LoadFormula::Sum => others,
        LoadFormula::Average if n > 1 => others / f64::from(n - 1),
        LoadFormula::Average => 0.0,
    };
    (max + 0.05 * extra).clamp(0.0, FULL)
}

/// The load index of explicit rule loads (the formula over a list).
pub fn index_of(loads: &[f64], formula: LoadFormula) -> f64 {
    let max = loads.iter().copied().fold(0.0f64, f64::max);
    let sum: f64 = loads.iter().sum();
    combine(
        max,
        sum,
        u32::try_from(loads.len()).unwrap_or(u32::MAX),
        formula,
    )
}

/// Rounds a load index to the nearest integer in `0..=10000`.
pub fn round_index(x: f64) -> u32 {
    if x.is_nan() {
        return 0;
    }
    // In range after the clamp, so the cast is exact.
    x.clamp(0.0, FULL).round() as u32
}

/// A counter mapped linearly between `low` (0) and `high` (10000).
pub fn linear(value: f64, low: f64, high: f64) -> f64 {
    if value <= low {
        0.0
    } else if value >= high {
        FULL
    } else {
        (value - low) / (high - low) * FULL
    }
}

fn rule_load(rule: &Compiled, inputs: &Inputs<'_>) -> f64 {
    match rule {
        Compiled::App { app, users } => {
            let n = inputs
                .app_sessions
                .iter()
                .find(|(a, _)| a == app)
                .map_or(0, |(_, n)| *n);
            (f64::from(n) / users * FULL).min(FULL)
        }
        Compiled::Server { users } => (f64::from(inputs.sessions) / users * FULL).min(FULL),
        // `max(0.0)` first: rounding can leave the decayed sum a hair below zero (and `-0.0`
        // would print as "-0").
        Compiled::Throttle { per_logon } => {
            let units = inputs.logon_units.max(0.0);
            if units == 0.0 {
                0.0
            } else {
                (per_logon * units).min(FULL)
            }
        }
        Compiled::Counter { counter, low, high } => {
            linear(inputs.counters[*counter as usize], *low, *high)
        }
        Compiled::Schedule { windows } => {
            let m = inputs.minute_of_week;
            if windows.iter().any(|(a, b)| *a <= m && m < *b) {
                0.0
            } else {
                FULL
            }
        }
        Compiled::Ip => 0.0,
    }
}

/// The product's `RuleLoads` string: `code:hex(round(load / 100));` in
/// [`RULE_LOADS_ORDER`].
pub fn rule_loads_string(loads: &[(char, f64)]) -> String {
    let mut out = String::new();
    for code in RULE_LOADS_ORDER {
        for (c, l) in loads {
            if *c == code {
                let shown = (l / 100.0).round().clamp(0.0, 100.0) as u32;
                let _ = write!(out, "{code}:{shown:x};");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lms::config::rules::{builtin_rules, Thresholds, ThrottleLevel};

    fn inputs(sessions: u32) -> Inputs<'static> {
        Inputs {
            counters: [0.0; 7],
            sessions,
            app_sessions: &[],
            logon_units: 0.0,
            minute_of_week: 0,
        }
    }

    fn default_evaluator() -> Evaluator {
        let rules = builtin_rules("Default").unwrap_or_default();
        Evaluator::compile("Default", &rules, &ThrottleTable::default(), |_| None)
    }

    #[test]
    fn seed_002_one_session_is_0x64() {
        let e = default_evaluator();
        assert_eq!(e.index(&inputs(1), LoadFormula::Sum), 100);
        assert_eq!(format!("{:x}", e.index(&inputs(1), LoadFormula::Sum)), "64");
        assert_eq!(e.lt_load, 0x1388);
    }

    #[test]
    fn seed_004_three_users() {
        let e = default_evaluator();
        let i = inputs(3);
        assert_eq!(format!("{:x}", e.index(&i, LoadFormula::Sum)), "12c");
        let loads: Vec<(char, f64)> = e
            .rules
            .iter()
            .map(|r| r.code())
            .zip(e.rule_loads(&i))
            .collect();
        assert_eq!(rule_loads_string(&loads), "d:0;b:3;");
    }

    #[test]
    fn seed_004_advanced_worked_example() {
        // Identity maps (low 0, high 100): counter value v gives rule load v x 100.
        let id = Thresholds { low: 0, high: 100 };
        let rules = vec![
            Rule::CpuUtilization(id),
            Rule::MemoryUsage(id),
            Rule::PageSwaps(id),
            Rule::LoadThrottling {
                level: ThrottleLevel::High,
            },
        ];
        let e = Evaluator::compile("A", &rules, &ThrottleTable::default(), |_| None);
        let mut i = inputs(0);
        i.counters[Counter::Cpu as usize] = 62.0;
        i.counters[Counter::PageSwaps as usize] = 6.0;
        i.counters[Counter::Memory as usize] = 36.0;
        assert_eq!(e.index_f64(&i, LoadFormula::Sum), 6410.0);
        let loads: Vec<(char, f64)> = e
            .rules
            .iter()
            .map(|r| r.code())
            .zip(e.rule_loads(&i))
            .collect();
        assert_eq!(rule_loads_string(&loads), "1:3e;d:0;6:6;3:24;");
        // The rounding case: loads that display as 3e, 6, 24 but give 0x192a = 6442.
        i.counters[Counter::Cpu as usize] = 62.3;
        i.counters[Counter::PageSwaps as usize] = 6.4;
        i.counters[Counter::Memory as usize] = 36.0;
        let loads: Vec<(char, f64)> = e
            .rules
            .iter()
            .map(|r| r.code())
            .zip(e.rule_loads(&i))
            .collect();
        assert_eq!(rule_loads_string(&loads), "1:3e;d:0;6:6;3:24;");
        assert_eq!(e.index(&i, LoadFormula::Sum), 0x192a);
        // The average form cannot reach it from those displayed loads.
        assert_eq!(e.index(&i, LoadFormula::Average), 6301);
    }

    #[test]
    fn formulas() {
        let cases: [(&[f64], LoadFormula, f64); 7] = [
            (&[], LoadFormula::Sum, 0.0),
            (&[500.0], LoadFormula::Average, 500.0),
            (&[6200.0, 600.0, 3600.0], LoadFormula::Sum, 6410.0),
            (&[6200.0, 600.0, 3600.0], LoadFormula::Average, 6305.0),
            (&[10000.0, 10000.0], LoadFormula::Sum, 10000.0),
            (&[100.0, 0.0], LoadFormula::Sum, 100.0),
            (&[4000.0, 4000.0, 2000.0], LoadFormula::Average, 4150.0),
        ];
        for (loads, f, want) in cases {
            assert!((index_of(loads, f) - want).abs() < 1e-9, "{loads:?} {f:?}");
        }
        assert_eq!(round_index(100.5), 101);
        assert_eq!(round_index(f64::NAN), 0);
        assert_eq!(round_index(20000.0), 10000);
    }

    #[test]
    fn every_rule_type() {
        use crate::lms::config::rules::{IpRange, ScheduleWindow};
        let t = |low, high| Thresholds { low, high };
        let win = |w: &str| {
            w.parse::<ScheduleWindow>()
                .unwrap_or_else(|e| panic!("{e}"))
        };
        let range = |r: &str| r.parse::<IpRange>().unwrap_or_else(|e| panic!("{e}"));
        let app_sessions = [(1u16, 5u32)];
        let base = Inputs {
            counters: [50.0, 60.0, 30.0, 400.0, 9000.0, 250.0, 75.0],
            sessions: 20,
            app_sessions: &app_sessions,
            logon_units: 1.5,
            // Tuesday 09:00.
            minute_of_week: 1440 + 540,
        };
        let cases: Vec<(Rule, f64)> = vec![
            (
                Rule::ApplicationUserLoad {
                    app: "B".into(),
                    users: 10,
                },
                5000.0,
            ),
            (
                Rule::ApplicationUserLoad {
                    app: "A".into(),
                    users: 10,
                },
                0.0,
            ),
            (Rule::ServerUserLoad { users: 100 }, 2000.0),
            (Rule::ServerUserLoad { users: 10 }, 10000.0),
            (
                Rule::LoadThrottling {
                    level: ThrottleLevel::Medium,
                },
                1875.0,
            ),
            (
                Rule::LoadThrottling {
                    level: ThrottleLevel::Extreme,
                },
                10000.0,
            ),
            (Rule::CpuUtilization(t(10, 90)), 5000.0),
            (Rule::CpuUtilization(t(50, 90)), 0.0),
            (Rule::MemoryUsage(t(0, 60)), 10000.0),
            (Rule::PageSwaps(t(0, 100)), 3000.0),
            (Rule::PageFaults(t(0, 800)), 5000.0),
            (Rule::ContextSwitches(t(1000, 17000)), 5000.0),
            (Rule::DiskDataIo(t(0, 1000)), 2500.0),
            (Rule::DiskOperations(t(50, 100)), 5000.0),
            (
                Rule::Scheduling {
                    windows: vec![win("tue 08:00-18:00")],
                },
                0.0,
            ),
            (
                Rule::Scheduling {
                    windows: vec![win("tue 10:00-18:00"), win("mon 08:00-18:00")],
                },
                10000.0,
            ),
            (
                Rule::IpRange {
                    ranges: vec![range("10.0.0.1-10.0.0.9")],
                },
                0.0,
            ),
        ];
        let apps = |n: &str| match n {
            "A" => Some(0),
            "B" => Some(1),
            _ => None,
        };
        for (rule, want) in cases {
            let e = Evaluator::compile(
                "t",
                std::slice::from_ref(&rule),
                &ThrottleTable::default(),
                apps,
            );
            assert_eq!(e.rule_loads(&base), vec![want], "{rule:?}");
        }
        let ip = Evaluator::compile(
            "ip",
            &[Rule::IpRange {
                ranges: vec![range("10.0.0.1-10.0.0.9")],
            }],
            &ThrottleTable::default(),
            apps,
        );
        let addr = |s: &str| {
            u32::from(
                s.parse::<core::net::Ipv4Addr>()
                    .unwrap_or(core::net::Ipv4Addr::UNSPECIFIED),
            )
        };
        assert!(ip.admits(addr("10.0.0.1")) && ip.admits(addr("10.0.0.9")));
        assert!(!ip.admits(addr("10.0.0.10")) && !ip.admits(addr("9.255.255.255")));
        assert!(default_evaluator().admits(0));
    }

    /// An evaluator with only a Scheduling rule over `windows` (`"mon 08:00-18:00"`, ...).
    fn schedule(windows: &[&str]) -> Evaluator {
        use crate::lms::config::rules::ScheduleWindow;
        let windows = windows
            .iter()
            .map(|w| {
                w.parse::<ScheduleWindow>()
                    .unwrap_or_else(|e| panic!("{e}"))
            })
            .collect();
        let rules = [Rule::Scheduling { windows }];
        Evaluator::compile("s", &rules, &ThrottleTable::default(), |_| None)
    }

    /// Checks the Scheduling rule's load and the index at each `(minute of the week, load)`.
    fn assert_schedule(e: &Evaluator, rows: &[(u32, f64)]) {
        for (minute, want) in rows {
            let i = Inputs {
                minute_of_week: *minute,
                ..inputs(0)
            };
            assert_eq!(e.rule_loads(&i), vec![*want], "minute {minute}");
            assert_eq!(e.index_f64(&i, LoadFormula::Sum), *want, "minute {minute}");
        }
    }

    #[test]
    fn scheduling_window_end_minute_is_exclusive() {
        // `wed 08:00-18:00` is [08:00, 18:00): available from the start minute, full load
        // (10000) again at the end minute.
        let wed = 2 * 1440;
        assert_schedule(
            &schedule(&["wed 08:00-18:00"]),
            &[
                (wed + 479, FULL),
                (wed + 480, 0.0),
                (wed + 1079, 0.0),
                (wed + 1080, FULL),
                (wed + 1081, FULL),
            ],
        );
        // Back-to-back windows leave no gap: the second starts where the first ends.
        assert_schedule(
            &schedule(&["thu 08:00-12:00", "thu 12:00-13:00"]),
            &[
                (3 * 1440 + 719, 0.0),
                (3 * 1440 + 720, 0.0),
                (3 * 1440 + 780, FULL),
            ],
        );
    }

    #[test]
    fn scheduling_monday_window_and_the_week_boundaries() {
        // Minute 0 of the week (t = 0) is Monday 00:00; the week ends on Sunday 23:59.
        let e = schedule(&["mon 00:00-00:30", "sun 23:30-24:00"]);
        let sun = 6 * 1440;
        assert_schedule(
            &e,
            &[
                (0, 0.0),
                (29, 0.0),
                (30, FULL),
                (1440, FULL),
                (sun + 1409, FULL),
                (sun + 1410, 0.0),
                (sun + 1439, 0.0),
            ],
        );
        // A whole Monday: not Sunday before it, not Tuesday after it.
        assert_schedule(
            &schedule(&["mon 00:00-24:00"]),
            &[(0, 0.0), (1439, 0.0), (1440, FULL), (sun + 1439, FULL)],
        );
        // A whole Sunday ends the week; Monday 00:00 is outside it.
        assert_schedule(
            &schedule(&["sun 00:00-24:00"]),
            &[(sun - 1, FULL), (sun, 0.0), (sun + 1439, 0.0), (0, FULL)],
        );
        // Each weekday maps to its own day of the week.
        for (d, day) in ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
            .into_iter()
            .enumerate()
        {
            let e = schedule(&[&format!("{day} 10:00-11:00")]);
            let m = u32::try_from(d).unwrap_or(0) * 1440 + 600;
            let other = (m + 1440) % (7 * 1440);
            assert_schedule(&e, &[(m, 0.0), (other, FULL)]);
        }
    }

    #[test]
    fn linear_edges() {
        let cases = [
            (0.0, 10.0, 90.0, 0.0),
            (10.0, 10.0, 90.0, 0.0),
            (50.0, 10.0, 90.0, 5000.0),
            (90.0, 10.0, 90.0, 10000.0),
            (99.0, 10.0, 90.0, 10000.0),
            (40.0, 0.0, 80.0, 5000.0),
        ];
        for (v, lo, hi, want) in cases {
            assert_eq!(linear(v, lo, hi), want, "{v} in {lo}..{hi}");
        }
    }
}
