//! The [`Event`]: every state change of every engine, and every operator action, as one
//! JSON line of the event log.

use core::fmt;
use core::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::clock::SimTime;

mod details;

pub use details::Details;

/// Which engine emitted an event.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineId {
    /// The heartbeat engine and the simulation itself (start, operator notes).
    Core,
    /// Local Host Cache / HA mode of Cloud Connectors (SPEC §1).
    Lhc,
    /// Load management: zones, data collectors, load evaluators (SPEC §2).
    Lms,
    /// GSLB parent-child topology over MEP (SPEC §3).
    Gslb,
    /// Autoscale of ADC clusters (SPEC §4).
    Autoscale,
}

impl EngineId {
    /// Every engine, in the fixed order the simulation advances them.
    pub const ALL: [EngineId; 5] = [
        EngineId::Core,
        EngineId::Lhc,
        EngineId::Lms,
        EngineId::Gslb,
        EngineId::Autoscale,
    ];

    /// The serialized name (`"core"`, `"lhc"`, ...).
    pub const fn as_str(self) -> &'static str {
        match self {
            EngineId::Core => "core",
            EngineId::Lhc => "lhc",
            EngineId::Lms => "lms",
            EngineId::Gslb => "gslb",
            EngineId::Autoscale => "autoscale",
        }
    }
}

impl fmt::Display for EngineId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A text that names no [`EngineId`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown engine `{input}`; expected one of: core, lhc, lms, gslb, autoscale")]
pub struct EngineIdParseError {
    /// The rejected text.
    pub input: String,
}

impl FromStr for EngineId {
    type Err = EngineIdParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EngineId::ALL
            .into_iter()
            .find(|id| id.as_str() == s)
            .ok_or_else(|| EngineIdParseError {
                input: s.to_owned(),
            })
    }
}

/// One entry of the event log.
///
/// The field order is the JSON order: `t_ms`, `engine`, `subject`, `kind`, `details`, then
/// `actor` only when an operator caused the event. `details` is a small JSON object whose keys
/// engines write in alphabetical order, so the line is the same whichever map type serde_json
/// was built with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// Simulated milliseconds since the scenario started.
    pub t_ms: u64,
    /// The engine that emitted the event.
    pub engine: EngineId,
    /// What the event is about: a heartbeat, resource location, connector, server, zone,
    /// site, group, node, ... (an id from the scenario).
    pub subject: String,
    /// Dotted event kind, e.g. `heartbeat` or `heartbeat.paused`.
    pub kind: String,
    /// Kind-specific payload (a JSON object).
    pub details: Details,
    /// The operator who caused the event, if any.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub actor: Option<String>,
}

impl Event {
    /// An event at `t` with no actor.
    pub fn new(
        t: SimTime,
        engine: EngineId,
        subject: impl Into<String>,
        kind: impl Into<String>,
        details: impl Into<Details>,
    ) -> Event {
        Event {
            t_ms: t.as_millis(),
            engine,
            subject: subject.into(),
            kind: kind.into(),
            details: details.into(),
            actor: None,
        }
    }

    /// The same event attributed to `actor`.
    pub fn with_actor(mut self, actor: Option<String>) -> Event {
        self.actor = actor;
        self
    }

    /// When the event happened.
    pub fn time(&self) -> SimTime {
        SimTime(self.t_ms)
    }

    /// The event as one line of JSON (no trailing newline).
    pub fn to_json_line(&self) -> String {
        // Serializing a struct of strings, integers and a `Value` cannot fail; the fallback
        // keeps this path panic-free anyway.
        serde_json::to_string(self).unwrap_or_else(|e| {
            format!(
                "{{\"t_ms\":{},\"engine\":\"{}\",\"subject\":\"event\",\"kind\":\"serialization.failed\",\"details\":{{\"error\":{}}}}}",
                self.t_ms,
                self.engine,
                serde_json::Value::String(e.to_string())
            )
        })
    }
}

/// Attributes `events` (those an operator action caused) to `actor`, keeping any actor an
/// event already names.
pub(crate) fn attribute(events: &mut [Event], actor: Option<&str>) {
    for e in events.iter_mut().filter(|e| e.actor.is_none()) {
        e.actor = actor.map(str::to_owned);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn engine_ids_round_trip() -> Result<(), serde_json::Error> {
        for id in EngineId::ALL {
            assert_eq!(id.as_str().parse::<EngineId>(), Ok(id));
            assert_eq!(serde_json::to_string(&id)?, format!("\"{id}\""));
        }
        let err = "LMS".parse::<EngineId>().map_err(|e| e.to_string());
        assert_eq!(
            err,
            Err("unknown engine `LMS`; expected one of: core, lhc, lms, gslb, autoscale".into())
        );
        Ok(())
    }

    #[test]
    fn json_line_has_fixed_field_order() {
        let e = Event::new(
            SimTime::from_secs(5),
            EngineId::Core,
            "hb-1",
            "heartbeat",
            json!({"interval_ms": 1000, "jitter_ms": -3, "seq": 1}),
        );
        assert_eq!(
            e.to_json_line(),
            r#"{"t_ms":5000,"engine":"core","subject":"hb-1","kind":"heartbeat","details":{"interval_ms":1000,"jitter_ms":-3,"seq":1}}"#
        );
        let with = e.with_actor(Some("alice".into()));
        assert!(with.to_json_line().ends_with(r#","actor":"alice"}"#));
    }

    #[test]
    fn json_line_parses_back() -> Result<(), serde_json::Error> {
        let e = Event::new(SimTime(1), EngineId::Gslb, "P1", "mep.down", json!({}))
            .with_actor(Some("bob".into()));
        let back: Event = serde_json::from_str(&e.to_json_line())?;
        assert_eq!(back, e);
        let no_actor: Event = serde_json::from_str(
            r#"{"t_ms":0,"engine":"lms","subject":"s","kind":"k","details":null}"#,
        )?;
        assert_eq!(no_actor.actor, None);
        assert_eq!(no_actor.time(), SimTime::ZERO);
        Ok(())
    }
}
