//! Alert rules and the alert history as the pages and `/api/alerts` show them.

use serde::{Deserialize, Serialize};

/// Alerts firing per severity (the header's badge, from the clock status).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AlertCountsView {
    /// Critical alerts firing.
    pub critical: u64,
    /// Warnings firing.
    pub warning: u64,
    /// Informational alerts firing.
    pub info: u64,
}

impl AlertCountsView {
    /// Every alert firing.
    pub fn total(&self) -> u64 {
        self.critical + self.warning + self.info
    }

    /// The most serious severity firing (`critical`, `warning`, `info`), if any.
    pub fn worst(&self) -> Option<&'static str> {
        if self.critical > 0 {
            Some("critical")
        } else if self.warning > 0 {
            Some("warning")
        } else if self.info > 0 {
            Some("info")
        } else {
            None
        }
    }
}

/// One alert of the run's history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AlertView {
    /// Its id (what an acknowledgement names).
    pub id: i64,
    /// The rule that fired it.
    pub rule: String,
    /// `critical`, `warning` or `info`.
    pub severity: String,
    /// What it is about.
    pub subject: String,
    /// Why it fired.
    pub text: String,
    /// Since when the condition held (simulated ms).
    pub since_ms: u64,
    /// When it fired (simulated ms).
    pub fired_ms: u64,
    /// When it fired (wall clock, UTC).
    pub fired_at: String,
    /// Who acknowledged it.
    pub acked_by: Option<String>,
    /// When (wall clock, UTC).
    pub acked_at: Option<String>,
    /// When it resolved (simulated ms); none while it fires.
    pub resolved_ms: Option<u64>,
    /// When (wall clock, UTC).
    pub resolved_at: Option<String>,
    /// Why it resolved.
    pub resolved_reason: Option<String>,
}

/// The alerts page: what fires now and a page of the history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AlertsPage {
    /// The run.
    pub run_id: i64,
    /// Alerts firing now, most serious first.
    pub firing: Vec<AlertView>,
    /// A page of the history, newest first (firing ones included).
    pub history: Vec<AlertView>,
    /// Alerts in the run's history.
    pub total: u64,
    /// The page shown (from 1).
    pub page: u32,
    /// Alerts per page.
    pub per_page: u32,
}

/// A stored alert rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AlertRuleView {
    /// Its name.
    pub name: String,
    /// `critical`, `warning` or `info`.
    pub severity: String,
    /// The condition's kind (`ha_state`, `vdas_unregistered`, …).
    pub kind: String,
    /// The condition in words.
    pub condition: String,
    /// The condition's values by field (what the form edits).
    pub fields: Vec<(String, String)>,
    /// Who saved it last.
    pub saved_by: String,
    /// When (wall clock, UTC).
    pub saved_at: String,
}

/// A condition kind offered by the rules form: its name, words and fields.
pub struct RuleKind {
    /// The `kind` value.
    pub kind: &'static str,
    /// What it watches.
    pub label: &'static str,
    /// Its fields: (name, label and allowed values).
    pub fields: &'static [(&'static str, &'static str)],
}

/// Every condition kind, in the order the form offers them.
pub const RULE_KINDS: [RuleKind; 6] = [
    RuleKind {
        kind: "ha_state",
        label: "Resource location in an HA state for a time",
        fields: &[
            (
                "state",
                "HA state (pending_ha, ha_initial, extended_ha, pending_recovery)",
            ),
            ("for_min", "For at least (simulated minutes, 0–10080)"),
        ],
    },
    RuleKind {
        kind: "vdas_unregistered",
        label: "More than a share of a resource location's VDAs unregistered",
        fields: &[("pct", "Above (%, 0 to below 100)")],
    },
    RuleKind {
        kind: "child_orphaned",
        label: "GSLB child held by no parent",
        fields: &[],
    },
    RuleKind {
        kind: "server_load",
        label: "Server at a load index for consecutive samples",
        fields: &[
            ("load", "Load index at or above (1–10000)"),
            ("samples", "Consecutive load samples (1–1000)"),
        ],
    },
    RuleKind {
        kind: "at_max_nodes",
        label: "Autoscale cluster at its group's maximum nodes",
        fields: &[],
    },
    RuleKind {
        kind: "flapping",
        label: "Anything flapping (flap detection)",
        fields: &[("engine", "Engine (lhc, lms, gslb, autoscale; empty: any)")],
    },
];

/// The kind named `kind`.
pub fn rule_kind(kind: &str) -> Option<&'static RuleKind> {
    RULE_KINDS.iter().find(|k| k.kind == kind)
}
