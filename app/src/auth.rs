//! Server-side access checks used by every server function: who is signed in, whether their
//! role allows the call, and the audit record of what they did. Compiled for `ssr` only.

use engine::Role;
use leptos::prelude::*;
use services::accounts::{self, User};
use services::Services;
use tower_sessions::Session;

use crate::error::AppError;

/// Session key holding the signed-in user's id.
pub const USER_ID_KEY: &str = "user_id";
/// Session key holding the user's session epoch at sign-in ([`session_user`]).
pub const USER_EPOCH_KEY: &str = "user_epoch";

/// The backend services, provided in the request context by the server.
pub fn services() -> Result<Services, AppError> {
    use_context::<Services>().ok_or_else(|| {
        tracing::error!("Services missing from the request context");
        AppError::Internal
    })
}

/// The request's session (the session layer wraps every route).
pub async fn session() -> Result<Session, AppError> {
    leptos_axum::extract::<Session>().await.map_err(|e| {
        tracing::error!(error = %e, "no session layer on this request");
        AppError::Internal
    })
}

/// The user a session belongs to while it is valid: signed in, the account still there and
/// enabled, and no password reset since the sign-in ([`accounts::find_signed_in`]). The one
/// check behind the sign-in gate and every server function. The session store lives in the
/// database: its failure is [`services::ServiceError::Unavailable`].
pub async fn session_user(
    store: &services::Store,
    session: &Session,
) -> Result<Option<User>, services::ServiceError> {
    let unavailable = |e: tower_sessions::session::Error| {
        services::ServiceError::Unavailable(format!("session store: {e}"))
    };
    let Some(id) = session.get::<i64>(USER_ID_KEY).await.map_err(unavailable)? else {
        return Ok(None);
    };
    // Sessions signed in before epochs existed carry none: epoch 0, the starting value.
    let epoch = session
        .get::<i64>(USER_EPOCH_KEY)
        .await
        .map_err(unavailable)?
        .unwrap_or(0);
    accounts::find_signed_in(store, id, epoch).await
}

/// The user the sign-in gate found for this request ([`session_user`], checked once as the
/// request came in), kept in the request's extensions so that the server functions a page
/// render calls do not each ask the database again.
#[derive(Debug, Clone)]
pub struct RequestUser(pub User);

/// The signed-in user, if any (a deleted or disabled user's session, or one opened before a
/// password reset, counts as signed out): the one the gate found for this request, else
/// looked up from the session.
pub async fn current_user(services: &Services) -> Result<Option<User>, AppError> {
    let found = use_context::<http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<RequestUser>().cloned());
    if let Some(RequestUser(user)) = found {
        return Ok(Some(user));
    }
    let session = session().await?;
    Ok(session_user(&services.store, &session).await?)
}

/// A signed-in user of any role (read-only calls).
pub async fn signed_in() -> Result<(Services, User), AppError> {
    let services = services()?;
    let user = current_user(&services)
        .await?
        .ok_or(AppError::Unauthorized)?;
    Ok((services, user))
}

/// A signed-in user whose role allows `needed`, for the mutating call `action`. A refusal is
/// itself written to the audit log.
pub async fn authorize(action: &str, needed: Role) -> Result<(Services, User), AppError> {
    let (services, user) = signed_in().await?;
    if !user.role.allows(needed) {
        let err = AppError::Forbidden {
            needed,
            have: user.role,
        };
        record(
            &services,
            &user.username,
            action,
            &serde_json::json!({}),
            &Err::<(), _>(err.clone()),
        )
        .await;
        return Err(err);
    }
    Ok((services, user))
}

/// Writes one audit row for `action` with its outcome. A failure to write is logged, never
/// hidden: the row is what makes the action accountable.
pub async fn record<T>(
    services: &Services,
    actor: &str,
    action: &str,
    arguments: &serde_json::Value,
    result: &Result<T, AppError>,
) {
    let outcome = match result {
        Ok(_) => "ok".to_owned(),
        Err(e) => format!("refused: {e}"),
    };
    if let Err(e) =
        services::audit::record(&services.store, actor, action, arguments, &outcome).await
    {
        tracing::error!(error = %e, action, actor, "could not write the audit log");
    }
}

/// A mutating call: checks that the session's role allows `needed` for `action` (a refusal
/// is audited by [`authorize`]), runs `act`, writes the audit row with `arguments` and the
/// outcome, success or error, and sets the HTTP status from the error. When `act` changes the
/// run, the runtime writes the `ok` row in the same transaction as the journal entry, before
/// the answer (see `services::runtime::RuntimeHandle::audited`).
pub async fn audited<T, F, Fut>(
    action: &str,
    needed: Role,
    arguments: serde_json::Value,
    act: F,
) -> Result<T, AppError>
where
    F: FnOnce(Services, User) -> Fut,
    Fut: std::future::Future<Output = Result<T, AppError>>,
{
    let result = async {
        let (services, user) = authorize(action, needed).await?;
        // An input that changes the run writes this row with its journal entry, in one
        // transaction; otherwise (a refusal, or an action outside the run) it is written here.
        let pending = services::runtime::PendingAudit::new(services::journal::AuditRow {
            actor: user.username.clone(),
            action: action.to_owned(),
            arguments: arguments.clone(),
        });
        let scoped = services.with_runtime(services.runtime.audited(pending.clone()));
        let result = act(scoped, user.clone()).await;
        if result.is_err() || !pending.written() {
            record(&services, &user.username, action, &arguments, &result).await;
        }
        result
    }
    .await;
    finish(result)
}

/// The read-only twin of [`audited`]: checks that the session's role allows `needed` (a
/// refusal is audited under `action` by [`authorize`]; every signed-in role may read what
/// needs [`Role::Viewer`]), runs `look`, and sets the HTTP status from the error. Nothing is
/// recorded on success: reading changes nothing.
pub async fn read_only<T, F, Fut>(action: &str, needed: Role, look: F) -> Result<T, AppError>
where
    F: FnOnce(Services, User) -> Fut,
    Fut: std::future::Future<Output = Result<T, AppError>>,
{
    let result = async {
        let (services, user) = authorize(action, needed).await?;
        look(services, user).await
    }
    .await;
    finish(result)
}

/// Sets the HTTP status of the response from the error, then hands the result back.
pub fn finish<T>(result: Result<T, AppError>) -> Result<T, AppError> {
    if let Err(e) = &result {
        if let Some(options) = use_context::<leptos_axum::ResponseOptions>() {
            if let Ok(status) = http::StatusCode::from_u16(e.status()) {
                options.set_status(status);
            }
        }
    }
    result
}

/// Only same-site paths are followed after sign-in (no open redirect): one leading `/`,
/// no `//`, no backslash and no control character, as given or percent-decoded (a browser
/// drops tabs and line breaks from a URL, so `/\t/evil.example` would lead to
/// `//evil.example`). Anything else leads to `/`. What passes is also a valid header value.
pub fn safe_next(next: Option<&str>) -> &str {
    match next {
        Some(p) if local_path(p) && local_path(&percent_decoded(p)) => p,
        _ => "/",
    }
}

fn local_path(p: &str) -> bool {
    p.starts_with('/')
        && !p.starts_with("//")
        && !p.contains('\\')
        && !p.chars().any(char::is_control)
}

/// `text` with its `%XY` escapes decoded (invalid escapes kept as they are; bytes that are
/// not UTF-8 shown as U+FFFD).
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::safe_next;

    #[test]
    fn only_local_paths_are_followed() {
        let table = [
            (None, "/"),
            (Some("/history?engine=core"), "/history?engine=core"),
            (Some("//evil.example"), "/"),
            (Some("https://evil.example"), "/"),
            (Some("/\\evil.example"), "/"),
            // Browsers drop tabs and line breaks: `//evil.example`.
            (Some("/\t/evil.example"), "/"),
            (Some("/\n/evil.example"), "/"),
            (Some("/lhc\r\nSet-Cookie: x=1"), "/"),
            (Some("/lhc\0"), "/"),
            // The same, percent-encoded.
            (Some("/%09/evil.example"), "/"),
            (Some("/%2F/evil.example"), "/"),
            (Some("/%5Cevil.example"), "/"),
            (Some("/lhc%0d%0aSet-Cookie:%20x=1"), "/"),
            (Some("/lhc%00"), "/"),
            (Some(""), "/"),
            (Some("lhc"), "/"),
            // Escapes that decode to nothing harmful, and broken escapes, are kept.
            (Some("/users?q=a%2Bb%26x%3D1"), "/users?q=a%2Bb%26x%3D1"),
            (Some("/lhc/rl-paris%"), "/lhc/rl-paris%"),
            (Some("/lhc/%zz"), "/lhc/%zz"),
            (Some("/zone/zonă"), "/zone/zonă"),
        ];
        for (next, expected) in table {
            assert_eq!(safe_next(next), expected, "{next:?}");
        }
    }
}
