//! Sign-in, sign-out and "who am I".

use leptos::prelude::*;

use crate::error::AppError;
use crate::model::SessionUser;

/// Signs in with a user name and password, then redirects to `next` (a local path) or `/`.
/// Wrong passwords slow down further attempts of that user name from that address
/// (exponential back-off), and each address has a quota ([`services::throttle`]).
#[server(endpoint = "login")]
pub async fn login(
    username: String,
    password: String,
    next: Option<String>,
) -> Result<(), AppError> {
    use crate::auth::{finish, record, safe_next, services, session, USER_EPOCH_KEY, USER_ID_KEY};
    finish(
        async move {
            let services = services()?;
            let address =
                leptos_axum::extract::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
                    .await
                    .ok()
                    .map(|c| c.0.ip());
            let username = username.trim().to_owned();
            let args = serde_json::json!({ "username": username });
            if let Err(e) = services.sign_in_limiter.check(&username, address) {
                let err = AppError::from(e);
                record(
                    &services,
                    &username,
                    "session.sign_in",
                    &args,
                    &Err::<(), _>(err.clone()),
                )
                .await;
                return Err(err);
            }
            let user =
                services::accounts::authenticate(&services.store, &username, &password).await?;
            let Some(user) = user else {
                services.sign_in_limiter.failed(&username, address);
                let err = AppError::BadCredentials;
                record(
                    &services,
                    &username,
                    "session.sign_in",
                    &args,
                    &Err::<(), _>(err.clone()),
                )
                .await;
                return Err(err);
            };
            services.sign_in_limiter.succeeded(&username, address);
            let session = session().await?;
            // The id the visitor came with is replaced: nothing may be remembered for it.
            if let Some(old) = session.id() {
                services.signed_in.forget(old);
            }
            let stored = async {
                session.cycle_id().await?;
                session.insert(USER_ID_KEY, user.id).await?;
                session.insert(USER_EPOCH_KEY, user.session_epoch).await
            }
            .await;
            if let Err(e) = stored {
                tracing::error!(error = %e, "could not store the session");
                return Err(AppError::Internal);
            }
            record(
                &services,
                &user.username,
                "session.sign_in",
                &args,
                &Ok::<(), AppError>(()),
            )
            .await;
            leptos_axum::redirect(safe_next(next.as_deref()));
            Ok(())
        }
        .await,
    )
}

/// Signs out and redirects to the sign-in page.
#[server(endpoint = "logout")]
pub async fn logout() -> Result<(), AppError> {
    use crate::auth::{current_user, finish, record, services, session};
    finish(
        async move {
            let services = services()?;
            let user = current_user(&services).await?;
            let session = session().await?;
            if let Some(id) = session.id() {
                services.signed_in.forget(id);
            }
            if let Err(e) = session.flush().await {
                tracing::error!(error = %e, "could not end the session");
                return Err(AppError::Internal);
            }
            if let Some(user) = user {
                record(
                    &services,
                    &user.username,
                    "session.sign_out",
                    &serde_json::json!({}),
                    &Ok::<(), AppError>(()),
                )
                .await;
            }
            leptos_axum::redirect("/login");
            Ok(())
        }
        .await,
    )
}

/// The signed-in user, or `None`.
#[server(endpoint = "whoami", input = crate::api::codec::Form)]
pub async fn whoami() -> Result<Option<SessionUser>, AppError> {
    use crate::auth::{current_user, finish, services};
    finish(
        async move {
            let services = services()?;
            Ok(current_user(&services).await?.map(|u| SessionUser {
                username: u.username,
                role: u.role,
            }))
        }
        .await,
    )
}
