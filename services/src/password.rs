//! argon2id password hashing. The hash type never serializes and never prints its content.

use argon2::password_hash::{rand_core::OsRng, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

use crate::error::{Result, ServiceError};

/// Shortest password accepted.
pub const MIN_PASSWORD_LEN: usize = 12;
/// How many of the most common passwords are refused as new passwords.
pub const COMMON_PASSWORDS_REFUSED: usize = 10_000;
/// Longest password accepted (hashing cost is bounded).
pub const MAX_PASSWORD_LEN: usize = 256;

/// A PHC-format argon2id hash as stored in `users.password_hash`. Deliberately not `Serialize`.
#[derive(Clone)]
pub struct PasswordHash(String);

impl std::fmt::Debug for PasswordHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PasswordHash(..)")
    }
}

impl PasswordHash {
    /// Wraps a stored PHC string.
    pub fn from_stored(phc: String) -> Self {
        PasswordHash(phc)
    }

    /// The PHC string, for storing.
    pub fn as_stored(&self) -> &str {
        &self.0
    }
}

/// argon2id with the OWASP parameters: 19 MiB of memory, 2 iterations, 1 lane.
fn hasher() -> Result<Argon2<'static>> {
    let params = Params::new(19 * 1024, 2, 1, None)
        .map_err(|e| ServiceError::Internal(format!("argon2 params: {e}")))?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

/// Checks a new password: 12 to 256 characters, not one character repeated, not blank, and
/// not one of the [`COMMON_PASSWORDS_REFUSED`] most common passwords ([`is_common`]). A
/// password already set is never checked again (signing in works as before).
pub fn validate_new_password(password: &str) -> Result<()> {
    let len = password.chars().count();
    if !(MIN_PASSWORD_LEN..=MAX_PASSWORD_LEN).contains(&len) {
        return Err(ServiceError::invalid(
            "password",
            format!("must be {MIN_PASSWORD_LEN} to {MAX_PASSWORD_LEN} characters long (got {len})"),
        ));
    }
    let mut chars = password.chars();
    let first = chars.next();
    if password.trim().is_empty() || chars.all(|c| Some(c) == first) {
        return Err(ServiceError::invalid(
            "password",
            "must not be blank or one character repeated",
        ));
    }
    if is_common(password) {
        return Err(ServiceError::invalid(
            "password",
            format!(
                "is one of the {COMMON_PASSWORDS_REFUSED} most common passwords; choose another"
            ),
        ));
    }
    Ok(())
}

/// Whether `password` as a whole is one of the [`COMMON_PASSWORDS_REFUSED`] most common
/// passwords, in any case or with common letter-for-symbol substitutions (`p@ssw0rd`). The
/// list is the ranked password dictionary of the `zxcvbn` crate (from the 10 million
/// passwords of the xato.net corpus); its rank decides.
pub fn is_common(password: &str) -> bool {
    let last = password.chars().count().saturating_sub(1);
    zxcvbn::zxcvbn(password, &[]).sequence().iter().any(|m| {
        m.i == 0
            && m.j == last
            && matches!(&m.pattern, zxcvbn::matching::patterns::MatchPattern::Dictionary(d)
                // The type of the dictionary's name is not exported: its `Debug` names it.
                if format!("{:?}", d.dictionary_name) == "Passwords"
                    && d.rank <= COMMON_PASSWORDS_REFUSED
                    && !d.reversed)
    })
}

/// Hashes `password` on the blocking pool (argon2 takes tens of milliseconds).
pub async fn hash(password: String) -> Result<PasswordHash> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        hasher()?
            .hash_password(password.as_bytes(), &salt)
            .map(|h| PasswordHash(h.to_string()))
            .map_err(|e| ServiceError::Internal(format!("argon2 hash: {e}")))
    })
    .await
    .map_err(|e| ServiceError::Internal(format!("hashing task: {e}")))?
}

/// Verifies `password` against `stored` on the blocking pool. A malformed stored hash is
/// reported as an internal error, never as a match.
pub async fn verify(password: String, stored: PasswordHash) -> Result<bool> {
    tokio::task::spawn_blocking(move || {
        let parsed = argon2::PasswordHash::new(&stored.0)
            .map_err(|e| ServiceError::Internal(format!("stored hash unreadable: {e}")))?;
        Ok(hasher()?
            .verify_password(password.as_bytes(), &parsed)
            .is_ok())
    })
    .await
    .map_err(|e| ServiceError::Internal(format!("verifying task: {e}")))?
}

/// A random password of 20 letters and digits, for the first admin account.
pub fn random_password() -> String {
    use rand::distributions::{Alphanumeric, DistString};
    Alphanumeric.sample_string(&mut rand::rngs::OsRng, 20)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hash_is_argon2id_and_verifies_only_the_right_password() {
        let h = hash("correct horse".into()).await.expect("hash");
        assert!(h.as_stored().starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(verify("correct horse".into(), h.clone())
            .await
            .expect("verify"));
        assert!(!verify("wrong horse".into(), h).await.expect("verify"));
    }

    #[test]
    fn debug_hides_the_hash() {
        let h = PasswordHash::from_stored("$argon2id$secret".into());
        assert_eq!(format!("{h:?}"), "PasswordHash(..)");
    }

    #[test]
    fn password_length_is_checked() {
        let cases = [
            ("short", false),
            ("eleven char", false),
            ("long enough pass", true),
            ("correct horse battery", true),
            ("            ", false),
            ("aaaaaaaaaaaaaaaa", false),
            // Among the 10,000 most common, whatever the case or substitutions.
            ("qwertyuiopasdfgh", true),
            ("1234567890qwerty", true),
            ("123456789012", true),
        ];
        for (password, accepted) in cases {
            assert_eq!(
                validate_new_password(password).is_ok(),
                accepted,
                "{password:?}"
            );
        }
        for common in [
            "qwertyuiop",
            "1qaz2wsx3edc",
            "password",
            "Password",
            "P@ssw0rd",
        ] {
            assert!(is_common(common), "{common}");
        }
        for rare in ["correct horse battery", "Zx9-tram-Lumen-4"] {
            assert!(!is_common(rare), "{rare}");
        }
        let long_common = "1qaz2wsx3edc";
        assert_eq!(long_common.len(), 12);
        assert!(validate_new_password(long_common).is_err());
        assert!(validate_new_password(&"x".repeat(MAX_PASSWORD_LEN + 1)).is_err());
        assert!(validate_new_password(&"x".repeat(MAX_PASSWORD_LEN + 1)).is_err());
    }
}
