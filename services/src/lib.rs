//! Server-side services of Switchyard, shared by the app's server functions and the `server`
//! binary (the "ssr-only crate" choice of docs/ARCHITECTURE.md).
//!
//! Reading order:
//! - [`Services`]: the bundle handed to every request (store, runtime handle, limiter).
//! - [`store`]: the store — SQLite or PostgreSQL, chosen by the database URL — and the
//!   migrations of each dialect.
//! - [`accounts`] and [`password`]: users, roles and argon2id hashes.
//! - [`activity`]: each engine's recent changes per 10 simulated minutes (the sparklines).
//! - [`audit`]: the audit log of every mutating action.
//! - [`alerts`]: alert rules and each run's alert history (fired, acknowledged, resolved).
//! - [`history`]: runs and persisted engine events, with filters and paging.
//! - [`journal`]: the action journal of a run, written before an input is acknowledged.
//! - [`snapshots`]: stored snapshots of a run's simulation, for resuming and looking back.
//! - [`charts`]: what a detail page charts and lists, read back from the history and
//!   reduced by the engines' series functions.
//! - [`runtime`]: the task that drives the engines on the simulated clock, persists their
//!   events in batches and broadcasts them to live views.
//! - [`recent`]: the live run's newest events, read once per stored batch (the feed).
//! - [`time_travel`]: a run's estate at a past instant, rebuilt from a snapshot and the
//!   journal; pages read the live run or the past through the same [`time_travel::Estate`].
//! - [`sessions`]: sign-in sessions kept in the store.
//! - [`signed_in`]: who a session belongs to, remembered for a moment (the sign-in gate).
//! - [`throttle`]: throttling of failed sign-ins per user and per address.
//! - [`error`]: the one error type of this layer.

pub mod accounts;
pub mod activity;
pub mod alerts;
pub mod audit;
pub mod charts;
pub mod error;
pub mod history;
pub mod journal;
pub mod password;
pub mod recent;
pub mod replica;
pub mod retention;
pub mod rollups;
pub mod runtime;
pub mod sessions;
pub mod signed_in;
pub mod snapshots;
pub mod store;
pub mod telemetry;
pub mod throttle;
pub mod time_travel;

pub use error::ServiceError;
pub use store::Store;

use std::sync::Arc;

/// Everything a request needs from the backend, shared behind one `Arc`: the router, each
/// page rendering and each server function take their own clone, so a clone is one reference
/// count, not one per handle inside (the fields are read through `Deref`).
#[derive(Clone)]
pub struct Services(Arc<ServiceParts>);

/// What [`Services`] shares (handles only: a clone shares the store, the runtime and the
/// caches).
#[derive(Clone)]
pub struct ServiceParts {
    /// The store (migrations applied).
    pub store: Store,
    /// The handle on the simulation runtime.
    pub runtime: runtime::RuntimeHandle,
    /// Failed sign-in throttling.
    pub sign_in_limiter: throttle::SignInLimiter,
    /// The scenario the runtime was started with (the configured estate).
    pub scenario: Arc<engine::Scenario>,
    /// Past instants rebuilt for time travel.
    pub time_travel: time_travel::TimeTravel,
    /// The live run's newest events, read once per stored batch (the overview's feed).
    pub recent: recent::RecentEvents,
    /// Who each session belongs to, remembered for a moment (the sign-in gate).
    pub signed_in: signed_in::SignedIn,
}

impl std::ops::Deref for Services {
    type Target = ServiceParts;

    fn deref(&self) -> &ServiceParts {
        &self.0
    }
}

impl Services {
    /// The services of a run: the store, the runtime driving it and the scenario it was
    /// started with; the caches and the sign-in limiter start empty.
    pub fn new(
        store: Store,
        runtime: runtime::RuntimeHandle,
        scenario: Arc<engine::Scenario>,
    ) -> Self {
        Services(Arc::new(ServiceParts {
            store,
            runtime,
            sign_in_limiter: throttle::SignInLimiter::new(),
            scenario,
            time_travel: Default::default(),
            recent: Default::default(),
            signed_in: Default::default(),
        }))
    }

    /// These services with `runtime` in place of theirs (the same store and caches): an
    /// audited action's runtime handle carries its pending audit row.
    pub fn with_runtime(&self, runtime: runtime::RuntimeHandle) -> Self {
        Services(Arc::new(ServiceParts {
            runtime,
            ..ServiceParts::clone(&self.0)
        }))
    }

    /// What a page reads: the live run, or the instant `past` of a run (rebuilt, read-only).
    pub async fn estate(
        &self,
        past: Option<time_travel::PastInstant>,
    ) -> Result<time_travel::Estate, ServiceError> {
        self.time_travel
            .estate(&self.store, &self.runtime, &self.scenario, past)
            .await
    }
}
