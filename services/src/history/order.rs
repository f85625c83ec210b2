//! The history in a column's order: by engine, subject or kind, each then by instant.
//!
//! Every order is read by keyset through an index, as the time order is: a page's link still
//! carries the place of an event (`<t_ms>.<id>`), and the read looks that event up (one row by
//! its key) to continue from its engine, subject or kind. The engine and kind orders read one
//! engine after the other (at most one read per engine), so each read stays on an index that
//! starts with the engine: the kind index on SQLite, one engine's partitions on PostgreSQL.

use engine::EngineId;

use super::{
    builder, id_column, read_filtered, select_events, Cursor, EventFilter, Key, Lead, StoredEvent,
};
use crate::error::{Result, ServiceError};
use crate::store::{on_pool, Store};

/// The order of a history page besides its direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EventOrder {
    /// By instant (then the order the engines produced the events).
    #[default]
    Time,
    /// By engine name, then instant.
    Engine,
    /// By subject name (byte order), then instant.
    Subject,
    /// By engine name, then kind, then instant: a kind is named within its engine.
    Kind,
}

impl EventOrder {
    /// Every order.
    pub const ALL: [EventOrder; 4] = [
        EventOrder::Time,
        EventOrder::Engine,
        EventOrder::Subject,
        EventOrder::Kind,
    ];

    /// The column one read orders by before the instant (the engine is a read of its own).
    fn lead(self) -> Lead {
        match self {
            EventOrder::Time | EventOrder::Engine => Lead::Time,
            EventOrder::Subject => Lead::Subject,
            EventOrder::Kind => Lead::Kind,
        }
    }
}

/// Where a read in a column's order starts: the engine of the event at the place, and its key.
struct Start {
    engine: String,
    key: Key,
}

/// Reads the events matching `filter` in `order` from `place`, largest first (`newest_first`)
/// or smallest first, at most `limit`.
pub(super) async fn read(
    store: &Store,
    filter: &EventFilter,
    order: EventOrder,
    place: Option<Cursor>,
    newest_first: bool,
    limit: i64,
) -> Result<Vec<StoredEvent>> {
    let lead = order.lead();
    let start = match (order, place) {
        (_, None) => None,
        (EventOrder::Time, Some(at)) => Some(Start {
            engine: String::new(),
            key: Key::time(at),
        }),
        (_, Some(at)) => {
            let event = locate(store, filter.run_id, at).await?;
            Some(Start {
                key: Key::of(lead, &event),
                engine: event.engine,
            })
        }
    };
    match order {
        EventOrder::Time | EventOrder::Subject => {
            let key = start.map(|s| s.key);
            read_filtered(store, filter, lead, key, newest_first, limit).await
        }
        EventOrder::Engine | EventOrder::Kind => {
            let mut rows = Vec::new();
            for name in engines(newest_first) {
                if filter.engine.as_deref().is_some_and(|e| e != name) {
                    continue;
                }
                let key = match &start {
                    None => None,
                    Some(s) => {
                        let passed = if newest_first {
                            name > s.engine.as_str()
                        } else {
                            name < s.engine.as_str()
                        };
                        if passed {
                            continue;
                        }
                        (name == s.engine).then(|| s.key.clone())
                    }
                };
                let one = EventFilter {
                    engine: Some(name.to_owned()),
                    ..filter.clone()
                };
                let wanted = limit - rows.len() as i64;
                rows.extend(read_filtered(store, &one, lead, key, newest_first, wanted).await?);
                if rows.len() as i64 >= limit {
                    break;
                }
            }
            Ok(rows)
        }
    }
}

/// The engines' names in name order, or the other way round when `descending`.
fn engines(descending: bool) -> Vec<&'static str> {
    let mut names = EngineId::ALL.map(EngineId::as_str).to_vec();
    names.sort_unstable();
    if descending {
        names.reverse();
    }
    names
}

/// The event of run `run_id` at `at` (one row by its key).
async fn locate(store: &Store, run_id: i64, at: Cursor) -> Result<StoredEvent> {
    let dialect = store.dialect();
    let found = on_pool!(store, pool => {
        let mut q = builder(pool, select_events(dialect));
        q.push(" WHERE run_id = ")
            .push_bind(run_id)
            .push(" AND t_ms = ")
            .push_bind(at.t_ms)
            .push(format_args!(" AND {} = ", id_column(dialect)))
            .push_bind(at.id);
        q.build_query_as::<StoredEvent>().fetch_optional(pool).await
    })?;
    found.ok_or_else(|| {
        ServiceError::NotFound(format!(
            "the event at {at} this page starts from is no longer stored: start again from the first page"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::engines;

    #[test]
    fn the_engines_are_read_in_name_order_either_way() {
        assert_eq!(engines(false), ["autoscale", "core", "gslb", "lhc", "lms"]);
        assert_eq!(engines(true), ["lms", "lhc", "gslb", "core", "autoscale"]);
    }
}
