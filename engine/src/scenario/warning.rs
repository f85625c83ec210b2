//! Configuration warnings: valid scenarios that the console should flag (SPEC: a resource
//! location that is not HA-ready, more VDAs than HA mode supports, ...).

use core::fmt;

use serde::{Serialize, Serializer};

use super::error::FieldPath;

/// A warning about a field of a valid scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// The field concerned.
    pub path: FieldPath,
    /// What to look at.
    pub message: String,
}

impl Warning {
    /// A warning about the field at `path`.
    pub fn new(path: FieldPath, message: impl Into<String>) -> Warning {
        Warning {
            path,
            message: message.into(),
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl Serialize for Warning {
    /// As `{"field": "lhc.resource_locations[1].connectors", "message": "..."}`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Warning", 2)?;
        st.serialize_field("field", &self.path.to_string())?;
        st.serialize_field("message", &self.message)?;
        st.end()
    }
}
