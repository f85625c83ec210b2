//! Load-evaluator rules of `[[lms.evaluators.rules]]` (SPEC §2) and the built-in evaluators.

use serde::{Deserialize, Serialize};

pub use super::formats::{FormatError, IpRange, ScheduleWindow, Weekday};
use crate::scenario::check::{fail, in_range, non_empty};
use crate::scenario::error::{ConfigError, FieldPath};

/// Upper bound of the counter rules other than CPU and memory (2^31 - 1).
pub const MAX_COUNTER: u64 = 2_147_483_647;
/// Upper bound of the user-count rules.
pub const MAX_USERS: u32 = 10_000;

/// One rule of a load evaluator; `rule` is the tag. Each yields a rule load in `0..=10000`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "snake_case", deny_unknown_fields)]
pub enum Rule {
    /// `o`: sessions of one published application, full at `users`.
    ApplicationUserLoad {
        /// The application (must exist in `[[lms.applications]]`).
        app: String,
        /// Full at this many users, `1..=10000`.
        users: u32,
    },
    /// `b`: sessions on the server, full at `users` (default 100).
    ServerUserLoad {
        /// Full at this many users, `1..=10000`. Default 100.
        #[serde(default = "default_users")]
        users: u32,
    },
    /// `d`: extra load while many users log on at once.
    LoadThrottling {
        /// Throttling level. Default `high`.
        #[serde(default)]
        level: ThrottleLevel,
    },
    /// `1`: CPU utilization in percent, `0..=100`.
    CpuUtilization(Thresholds),
    /// `2`: context switches per second, `0..=2^31-1`.
    ContextSwitches(Thresholds),
    /// `3`: memory usage in percent, `0..=100`.
    MemoryUsage(Thresholds),
    /// `4`: page faults per second, `0..=2^31-1`.
    PageFaults(Thresholds),
    /// `5`: available only inside the windows; full load (10000) outside them.
    Scheduling {
        /// Windows such as `"mon 08:00-18:00"`.
        windows: Vec<ScheduleWindow>,
    },
    /// `6`: page swaps per second, `0..=2^31-1`.
    PageSwaps(Thresholds),
    /// `7`: disk data I/O in KB/s, `0..=2^31-1`.
    DiskDataIo(Thresholds),
    /// `8`: disk operations per second, `0..=2^31-1`.
    DiskOperations(Thresholds),
    /// `9`: only clients inside one of the ranges may be placed on the server.
    IpRange {
        /// Ranges such as `"10.0.0.1-10.0.0.255"`.
        ranges: Vec<IpRange>,
    },
}

fn default_users() -> u32 {
    100
}

/// The low and high thresholds of a counter rule: at or below `low` the rule load is 0, at or
/// above `high` it is 10000, linear in between. `low < high`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Thresholds {
    /// Counter value of rule load 0.
    pub low: u64,
    /// Counter value of rule load 10000.
    pub high: u64,
}

/// Load-throttling level (the vendor does not publish the numbers).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ThrottleLevel {
    /// Strongest throttling.
    Extreme,
    /// The product's default.
    #[default]
    High,
    /// Between high and medium.
    MediumHigh,
    /// Medium.
    Medium,
    /// Weakest throttling.
    MediumLow,
}

impl Rule {
    /// The rule's code as shown in `RuleLoads` (`o`, `b`, `d`, `1`..`9`).
    pub fn code(&self) -> char {
        match self {
            Rule::ApplicationUserLoad { .. } => 'o',
            Rule::ServerUserLoad { .. } => 'b',
            Rule::LoadThrottling { .. } => 'd',
            Rule::CpuUtilization(_) => '1',
            Rule::ContextSwitches(_) => '2',
            Rule::MemoryUsage(_) => '3',
            Rule::PageFaults(_) => '4',
            Rule::Scheduling { .. } => '5',
            Rule::PageSwaps(_) => '6',
            Rule::DiskDataIo(_) => '7',
            Rule::DiskOperations(_) => '8',
            Rule::IpRange { .. } => '9',
        }
    }

    /// The `rule` tag (`"cpu_utilization"`).
    pub fn name(&self) -> &'static str {
        match self {
            Rule::ApplicationUserLoad { .. } => "application_user_load",
            Rule::ServerUserLoad { .. } => "server_user_load",
            Rule::LoadThrottling { .. } => "load_throttling",
            Rule::CpuUtilization(_) => "cpu_utilization",
            Rule::ContextSwitches(_) => "context_switches",
            Rule::MemoryUsage(_) => "memory_usage",
            Rule::PageFaults(_) => "page_faults",
            Rule::Scheduling { .. } => "scheduling",
            Rule::PageSwaps(_) => "page_swaps",
            Rule::DiskDataIo(_) => "disk_data_io",
            Rule::DiskOperations(_) => "disk_operations",
            Rule::IpRange { .. } => "ip_range",
        }
    }

    /// Checks ranges (`path` is the rule's table). Application references are checked by
    /// the evaluator's owner.
    pub fn validate(&self, path: &FieldPath) -> Result<(), ConfigError> {
        match self {
            Rule::ApplicationUserLoad { app, users } => {
                non_empty(app, path.key("app"))?;
                in_range(*users, 1, MAX_USERS, path.key("users"))
            }
            Rule::ServerUserLoad { users } => in_range(*users, 1, MAX_USERS, path.key("users")),
            Rule::LoadThrottling { .. } => Ok(()),
            Rule::CpuUtilization(t) | Rule::MemoryUsage(t) => t.validate(100, path),
            Rule::ContextSwitches(t)
            | Rule::PageFaults(t)
            | Rule::PageSwaps(t)
            | Rule::DiskDataIo(t)
            | Rule::DiskOperations(t) => t.validate(MAX_COUNTER, path),
            Rule::Scheduling { windows } if windows.is_empty() => fail(
                path.key("windows"),
                "needs at least one window like \"mon 08:00-18:00\"",
            ),
            Rule::IpRange { ranges } if ranges.is_empty() => fail(
                path.key("ranges"),
                "needs at least one range like \"10.0.0.1-10.0.0.255\"",
            ),
            Rule::Scheduling { .. } | Rule::IpRange { .. } => Ok(()),
        }
    }
}

impl Thresholds {
    fn validate(&self, max: u64, path: &FieldPath) -> Result<(), ConfigError> {
        in_range(self.low, 0, max, path.key("low"))?;
        in_range(self.high, 0, max, path.key("high"))?;
        if self.low >= self.high {
            return fail(
                path.key("high"),
                format!("must be greater than low ({}); got {}", self.low, self.high),
            );
        }
        Ok(())
    }
}

/// Name of the built-in evaluator Server User Load (100) + Load Throttling.
pub const DEFAULT_EVALUATOR: &str = "Default";
/// Name of the built-in evaluator CPU + memory + page swaps + Load Throttling.
pub const ADVANCED_EVALUATOR: &str = "Advanced";

/// The rules of a built-in evaluator [product docs], or `None` for another name.
pub fn builtin_rules(name: &str) -> Option<Vec<Rule>> {
    let throttling = Rule::LoadThrottling {
        level: ThrottleLevel::High,
    };
    match name {
        DEFAULT_EVALUATOR => Some(vec![Rule::ServerUserLoad { users: 100 }, throttling]),
        ADVANCED_EVALUATOR => Some(vec![
            Rule::CpuUtilization(Thresholds { low: 10, high: 90 }),
            Rule::MemoryUsage(Thresholds { low: 10, high: 90 }),
            Rule::PageSwaps(Thresholds { low: 0, high: 100 }),
            throttling,
        ]),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_are_valid() {
        for name in [DEFAULT_EVALUATOR, ADVANCED_EVALUATOR] {
            let rules = builtin_rules(name).unwrap_or_default();
            assert!(!rules.is_empty());
            for r in rules {
                assert_eq!(r.validate(&FieldPath::root("x")), Ok(()));
            }
        }
        assert_eq!(builtin_rules("Custom"), None);
    }

    #[test]
    fn counter_ranges() {
        let p = FieldPath::root("r");
        assert!(Rule::CpuUtilization(Thresholds { low: 10, high: 101 })
            .validate(&p)
            .is_err());
        assert!(Rule::DiskOperations(Thresholds {
            low: 0,
            high: MAX_COUNTER
        })
        .validate(&p)
        .is_ok());
        assert_eq!(
            Rule::PageFaults(Thresholds { low: 5, high: 5 })
                .validate(&p)
                .map_err(|e| e.to_string()),
            Err("r.high: must be greater than low (5); got 5".to_owned())
        );
    }
}
