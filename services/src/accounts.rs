//! User accounts: creation, sign-in check, roles, password reset.

use engine::Role;
use serde::Serialize;

use crate::error::{Result, ServiceError};
use crate::password::{self, PasswordHash};
use crate::store::{now_text, on_pool, Dialect, Store};

/// A user as shown to the console (no secret in it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct User {
    /// Row id (also what the session stores).
    pub id: i64,
    /// Unique (case-insensitive) user name.
    pub username: String,
    /// The user's role.
    pub role: Role,
    /// Creation time (RFC 3339, UTC).
    pub created_at: String,
    /// When an admin disabled the account (RFC 3339, UTC); `None` while it is enabled. A
    /// disabled user cannot sign in, and their open sessions end at their next request.
    pub disabled_at: Option<String>,
    /// The session epoch: a session is valid only while it carries this number
    /// ([`find_signed_in`]); a password reset increments it.
    #[serde(skip)]
    pub session_epoch: i64,
}

#[derive(sqlx::FromRow)]
struct UserRow {
    id: i64,
    username: String,
    role: String,
    created_at: String,
    disabled_at: Option<String>,
    session_epoch: i64,
}

/// The columns of a [`UserRow`].
const USER_COLUMNS: &str = "id, username, role, created_at, disabled_at, session_epoch";

impl UserRow {
    fn into_user(self) -> Result<User> {
        let role = self
            .role
            .parse()
            .map_err(|e| ServiceError::Internal(format!("user {}: {e}", self.id)))?;
        Ok(User {
            id: self.id,
            username: self.username,
            role,
            created_at: self.created_at,
            disabled_at: self.disabled_at,
            session_epoch: self.session_epoch,
        })
    }
}

/// Longest user name accepted.
pub const MAX_USERNAME_LEN: usize = 64;

/// Checks a user name: 1 to 64 characters among letters, digits, `.`, `_`, `-`, `@`.
pub fn validate_username(username: &str) -> Result<()> {
    let len = username.chars().count();
    if len == 0 || len > MAX_USERNAME_LEN {
        return Err(ServiceError::invalid(
            "username",
            format!("must be 1 to {MAX_USERNAME_LEN} characters long (got {len})"),
        ));
    }
    if let Some(bad) = username
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '@')))
    {
        return Err(ServiceError::invalid(
            "username",
            format!("may hold letters, digits, '.', '_', '-' and '@' only (found {bad:?})"),
        ));
    }
    Ok(())
}

/// How many accounts exist.
pub async fn count(store: &Store) -> Result<i64> {
    Ok(
        on_pool!(store, pool => sqlx::query_scalar("SELECT COUNT(*) FROM users")
        .fetch_one(pool)
        .await)?,
    )
}

/// Creates a user. Refuses an existing name (case-insensitive) with [`ServiceError::Conflict`].
pub async fn create(store: &Store, username: &str, password: &str, role: Role) -> Result<User> {
    validate_username(username)?;
    password::validate_new_password(password)?;
    if find_by_name(store, username).await?.is_some() {
        return Err(ServiceError::Conflict(format!(
            "a user named `{username}` exists already"
        )));
    }
    let hash = password::hash(password.to_owned()).await?;
    let now = now_text();
    let inserted: std::result::Result<i64, sqlx::Error> = on_pool!(store, pool => sqlx::query_scalar(
        "INSERT INTO users (username, password_hash, role, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5) RETURNING id",
    )
    .bind(username)
    .bind(hash.as_stored())
    .bind(role.as_str())
    .bind(&now)
    .bind(&now)
    .fetch_one(pool)
    .await);
    match inserted {
        Ok(id) => Ok(User {
            id,
            username: username.to_owned(),
            role,
            created_at: now,
            disabled_at: None,
            session_epoch: 0,
        }),
        // A concurrent insert of the same name lost the race against the UNIQUE index.
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Err(ServiceError::Conflict(
            format!("a user named `{username}` exists already"),
        )),
        Err(e) => Err(e.into()),
    }
}

/// The user with this id, if any.
pub async fn find_by_id(store: &Store, id: i64) -> Result<Option<User>> {
    let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1");
    on_pool!(store, pool => sqlx::query_as::<_, UserRow>(&sql)
        .bind(id)
        .fetch_optional(pool)
        .await)?
    .map(UserRow::into_user)
    .transpose()
}

/// The user with this name (case-insensitive), if any.
pub async fn find_by_name(store: &Store, username: &str) -> Result<Option<User>> {
    let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE lower(username) = lower($1)");
    on_pool!(store, pool => sqlx::query_as::<_, UserRow>(&sql)
    .bind(username)
    .fetch_optional(pool)
    .await)?
    .map(UserRow::into_user)
    .transpose()
}

/// Every user, by name.
pub async fn list(store: &Store) -> Result<Vec<User>> {
    let sql = format!("SELECT {USER_COLUMNS} FROM users ORDER BY lower(username)");
    on_pool!(store, pool => sqlx::query_as::<_, UserRow>(&sql)
    .fetch_all(pool)
    .await)?
    .into_iter()
    .map(UserRow::into_user)
    .collect()
}

/// Checks a name and password. Returns the user when they match and the account is enabled,
/// `None` otherwise. When the user does not exist a dummy hash is still verified, so timing
/// does not reveal user names.
pub async fn authenticate(store: &Store, username: &str, password: &str) -> Result<Option<User>> {
    let row: Option<(i64, String, Option<String>)> = on_pool!(store, pool => sqlx::query_as("SELECT id, password_hash, disabled_at FROM users WHERE lower(username) = lower($1)")
            .bind(username)
            .fetch_optional(pool)
            .await)?;
    match row {
        Some((id, stored, disabled_at)) => {
            let matches =
                password::verify(password.to_owned(), PasswordHash::from_stored(stored)).await?;
            // A disabled account costs the same verification and answers the same.
            if matches && disabled_at.is_none() {
                find_by_id(store, id).await
            } else {
                Ok(None)
            }
        }
        None => {
            let dummy = dummy_hash().await?;
            let _ = password::verify(password.to_owned(), dummy).await?;
            Ok(None)
        }
    }
}

async fn dummy_hash() -> Result<PasswordHash> {
    static DUMMY: tokio::sync::OnceCell<PasswordHash> = tokio::sync::OnceCell::const_new();
    DUMMY
        .get_or_try_init(|| password::hash(password::random_password()))
        .await
        .cloned()
}

/// The user a session belongs to, when that session is still valid: the account exists, is
/// enabled, and its session epoch is the one the session was signed in with (`epoch`). The
/// one check behind the sign-in gate and every server function.
pub async fn find_signed_in(store: &Store, id: i64, epoch: i64) -> Result<Option<User>> {
    Ok(find_by_id(store, id)
        .await?
        .filter(|user| user.disabled_at.is_none() && user.session_epoch == epoch))
}

/// A change to one account that may take an admin away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Change {
    /// A new role.
    Role(Role),
    /// Disabled (`true`) or enabled again.
    Disabled(bool),
    /// Deleted.
    Delete,
}

/// Applies `change` to user `id`, refusing one that would leave no enabled admin: the count
/// of admins and the change are one transaction that holds the admins still — SQLite's write
/// lock taken by `BEGIN IMMEDIATE`, PostgreSQL's row locks on every admin (`FOR UPDATE`) — so
/// two admins demoting, disabling or deleting each other at the same time leave one.
async fn change_guarded(store: &Store, id: i64, change: Change) -> Result<()> {
    let (begin, lock) = match store.dialect() {
        Dialect::Sqlite => ("BEGIN IMMEDIATE", ""),
        Dialect::Postgres => ("BEGIN", " FOR UPDATE"),
    };
    let admins_sql =
        format!("SELECT id FROM users WHERE role = 'admin' AND disabled_at IS NULL{lock}");
    let takes_admin = match change {
        Change::Role(role) => role != Role::Admin,
        Change::Disabled(disabled) => disabled,
        Change::Delete => true,
    };
    let now = now_text();
    on_pool!(store, pool => async {
        let mut conn = pool.acquire().await?;
        let mut tx = sqlx::Connection::begin_with(&mut *conn, begin).await?;
        let admins: Vec<i64> = sqlx::query_scalar(&admins_sql).fetch_all(&mut *tx).await?;
        if takes_admin && admins == [id] {
            let (field, message) = match change {
                Change::Role(_) => ("role", "the last admin cannot be demoted; make another user admin first"),
                Change::Disabled(_) => ("id", "the last enabled admin cannot be disabled; make another user admin first"),
                Change::Delete => ("id", "the last enabled admin cannot be deleted; make another user admin first"),
            };
            return Err(ServiceError::invalid(field, message));
        }
        let done = match change {
            Change::Role(role) => sqlx::query("UPDATE users SET role = $1, updated_at = $2 WHERE id = $3")
                .bind(role.as_str())
                .bind(&now)
                .bind(id)
                .execute(&mut *tx)
                .await?,
            Change::Disabled(true) => sqlx::query(
                "UPDATE users SET disabled_at = COALESCE(disabled_at, $1), updated_at = $1 WHERE id = $2",
            )
                .bind(&now)
                .bind(id)
                .execute(&mut *tx)
                .await?,
            Change::Disabled(false) => sqlx::query(
                "UPDATE users SET disabled_at = NULL, updated_at = $1 WHERE id = $2",
            )
                .bind(&now)
                .bind(id)
                .execute(&mut *tx)
                .await?,
            Change::Delete => sqlx::query("DELETE FROM users WHERE id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?,
        };
        if done.rows_affected() == 0 {
            return Err(ServiceError::NotFound(format!("no user with id {id}")));
        }
        tx.commit().await?;
        Ok(())
    }
    .await)?;
    store.account_changed();
    Ok(())
}

/// Changes a user's role. Refuses to demote the last enabled admin ([`change_guarded`]).
pub async fn set_role(store: &Store, id: i64, role: Role) -> Result<User> {
    change_guarded(store, id, Change::Role(role)).await?;
    found(store, id).await
}

/// Disables a user (`true`: they cannot sign in and their open sessions end at their next
/// request) or enables them again. Refuses to disable the last enabled admin.
pub async fn set_disabled(store: &Store, id: i64, disabled: bool) -> Result<User> {
    change_guarded(store, id, Change::Disabled(disabled)).await?;
    found(store, id).await
}

/// Deletes a user; their sessions end at their next request and the audit log keeps their
/// name. Refuses to delete the last enabled admin. Returns the user as they were.
pub async fn delete(store: &Store, id: i64) -> Result<User> {
    let user = found(store, id).await?;
    change_guarded(store, id, Change::Delete).await?;
    Ok(user)
}

/// The user with this id, or [`ServiceError::NotFound`].
async fn found(store: &Store, id: i64) -> Result<User> {
    find_by_id(store, id)
        .await?
        .ok_or_else(|| ServiceError::NotFound(format!("no user with id {id}")))
}

/// Replaces a user's password and increments their session epoch, which ends every session
/// they have open ([`find_signed_in`]); the caller keeps its own session by storing the new
/// epoch in it. Returns the user with the new epoch.
pub async fn reset_password(store: &Store, id: i64, password: &str) -> Result<User> {
    password::validate_new_password(password)?;
    let user = found(store, id).await?;
    let hash = password::hash(password.to_owned()).await?;
    let epoch: Option<i64> = on_pool!(store, pool => sqlx::query_scalar(
        "UPDATE users SET password_hash = $1, updated_at = $2, session_epoch = session_epoch + 1 \
         WHERE id = $3 RETURNING session_epoch",
    )
    .bind(hash.as_stored())
    .bind(now_text())
    .bind(id)
    .fetch_optional(pool)
    .await)?;
    let session_epoch =
        epoch.ok_or_else(|| ServiceError::NotFound(format!("no user with id {id}")))?;
    store.account_changed();
    Ok(User {
        session_epoch,
        ..user
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn pool() -> Store {
        crate::store::Store::connect("sqlite::memory:")
            .await
            .expect("store")
    }

    #[tokio::test]
    async fn create_then_authenticate() {
        let pool = pool().await;
        let user = create(&pool, "alice", "s3cret-passphrase", Role::Operator)
            .await
            .expect("create");
        assert_eq!(user.role, Role::Operator);
        let ok = authenticate(&pool, "ALICE", "s3cret-passphrase")
            .await
            .expect("auth");
        assert_eq!(ok.map(|u| u.id), Some(user.id));
        assert_eq!(
            authenticate(&pool, "alice", "nope-nope")
                .await
                .expect("auth"),
            None
        );
        assert_eq!(
            authenticate(&pool, "bob", "s3cret-passphrase")
                .await
                .expect("auth"),
            None
        );
    }

    #[tokio::test]
    async fn refuses_an_existing_name_case_insensitively() {
        let pool = pool().await;
        create(&pool, "alice", "s3cret-passphrase", Role::Viewer)
            .await
            .expect("create");
        let err = create(&pool, "Alice", "other-passphrase", Role::Admin)
            .await
            .expect_err("duplicate refused");
        assert!(matches!(err, ServiceError::Conflict(_)), "{err}");
        assert_eq!(count(&pool).await.expect("count"), 1);
    }

    #[tokio::test]
    async fn validates_names_and_passwords_and_stores_nothing_on_error() {
        let pool = pool().await;
        let table = [
            ("", "long-enough", "username"),
            ("bad name", "long-enough", "username"),
            ("ok", "short", "password"),
        ];
        for (name, pass, field) in table {
            match create(&pool, name, pass, Role::Viewer).await {
                Err(ServiceError::Invalid { field: f, .. }) => assert_eq!(f, field),
                other => panic!("{name:?}/{pass:?}: expected invalid {field}, got {other:?}"),
            }
        }
        assert_eq!(count(&pool).await.expect("count"), 0);
    }

    #[tokio::test]
    async fn the_last_admin_cannot_be_demoted() {
        let pool = pool().await;
        let admin = create(&pool, "root", "s3cret-passphrase", Role::Admin)
            .await
            .expect("create");
        assert!(set_role(&pool, admin.id, Role::Viewer).await.is_err());
        let other = create(&pool, "second", "s3cret-passphrase", Role::Admin)
            .await
            .expect("create");
        assert_eq!(
            set_role(&pool, admin.id, Role::Viewer)
                .await
                .expect("demote")
                .role,
            Role::Viewer
        );
        assert!(set_role(&pool, other.id, Role::Operator).await.is_err());
    }

    #[tokio::test]
    async fn reset_password_replaces_the_old_one() {
        let pool = pool().await;
        let u = create(&pool, "carol", "first-passphrase", Role::Viewer)
            .await
            .expect("create");
        reset_password(&pool, u.id, "second-passphrase")
            .await
            .expect("reset");
        assert!(authenticate(&pool, "carol", "first-passphrase")
            .await
            .expect("auth")
            .is_none());
        assert!(authenticate(&pool, "carol", "second-passphrase")
            .await
            .expect("auth")
            .is_some());
    }
}
