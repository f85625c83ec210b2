//! What the console's detail pages chart and list about one subject, read back from the
//! persisted events of a run (charts live in the history, not in memory) and reduced by the
//! engines' own series functions, so server functions stay thin: read, reduce, return.
//!
//! One file per engine: [`lhc`] (a resource location's HA-state band, registrations and log),
//! [`lms`] (a server's load samples, placements and log), [`gslb`] (a site's MEP, adoption
//! and other events), [`autoscale`] (a group's decisions).

pub mod autoscale;
pub mod gslb;
pub mod lhc;
pub mod lms;

/// A stored event's details (`null` when they do not parse, which the reducers skip).
fn details(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or(serde_json::Value::Null)
}

/// A stored instant as simulated ms (never negative).
fn t_ms(stored: i64) -> u64 {
    u64::try_from(stored).unwrap_or_default()
}
