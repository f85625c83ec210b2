//! The error type of the services layer.
//!
//! Policy: a variant says what the caller did wrong (validation, conflict, not found, throttled)
//! in words safe to show a user; [`ServiceError::Database`] and [`ServiceError::Internal`] carry
//! the real cause for the log only, and the UI layer shows a generic message for them.

/// What went wrong in a service call.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// Input refused; nothing was stored.
    #[error("{field}: {message}")]
    Invalid {
        /// The field (form input or argument) that was refused.
        field: String,
        /// What is allowed.
        message: String,
    },
    /// A value outside what exists (e.g. an instant outside a run): the request is wrong as
    /// asked (HTTP 400), nothing was read or changed.
    #[error("{field}: {message}")]
    OutOfRange {
        /// The field that is out of range.
        field: String,
        /// The valid range.
        message: String,
    },
    /// The thing exists already (e.g. a user name).
    #[error("{0}")]
    Conflict(String),
    /// The thing asked for does not exist.
    #[error("{0}")]
    NotFound(String),
    /// Too many attempts; try again later.
    #[error("too many attempts; try again in {retry_after_s} s")]
    Throttled {
        /// Seconds until the next attempt is allowed.
        retry_after_s: u64,
    },
    /// The simulation runtime is not running (shutting down).
    #[error("the simulation runtime is not running")]
    RuntimeGone,
    /// The database does not answer (connection refused or lost, no connection free in
    /// time): nothing was changed; the same request may succeed once it is back (HTTP 503).
    #[error("the database does not answer: {0}")]
    Unavailable(String),
    /// A database failure (details for the log only).
    #[error("database error: {0}")]
    Database(sqlx::Error),
    /// A migration failure at start-up.
    #[error("migration error: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
    /// Any other internal failure (details for the log only).
    #[error("internal error: {0}")]
    Internal(String),
}

impl ServiceError {
    /// A validation error on `field`.
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        ServiceError::Invalid {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// An engine's refusal of an action or a what-if: a field error naming the action's field
/// (`action` when the refusal is about the state as a whole, e.g. nothing would change).
/// Nothing was changed.
impl From<engine::ActionError> for ServiceError {
    fn from(e: engine::ActionError) -> Self {
        match e {
            engine::ActionError::Invalid { field, message } => {
                ServiceError::invalid(field, message)
            }
            e => ServiceError::invalid(e.field().unwrap_or("action"), e.to_string()),
        }
    }
}

impl From<sqlx::Error> for ServiceError {
    fn from(e: sqlx::Error) -> Self {
        if is_unavailable(&e) {
            ServiceError::Unavailable(e.to_string())
        } else {
            ServiceError::Database(e)
        }
    }
}

/// Whether an error says the database cannot be reached (as opposed to a refused statement):
/// the connection failed or broke, the pool gave none in time, or the server is shutting down
/// or starting (SQLSTATE classes 08 and 57P).
pub fn is_unavailable(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(db) => db
            .code()
            .is_some_and(|code| code.starts_with("08") || code.starts_with("57P")),
        _ => false,
    }
}

/// Result alias of this layer.
pub type Result<T, E = ServiceError> = std::result::Result<T, E>;
