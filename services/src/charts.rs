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

use crate::history::EventFilter;

/// The part of a run's history a page may read: the run, up to an instant when the page
/// shows the past (see [`crate::time_travel`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// The run.
    pub run_id: i64,
    /// The latest instant shown (`None`: everything stored).
    pub until_ms: Option<u64>,
}

impl Window {
    /// All of run `run_id`.
    pub fn run(run_id: i64) -> Window {
        Window {
            run_id,
            until_ms: None,
        }
    }

    /// A filter on this window and nothing else (to be narrowed).
    pub fn filter(&self) -> EventFilter {
        EventFilter {
            run_id: self.run_id,
            to_ms: self.until_ms,
            ..Default::default()
        }
    }
}

/// A stored event's details (`null` when they do not parse, which the reducers skip).
fn details(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or(serde_json::Value::Null)
}

/// A stored instant as simulated ms (never negative).
fn t_ms(stored: i64) -> u64 {
    u64::try_from(stored).unwrap_or_default()
}
