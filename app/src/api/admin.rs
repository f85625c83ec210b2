//! Admin-only calls: the audit log and user management.

use leptos::prelude::*;

use crate::error::AppError;
use crate::model::{AuditPage, UserView};

/// Rows per audit page.
pub const AUDIT_PAGE_SIZE: u32 = 50;

/// The audit page's outcome filter: URL key and whether the rows kept were refused.
pub const AUDIT_OUTCOMES: [(&str, bool); 2] = [("ok", false), ("refused", true)];

/// The audit page's orders: URL key and whether the oldest come first.
pub const AUDIT_ORDERS: [(&str, bool); 2] = [("newest", false), ("oldest", true)];

#[cfg(feature = "ssr")]
impl From<services::accounts::User> for UserView {
    fn from(u: services::accounts::User) -> Self {
        UserView {
            id: u.id,
            username: u.username,
            role: u.role,
            created_at: u.created_at,
            disabled: u.disabled_at.is_some(),
        }
    }
}

/// The audit page's columns that sort (`sort=`): URL key and column.
#[cfg(feature = "ssr")]
const AUDIT_SORTS: [(&str, services::audit::AuditSort); 4] = {
    use services::audit::AuditSort;
    [
        ("time", AuditSort::Time),
        ("actor", AuditSort::Actor),
        ("action", AuditSort::Action),
        ("outcome", AuditSort::Outcome),
    ]
};

/// One page of the audit log (admin): the actions of user `user` (exact name), of actions
/// whose name starts with `action` (`lhc.`), whose `outcome` is `ok` or `refused`, sorted
/// by `sort` (`time`, the default, `actor`, `action` or `outcome`), the largest first (the newest) or,
/// with `order` `oldest`, the smallest first.
#[server(endpoint = "audit", input = crate::api::codec::Form)]
pub async fn audit_entries(
    page: Option<u32>,
    user: Option<String>,
    action: Option<String>,
    outcome: Option<String>,
    sort: Option<String>,
    order: Option<String>,
) -> Result<AuditPage, AppError> {
    use crate::auth::read_only;
    use crate::form::{optional, page_number, searched};
    use crate::model::listing::keyed;
    read_only(
        "audit.list",
        engine::Role::Admin,
        |services, _| async move {
            let page = page_number(page)?;
            let filter = services::audit::AuditFilter {
                actor: searched(&user, "user")?,
                action_prefix: searched(&action, "action")?,
                refused: keyed("outcome", &AUDIT_OUTCOMES, optional(&outcome))?,
                sort: keyed("sort", &AUDIT_SORTS, optional(&sort))?.unwrap_or_default(),
                oldest_first: keyed("order", &AUDIT_ORDERS, optional(&order))?.unwrap_or(false),
            };
            let per_page = i64::from(AUDIT_PAGE_SIZE);
            let (rows, total, matching) = services::audit::list_filtered(
                &services.store,
                &filter,
                i64::from(page - 1) * per_page,
                per_page,
            )
            .await?;
            Ok(AuditPage {
                rows: rows
                    .into_iter()
                    .map(|r| crate::model::AuditRow {
                        id: r.id,
                        at: r.at,
                        actor: r.actor,
                        action: r.action,
                        arguments: r.arguments,
                        outcome: r.outcome,
                    })
                    .collect(),
                total: u64::try_from(total).unwrap_or_default(),
                matching: u64::try_from(matching).unwrap_or_default(),
                page,
                per_page: AUDIT_PAGE_SIZE,
            })
        },
    )
    .await
}

/// The arguments (the JSON object, as stored) of audit row `id` (admin): the audit page
/// carries them in words, and its disclosure asks for the JSON when it opens.
#[server(endpoint = "audit_json", input = crate::api::codec::Form)]
pub async fn audit_json(id: i64) -> Result<String, AppError> {
    use crate::auth::read_only;
    read_only(
        "audit.json",
        engine::Role::Admin,
        |services, _| async move {
            services::audit::arguments(&services.store, id)
                .await?
                .ok_or_else(|| AppError::NotFound(format!("no audit entry {id}")))
        },
    )
    .await
}

/// Every user (admin).
#[server(endpoint = "users", input = crate::api::codec::Form)]
pub async fn list_users() -> Result<Vec<UserView>, AppError> {
    use crate::auth::read_only;
    read_only(
        "users.list",
        engine::Role::Admin,
        |services, _| async move {
            let users = services::accounts::list(&services.store).await?;
            Ok(users.into_iter().map(Into::into).collect())
        },
    )
    .await
}

/// Parses a role from a form field.
#[cfg(feature = "ssr")]
fn parse_role(role: &str) -> Result<engine::Role, AppError> {
    role.parse()
        .map_err(|_| AppError::invalid("role", "must be viewer, operator or admin"))
}

/// A user id from a form. The forms of the users page post as plain HTML forms (the
/// framework's own encoding), so the id arrives as text and is checked here, where the
/// refusal can name the field; it answers 400 as an argument that does not decode does.
#[cfg(feature = "ssr")]
fn parse_user_id(id: &str) -> Result<i64, AppError> {
    id.trim()
        .parse()
        .ok()
        .filter(|id: &i64| *id > 0)
        .ok_or_else(|| {
            AppError::Request(leptos::prelude::ServerFnErrorErr::Args(
                "id: must be a user id (a whole number from 1)".into(),
            ))
        })
}

/// Creates a user (admin).
#[server(endpoint = "add_user")]
pub async fn add_user(
    username: String,
    password: String,
    role: String,
) -> Result<UserView, AppError> {
    use crate::auth::audited;
    let username = username.trim().to_owned();
    let args = serde_json::json!({ "username": username, "role": role });
    audited(
        "users.add",
        engine::Role::Admin,
        args,
        |services, _| async move {
            let role = parse_role(&role)?;
            let user =
                services::accounts::create(&services.store, &username, &password, role).await?;
            Ok(UserView::from(user))
        },
    )
    .await
}

/// Changes a user's role (admin).
#[server(endpoint = "set_role")]
pub async fn set_user_role(id: String, role: String) -> Result<UserView, AppError> {
    use crate::auth::audited;
    let args = serde_json::json!({ "id": id, "role": role });
    audited(
        "users.set_role",
        engine::Role::Admin,
        args,
        |services, _| async move {
            let id = parse_user_id(&id)?;
            let role = parse_role(&role)?;
            Ok(UserView::from(
                services::accounts::set_role(&services.store, id, role).await?,
            ))
        },
    )
    .await
}

/// Replaces a user's password (admin) and ends every other session of that user; an admin
/// resetting their own password stays signed in here. The password is never written to the
/// audit log.
#[server(endpoint = "reset_password")]
pub async fn reset_user_password(id: String, password: String) -> Result<(), AppError> {
    use crate::auth::{audited, session, USER_EPOCH_KEY};
    let args = serde_json::json!({ "id": id });
    audited(
        "users.reset_password",
        engine::Role::Admin,
        args,
        |services, admin| async move {
            let id = parse_user_id(&id)?;
            let user = services::accounts::reset_password(&services.store, id, &password).await?;
            if user.id == admin.id {
                let kept = session()
                    .await?
                    .insert(USER_EPOCH_KEY, user.session_epoch)
                    .await;
                if let Err(e) = kept {
                    tracing::error!(error = %e, "could not keep the session after a reset");
                    return Err(AppError::Internal);
                }
            }
            Ok(())
        },
    )
    .await
}

/// Disables a user (`disabled` = `true`: they cannot sign in, and their open sessions end at
/// their next request) or enables them again (admin). The last enabled admin cannot be
/// disabled.
#[server(endpoint = "set_disabled")]
pub async fn set_user_disabled(id: String, disabled: String) -> Result<UserView, AppError> {
    use crate::auth::audited;
    let args = serde_json::json!({ "id": id, "disabled": disabled });
    audited(
        "users.set_disabled",
        engine::Role::Admin,
        args,
        |services, _| async move {
            let id = parse_user_id(&id)?;
            let disabled = match disabled.as_str() {
                "true" => true,
                "false" => false,
                _ => return Err(AppError::invalid("disabled", "must be true or false")),
            };
            Ok(UserView::from(
                services::accounts::set_disabled(&services.store, id, disabled).await?,
            ))
        },
    )
    .await
}

/// Deletes a user (admin); their sessions end at their next request and the audit log keeps
/// their name. The last enabled admin cannot be deleted.
#[server(endpoint = "delete_user")]
pub async fn delete_user(id: String) -> Result<(), AppError> {
    use crate::auth::audited;
    let args = serde_json::json!({ "id": id });
    audited(
        "users.delete",
        engine::Role::Admin,
        args,
        |services, _| async move {
            let id = parse_user_id(&id)?;
            services::accounts::delete(&services.store, id).await?;
            Ok(())
        },
    )
    .await
}
