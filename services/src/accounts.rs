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
}

#[derive(sqlx::FromRow)]
struct UserRow {
    id: i64,
    username: String,
    role: String,
    created_at: String,
}

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
    on_pool!(store, pool => sqlx::query_as::<_, UserRow>("SELECT id, username, role, created_at FROM users WHERE id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await)?
        .map(UserRow::into_user)
        .transpose()
}

/// The user with this name (case-insensitive), if any.
pub async fn find_by_name(store: &Store, username: &str) -> Result<Option<User>> {
    on_pool!(store, pool => sqlx::query_as::<_, UserRow>(
        "SELECT id, username, role, created_at FROM users WHERE lower(username) = lower($1)",
    )
    .bind(username)
    .fetch_optional(pool)
    .await)?
    .map(UserRow::into_user)
    .transpose()
}

/// Every user, by name.
pub async fn list(store: &Store) -> Result<Vec<User>> {
    on_pool!(store, pool => sqlx::query_as::<_, UserRow>(
        "SELECT id, username, role, created_at FROM users ORDER BY lower(username)",
    )
    .fetch_all(pool)
    .await)?
    .into_iter()
    .map(UserRow::into_user)
    .collect()
}

/// Checks a name and password. Returns the user when they match, `None` otherwise. When the
/// user does not exist a dummy hash is still verified, so timing does not reveal user names.
pub async fn authenticate(store: &Store, username: &str, password: &str) -> Result<Option<User>> {
    let row: Option<(i64, String)> = on_pool!(store, pool => sqlx::query_as("SELECT id, password_hash FROM users WHERE lower(username) = lower($1)")
            .bind(username)
            .fetch_optional(pool)
            .await)?;
    match row {
        Some((id, stored)) => {
            if password::verify(password.to_owned(), PasswordHash::from_stored(stored)).await? {
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

/// Changes a user's role. Refuses to demote the last admin: the count of admins and the
/// change are one transaction that holds the admins still — SQLite's write lock taken by
/// `BEGIN IMMEDIATE`, PostgreSQL's row locks on every admin (`FOR UPDATE`) — so two admins
/// demoting each other at the same time leave one of them admin.
pub async fn set_role(store: &Store, id: i64, role: Role) -> Result<User> {
    let user = find_by_id(store, id)
        .await?
        .ok_or_else(|| ServiceError::NotFound(format!("no user with id {id}")))?;
    let (begin, admins_sql) = match store.dialect() {
        Dialect::Sqlite => (
            "BEGIN IMMEDIATE",
            "SELECT id FROM users WHERE role = 'admin'",
        ),
        Dialect::Postgres => (
            "BEGIN",
            "SELECT id FROM users WHERE role = 'admin' FOR UPDATE",
        ),
    };
    on_pool!(store, pool => async {
        let mut conn = pool.acquire().await?;
        let mut tx = sqlx::Connection::begin_with(&mut *conn, begin).await?;
        let admins: Vec<i64> = sqlx::query_scalar(admins_sql).fetch_all(&mut *tx).await?;
        if role != Role::Admin && admins.iter().all(|&admin| admin == id) && admins.contains(&id) {
            return Err(ServiceError::invalid(
                "role",
                "the last admin cannot be demoted; make another user admin first",
            ));
        }
        sqlx::query("UPDATE users SET role = $1, updated_at = $2 WHERE id = $3")
            .bind(role.as_str())
            .bind(now_text())
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }
    .await)?;
    Ok(User { role, ..user })
}

/// Replaces a user's password.
pub async fn reset_password(store: &Store, id: i64, password: &str) -> Result<User> {
    password::validate_new_password(password)?;
    let user = find_by_id(store, id)
        .await?
        .ok_or_else(|| ServiceError::NotFound(format!("no user with id {id}")))?;
    let hash = password::hash(password.to_owned()).await?;
    on_pool!(store, pool => sqlx::query("UPDATE users SET password_hash = $1, updated_at = $2 WHERE id = $3")
        .bind(hash.as_stored())
        .bind(now_text())
        .bind(id)
        .execute(pool)
        .await.map(|_| ()))?;
    Ok(user)
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
        let user = create(&pool, "alice", "s3cret-pass", Role::Operator)
            .await
            .expect("create");
        assert_eq!(user.role, Role::Operator);
        let ok = authenticate(&pool, "ALICE", "s3cret-pass")
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
            authenticate(&pool, "bob", "s3cret-pass")
                .await
                .expect("auth"),
            None
        );
    }

    #[tokio::test]
    async fn refuses_an_existing_name_case_insensitively() {
        let pool = pool().await;
        create(&pool, "alice", "s3cret-pass", Role::Viewer)
            .await
            .expect("create");
        let err = create(&pool, "Alice", "other-pass", Role::Admin)
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
        let admin = create(&pool, "root", "s3cret-pass", Role::Admin)
            .await
            .expect("create");
        assert!(set_role(&pool, admin.id, Role::Viewer).await.is_err());
        let other = create(&pool, "second", "s3cret-pass", Role::Admin)
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
        let u = create(&pool, "carol", "first-pass", Role::Viewer)
            .await
            .expect("create");
        reset_password(&pool, u.id, "second-pass")
            .await
            .expect("reset");
        assert!(authenticate(&pool, "carol", "first-pass")
            .await
            .expect("auth")
            .is_none());
        assert!(authenticate(&pool, "carol", "second-pass")
            .await
            .expect("auth")
            .is_some());
    }
}
