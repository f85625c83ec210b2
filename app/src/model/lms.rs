//! What the load-management pages receive: the engine's views plus the series read back from
//! the persisted `load.sample` and `session.placed` events, and the evaluator editor's draft.

use engine::lms::config::LoadFormula;
use engine::lms::series::{LoadSample, PlacementRow};
use engine::lms::views::{AuditRow, FarmView, LoadTableRow, ServerView, SessionPage};
use serde::{Deserialize, Serialize};

use super::EventRow;

/// Everything the server detail page shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServerDetail {
    /// The server now.
    pub server: ServerView,
    /// The farm's formula (for the contributions).
    pub formula: LoadFormula,
    /// Its load index under each formula now (the formula audit's row).
    pub indexes: Option<AuditRow>,
    /// Simulated time of this view.
    pub now_ms: u64,
    /// Load samples, oldest first.
    pub samples: Vec<LoadSample>,
    /// Placements that chose or passed over it, newest first.
    pub placements: Vec<PlacementRow>,
    /// Its sessions (first page).
    pub sessions: SessionPage,
    /// Its latest events, newest first.
    pub events: Vec<EventRow>,
}

/// The farm page's header data: the farm and the evaluators (for the assignment lists).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FarmPage {
    /// The farm; each zone's election ranking names its first servers only.
    pub farm: FarmView,
    /// Per zone (in the farm's order), how many servers of its ranking are not named.
    pub ranking_more: Vec<usize>,
    /// Simulated time of this view.
    pub now_ms: u64,
}

/// A page of the servers table and the simulated time it was read at.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServerTable {
    /// The page.
    pub page: engine::lms::views::ServerPage,
    /// Simulated time of this view (for the age of the data collector's values).
    pub now_ms: u64,
}

/// The dynamic store view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DynamicStore {
    /// `LMS_ServerLoadTable`: a page of the rows matching the search.
    pub load_table: Vec<LoadTableRow>,
    /// Rows of the load table matching the search (every page).
    pub load_table_matching: u32,
    /// Connected sessions table (a page).
    pub connected: SessionPage,
    /// Disconnected sessions table (a page).
    pub disconnected: SessionPage,
    /// `qfarm /load` of the load table's page: host and load index (decimal), as the data
    /// collectors hold them.
    pub qfarm: Vec<(String, Option<u32>)>,
    /// Simulated time of this view.
    pub now_ms: u64,
}

/// One rule as typed in the editor: every value is text, checked on the server.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleDraft {
    /// The rule tag (`cpu_utilization`).
    pub rule: String,
    /// Counter rules: low threshold.
    #[serde(default)]
    pub low: String,
    /// Counter rules: high threshold.
    #[serde(default)]
    pub high: String,
    /// User-load rules: full at this many users.
    #[serde(default)]
    pub users: String,
    /// Application user load: the application.
    #[serde(default)]
    pub app: String,
    /// Load throttling: level.
    #[serde(default)]
    pub level: String,
    /// Scheduling: windows, comma- or line-separated.
    #[serde(default)]
    pub windows: String,
    /// IP range: ranges, comma- or line-separated.
    #[serde(default)]
    pub ranges: String,
}

/// The twelve rule tags in the product's order, with their labels.
pub const RULE_KINDS: [(&str, &str); 12] = [
    ("application_user_load", "Application User Load"),
    ("server_user_load", "Server User Load"),
    ("load_throttling", "Load Throttling"),
    ("cpu_utilization", "CPU Utilization (%)"),
    ("context_switches", "Context Switches (/s)"),
    ("memory_usage", "Memory Usage (%)"),
    ("page_faults", "Page Faults (/s)"),
    ("scheduling", "Scheduling"),
    ("page_swaps", "Page Swaps (/s)"),
    ("disk_data_io", "Disk Data I/O (KB/s)"),
    ("disk_operations", "Disk Operations (/s)"),
    ("ip_range", "IP Range"),
];

/// Whether a rule tag takes low / high thresholds.
pub fn is_counter(rule: &str) -> bool {
    matches!(
        rule,
        "cpu_utilization"
            | "context_switches"
            | "memory_usage"
            | "page_faults"
            | "page_swaps"
            | "disk_data_io"
            | "disk_operations"
    )
}

impl RuleDraft {
    /// The draft of an existing rule.
    pub fn from_rule(rule: &engine::lms::config::rules::Rule) -> RuleDraft {
        use engine::lms::config::rules::Rule;
        let mut d = RuleDraft {
            rule: rule.name().to_owned(),
            ..RuleDraft::default()
        };
        match rule {
            Rule::ApplicationUserLoad { app, users } => {
                d.app = app.clone();
                d.users = users.to_string();
            }
            Rule::ServerUserLoad { users } => d.users = users.to_string(),
            Rule::LoadThrottling { level } => {
                d.level = serde_json::to_value(level)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default();
            }
            Rule::CpuUtilization(t)
            | Rule::ContextSwitches(t)
            | Rule::MemoryUsage(t)
            | Rule::PageFaults(t)
            | Rule::PageSwaps(t)
            | Rule::DiskDataIo(t)
            | Rule::DiskOperations(t) => {
                d.low = t.low.to_string();
                d.high = t.high.to_string();
            }
            Rule::Scheduling { windows } => {
                d.windows = windows
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ");
            }
            Rule::IpRange { ranges } => {
                d.ranges = ranges
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ");
            }
        }
        d
    }

    /// Turns the draft into a rule; errors name `rules[i].<field>` and the allowed values.
    /// Ranges (low < high, 0..=100 %, ...) are checked afterwards by the engine.
    pub fn to_rule(
        &self,
        i: usize,
    ) -> Result<engine::lms::config::rules::Rule, crate::error::AppError> {
        use crate::error::AppError;
        use engine::lms::config::rules::{Rule, Thresholds};
        let field = |name: &str| format!("rules[{i}].{name}");
        let number = |name: &str, text: &str, max: u64| -> Result<u64, AppError> {
            text.trim()
                .parse::<u64>()
                .ok()
                .filter(|v| *v <= max)
                .ok_or_else(|| {
                    AppError::invalid(
                        field(name),
                        format!(
                            "must be a whole number between 0 and {max}; got \"{}\"",
                            text.trim()
                        ),
                    )
                })
        };
        let users = || -> Result<u32, AppError> {
            let v = number("users", &self.users, u64::from(u32::MAX))?;
            u32::try_from(v).map_err(|_| AppError::invalid(field("users"), "too large"))
        };
        let thresholds = |max: u64| -> Result<Thresholds, AppError> {
            Ok(Thresholds {
                low: number("low", &self.low, max)?,
                high: number("high", &self.high, max)?,
            })
        };
        let list = |text: &str| -> Vec<String> {
            text.split([',', '\n'])
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect()
        };
        let counter_max = engine::lms::config::rules::MAX_COUNTER;
        Ok(match self.rule.as_str() {
            "application_user_load" => Rule::ApplicationUserLoad {
                app: self.app.trim().to_owned(),
                users: users()?,
            },
            "server_user_load" => Rule::ServerUserLoad { users: users()? },
            "load_throttling" => Rule::LoadThrottling {
                level: serde_json::from_value(serde_json::Value::String(
                    self.level.trim().to_owned(),
                ))
                .map_err(|_| {
                    AppError::invalid(
                        field("level"),
                        "must be extreme, high, medium_high, medium or medium_low",
                    )
                })?,
            },
            "cpu_utilization" => Rule::CpuUtilization(thresholds(100)?),
            "memory_usage" => Rule::MemoryUsage(thresholds(100)?),
            "context_switches" => Rule::ContextSwitches(thresholds(counter_max)?),
            "page_faults" => Rule::PageFaults(thresholds(counter_max)?),
            "page_swaps" => Rule::PageSwaps(thresholds(counter_max)?),
            "disk_data_io" => Rule::DiskDataIo(thresholds(counter_max)?),
            "disk_operations" => Rule::DiskOperations(thresholds(counter_max)?),
            "scheduling" => Rule::Scheduling {
                windows: list(&self.windows)
                    .iter()
                    .map(|w| {
                        w.parse()
                            .map_err(|e: engine::lms::config::rules::FormatError| {
                                AppError::invalid(field("windows"), e.to_string())
                            })
                    })
                    .collect::<Result<_, _>>()?,
            },
            "ip_range" => Rule::IpRange {
                ranges: list(&self.ranges)
                    .iter()
                    .map(|r| {
                        r.parse()
                            .map_err(|e: engine::lms::config::rules::FormatError| {
                                AppError::invalid(field("ranges"), e.to_string())
                            })
                    })
                    .collect::<Result<_, _>>()?,
            },
            other => {
                return Err(AppError::invalid(
                    field("rule"),
                    format!(
                        "unknown rule \"{other}\"; expected one of: {}",
                        RULE_KINDS.map(|(k, _)| k).join(", ")
                    ),
                ))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::lms::config::rules::{builtin_rules, Rule, Thresholds};

    #[test]
    fn drafts_round_trip_and_name_the_field() {
        for name in ["Default", "Advanced"] {
            for (i, rule) in builtin_rules(name).unwrap_or_default().iter().enumerate() {
                assert_eq!(RuleDraft::from_rule(rule).to_rule(i).as_ref(), Ok(rule));
            }
        }
        let mut d = RuleDraft::from_rule(&Rule::CpuUtilization(Thresholds { low: 10, high: 90 }));
        d.high = "150".into();
        assert_eq!(
            d.to_rule(2).map_err(|e| e.to_string()),
            Err("rules[2].high: must be a whole number between 0 and 100; got \"150\"".to_owned())
        );
        let bad = RuleDraft {
            rule: "ip_range".into(),
            ranges: "10.0.0.9-10.0.0.1".into(),
            ..RuleDraft::default()
        };
        assert!(bad.to_rule(0).is_err_and(|e| e
            .to_string()
            .starts_with("rules[0].ranges: expected an IPv4 range")));
    }
}
