//! Console roles. They are not part of any engine; they live in this crate because it is the
//! one crate shared by the server and the browser bundle, and both need to compare roles.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// What a signed-in user may do. Ordered: each role includes the rights of the ones before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Browses every page; changes nothing.
    Viewer,
    /// Also drives the clock and acts on the estate (outages, faults, load).
    Operator,
    /// Also edits evaluators and thresholds, and manages users.
    Admin,
}

impl Role {
    /// Every role, lowest first.
    pub const ALL: [Role; 3] = [Role::Viewer, Role::Operator, Role::Admin];

    /// The stored and displayed name (`viewer`, `operator`, `admin`).
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Viewer => "viewer",
            Role::Operator => "operator",
            Role::Admin => "admin",
        }
    }

    /// Whether this role includes the rights of `needed`.
    pub fn allows(self, needed: Role) -> bool {
        self >= needed
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of parsing a role name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown role `{0}`: expected viewer, operator or admin")]
pub struct UnknownRole(pub String);

impl FromStr for Role {
    type Err = UnknownRole;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "viewer" => Ok(Role::Viewer),
            "operator" => Ok(Role::Operator),
            "admin" => Ok(Role::Admin),
            _ => Err(UnknownRole(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_role_allows_itself_and_those_below_only() {
        let table = [
            (Role::Viewer, Role::Viewer, true),
            (Role::Viewer, Role::Operator, false),
            (Role::Viewer, Role::Admin, false),
            (Role::Operator, Role::Viewer, true),
            (Role::Operator, Role::Operator, true),
            (Role::Operator, Role::Admin, false),
            (Role::Admin, Role::Viewer, true),
            (Role::Admin, Role::Operator, true),
            (Role::Admin, Role::Admin, true),
        ];
        for (role, needed, expected) in table {
            assert_eq!(role.allows(needed), expected, "{role} allows {needed}");
        }
    }

    #[test]
    fn parses_names_and_rejects_others() {
        assert_eq!("Admin".parse::<Role>(), Ok(Role::Admin));
        assert_eq!(" viewer ".parse::<Role>(), Ok(Role::Viewer));
        assert!("root".parse::<Role>().is_err());
        for role in Role::ALL {
            assert_eq!(role.as_str().parse::<Role>(), Ok(role));
        }
    }
}
