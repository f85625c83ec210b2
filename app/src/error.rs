//! The error type that crosses server functions.
//!
//! Policy: every variant is safe to show a user and names what to do; internal causes
//! (database, runtime) are logged on the server and reach the browser only as
//! [`AppError::Internal`]. Each variant maps to one HTTP status, so API clients see 401, 403,
//! 422, 409, 404, 429 or 500 as well as the message; a request refused before the function ran
//! (arguments that do not decode, a body over the limit) answers 400 or 413.

use engine::Role;
use leptos::prelude::{FromServerFnError, ServerFnErrorErr};
use leptos::server_fn::codec::JsonEncoding;
use serde::{Deserialize, Serialize};

/// What a server function answers when it refuses or fails.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum AppError {
    /// No signed-in session.
    #[error("sign in first")]
    Unauthorized,
    /// Wrong user name or password.
    #[error("wrong user name or password")]
    BadCredentials,
    /// The session's role is too low.
    #[error("this needs the {needed} role; you are {have}")]
    Forbidden {
        /// The role the call needs.
        needed: Role,
        /// The caller's role.
        have: Role,
    },
    /// Input refused; nothing was changed.
    #[error("{field}: {message}")]
    Invalid {
        /// The refused field.
        field: String,
        /// What is allowed.
        message: String,
    },
    /// A value outside what exists (e.g. an instant outside the run); the valid range is named.
    #[error("{field}: {message}")]
    OutOfRange {
        /// The refused field.
        field: String,
        /// The valid range.
        message: String,
    },
    /// Already exists.
    #[error("{0}")]
    Conflict(String),
    /// Does not exist.
    #[error("{0}")]
    NotFound(String),
    /// Too many attempts.
    #[error("too many attempts; try again in {0} s")]
    Throttled(u64),
    /// The database does not answer; nothing was changed. Try again in a moment.
    #[error("the database does not answer; nothing was changed, try again in a moment")]
    Unavailable,
    /// A server-side failure (logged there).
    #[error("the server failed to do this; the cause is in its log")]
    Internal,
    /// The request itself failed (network, encoding).
    #[error("request failed: {0}")]
    Request(ServerFnErrorErr),
}

impl AppError {
    /// A validation error on `field`.
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        AppError::Invalid {
            field: field.into(),
            message: message.into(),
        }
    }
}

impl FromServerFnError for AppError {
    type Encoder = JsonEncoding;

    fn from_server_fn_error(value: ServerFnErrorErr) -> Self {
        AppError::Request(value)
    }

    /// An error body: an [`AppError`] as the server functions send it, or the plain JSON
    /// (`{"error": …, "status": …}`) of the layers in front of them — the sign-in gate (401,
    /// 503) and the same-origin check (403) — read by its status, so that a page whose
    /// session ended shows "sign in first" and its link rather than a decoding error.
    fn de(data: leptos::server_fn::Bytes) -> Self {
        #[derive(Deserialize)]
        struct Plain {
            error: String,
            status: u16,
        }
        if let Ok(error) = serde_json::from_slice::<AppError>(&data) {
            return error;
        }
        match serde_json::from_slice::<Plain>(&data) {
            Ok(Plain { status: 401, .. }) => AppError::Unauthorized,
            Ok(Plain { status: 503, .. }) => AppError::Unavailable,
            Ok(Plain { error, .. }) => AppError::Request(ServerFnErrorErr::Request(error)),
            Err(e) => AppError::Request(ServerFnErrorErr::Deserialization(e.to_string())),
        }
    }
}

impl AppError {
    /// The HTTP status this error is answered with.
    pub fn status(&self) -> u16 {
        match self {
            AppError::Unauthorized | AppError::BadCredentials => 401,
            AppError::Forbidden { .. } => 403,
            AppError::Invalid { .. } => 422,
            AppError::OutOfRange { .. } => 400,
            AppError::Conflict(_) => 409,
            AppError::NotFound(_) => 404,
            AppError::Throttled(_) => 429,
            AppError::Unavailable => 503,
            AppError::Internal => 500,
            AppError::Request(e) => request_status(e),
        }
    }
}

/// The status of a request the framework refused before the server function ran: its
/// arguments do not decode (400, the argument named by [`crate::api::codec::Form`]), its body
/// is over the size limit (413), it asks for a server function that does not exist (404) or
/// with the wrong method (405).
fn request_status(e: &ServerFnErrorErr) -> u16 {
    match e {
        ServerFnErrorErr::Args(_) | ServerFnErrorErr::MissingArg(_) => 400,
        // The body could not be read: over axum's limit (http-body's "length limit
        // exceeded"), or not text.
        ServerFnErrorErr::Deserialization(m) if m.contains("length limit exceeded") => 413,
        ServerFnErrorErr::Deserialization(_) => 400,
        ServerFnErrorErr::Registration(_) => 404,
        ServerFnErrorErr::UnsupportedRequestMethod(_) => 405,
        _ => 500,
    }
}

#[cfg(feature = "ssr")]
impl From<services::ServiceError> for AppError {
    fn from(e: services::ServiceError) -> Self {
        use services::ServiceError as E;
        match e {
            E::Invalid { field, message } => AppError::Invalid { field, message },
            E::OutOfRange { field, message } => AppError::OutOfRange { field, message },
            E::Conflict(m) => AppError::Conflict(m),
            E::NotFound(m) => AppError::NotFound(m),
            E::Throttled { retry_after_s } => AppError::Throttled(retry_after_s),
            E::Unavailable(why) => {
                tracing::warn!(error = %why, "database unavailable");
                AppError::Unavailable
            }
            other => {
                tracing::error!(error = %other, "service failure");
                AppError::Internal
            }
        }
    }
}

/// An engine's refusal, mapped once (by the services layer) to a field error.
#[cfg(feature = "ssr")]
impl From<engine::ActionError> for AppError {
    fn from(e: engine::ActionError) -> Self {
        services::ServiceError::from(e).into()
    }
}

#[cfg(test)]
mod tests {
    use super::AppError;
    use leptos::prelude::{FromServerFnError, ServerFnErrorErr};

    #[test]
    fn error_bodies_of_every_layer_are_read() {
        let read = |body: &str| AppError::de(leptos::server_fn::Bytes::from(body.to_owned()));
        // A server function's own error.
        assert_eq!(read(r#""Unauthorized""#), AppError::Unauthorized);
        assert_eq!(read(r#"{"Throttled":3}"#), AppError::Throttled(3));
        // The sign-in gate's and the same-origin check's plain answers.
        assert_eq!(
            read(r#"{"error":"sign in first","status":401}"#),
            AppError::Unauthorized
        );
        assert_eq!(
            read(r#"{"error":"the database…","status":503}"#),
            AppError::Unavailable
        );
        assert_eq!(
            read(r#"{"error":"forbidden: another origin","status":403}"#),
            AppError::Request(ServerFnErrorErr::Request(
                "forbidden: another origin".into()
            ))
        );
        assert!(matches!(
            read("<html>"),
            AppError::Request(ServerFnErrorErr::Deserialization(_))
        ));
    }
}
