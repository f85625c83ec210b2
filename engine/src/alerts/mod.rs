//! Alert rules over the engines' state, evaluated on a run: an admin's rules
//! ([`AlertRule`]: a condition, its hold time and a severity), and the [`AlertBook`] that
//! says which alerts fire and resolve as the run goes. The console keeps the rules and the
//! alert history in its store; this module only decides.

pub mod book;
pub mod rule;

pub use self::book::{ActiveAlert, AlertBook, AlertChange};
pub use self::rule::{validate_rules, AlertRule, AlertSeverity, Condition, RuleError};
