//! The wire and file form of [`Action`]: one flat table with a `kind`, whatever the engine.
//!
//! Serializing writes the engine's own action (internally tagged by `kind`). Deserializing
//! reads the table's entries in file order, finds `kind`, and hands the same entries to the
//! engine whose [`KINDS`](Action::KINDS) list it, so that engine's `deny_unknown_fields` and
//! field errors apply unchanged. An unknown kind lists every kind, as a single enum would.

use core::fmt;

use serde::de::value::MapDeserializer;
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::buffer::Buffer;
use super::Action;
use crate::event::EngineId;

impl Serialize for Action {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Action::Core(a) => a.serialize(s),
            Action::Lhc(a) => a.serialize(s),
            Action::Lms(a) => a.serialize(s),
            Action::Gslb(a) => a.serialize(s),
            Action::Autoscale(a) => a.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Action, D::Error> {
        d.deserialize_map(ActionVisitor)
    }
}

struct ActionVisitor;

impl<'de> Visitor<'de> for ActionVisitor {
    type Value = Action;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an action table with a `kind`")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Action, A::Error> {
        let mut entries: Vec<(Buffer, Buffer)> = Vec::new();
        let mut kind: Option<String> = None;
        while let Some((key, value)) = map.next_entry::<String, Buffer>()? {
            if key == "kind" && kind.is_none() {
                kind = match &value {
                    Buffer::Str(k) => Some(k.clone()),
                    other => {
                        let unexpected = other.unexpected();
                        return Err(de::Error::invalid_type(unexpected, &"variant identifier"));
                    }
                };
            }
            entries.push((Buffer::Str(key), value));
        }
        let kind = kind.ok_or_else(|| de::Error::missing_field("kind"))?;
        let engine = Action::engine_of(&kind)
            .ok_or_else(|| de::Error::unknown_variant(&kind, &Action::KINDS))?;
        let fields = || MapDeserializer::new(entries.into_iter());
        let action = match engine {
            EngineId::Core => Deserialize::deserialize(fields()).map(Action::Core),
            EngineId::Lhc => Deserialize::deserialize(fields()).map(Action::Lhc),
            EngineId::Lms => Deserialize::deserialize(fields()).map(Action::Lms),
            EngineId::Gslb => Deserialize::deserialize(fields()).map(Action::Gslb),
            EngineId::Autoscale => Deserialize::deserialize(fields()).map(Action::Autoscale),
        };
        action.map_err(de::Error::custom)
    }
}

/// (De)serializes an instant as the duration since the start (`"5m"`).
pub(super) mod at_as_duration {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::clock::{SimDuration, SimTime};

    pub(crate) fn serialize<S: Serializer>(at: &SimTime, s: S) -> Result<S::Ok, S::Error> {
        at.since_start().serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<SimTime, D::Error> {
        SimDuration::deserialize(d).map(|since| SimTime::ZERO.saturating_add(since))
    }
}

#[cfg(test)]
mod tests {
    use super::super::TimedAction;
    use super::*;
    use crate::clock::{SimDuration, SimTime};
    use crate::core::CoreAction;
    use crate::lhc::{Component, LhcAction};

    #[test]
    fn timed_action_json_is_flat() -> Result<(), serde_json::Error> {
        let a = TimedAction {
            at: SimTime::from_mins(5),
            actor: Some("alice".into()),
            action: CoreAction::HeartbeatInterval {
                heartbeat: "hb".into(),
                interval: SimDuration::from_secs(30),
            }
            .into(),
        };
        let json = serde_json::to_string(&a)?;
        assert_eq!(
            json,
            r#"{"at":"5m","actor":"alice","kind":"heartbeat_interval","heartbeat":"hb","interval":"30s"}"#
        );
        assert_eq!(serde_json::from_str::<TimedAction>(&json)?, a);
        Ok(())
    }

    #[test]
    fn lhc_actions_are_flat_too() -> Result<(), serde_json::Error> {
        let a = TimedAction {
            at: SimTime::from_mins(1),
            actor: None,
            action: LhcAction::ForceOutage {
                resource_location: "paris".into(),
                connector: None,
            }
            .into(),
        };
        let json = serde_json::to_string(&a)?;
        assert_eq!(
            json,
            r#"{"at":"1m","kind":"force_outage","resource_location":"paris"}"#
        );
        assert_eq!(serde_json::from_str::<TimedAction>(&json)?, a);
        let fail: Action = serde_json::from_str(
            r#"{"kind":"connector_fail","connector":"cc1","component":"ha_service"}"#,
        )?;
        assert_eq!(
            fail,
            Action::Lhc(LhcAction::ConnectorFail {
                connector: "cc1".into(),
                component: Some(Component::HaService),
            })
        );
        assert_eq!(fail.engine(), EngineId::Lhc);
        assert_eq!(fail.kind(), "connector_fail");
        assert_eq!(
            crate::action::ActionError::UnknownVda("x".into()).field(),
            Some("vda")
        );
        Ok(())
    }

    #[test]
    fn unknown_fields_are_rejected() {
        let err = serde_json::from_str::<TimedAction>(r#"{"at":"1s","kind":"note","txt":"x"}"#)
            .map_err(|e| e.to_string());
        assert!(err.is_err_and(|e| e.contains("unknown field `txt`")));
    }

    #[test]
    fn kinds_and_fields() {
        let a = Action::from(CoreAction::HeartbeatPause {
            heartbeat: "x".into(),
        });
        assert_eq!(a.kind(), "heartbeat_pause");
        assert_eq!(a.engine(), EngineId::Core);
        use crate::action::ActionError;
        assert_eq!(
            ActionError::IntervalTooShort(SimDuration(500)).to_string(),
            "interval must be at least 1s; got 500ms"
        );
        assert_eq!(
            ActionError::NotPaused("x".into()).field(),
            Some("heartbeat")
        );
    }

    #[test]
    fn a_missing_or_unknown_kind_is_named() {
        let err = |json: &str| serde_json::from_str::<Action>(json).map_err(|e| e.to_string());
        assert!(err(r#"{"text":"x"}"#).is_err_and(|e| e.starts_with("missing field `kind`")));
        assert!(
            err(r#"{"kind":"reboot_everything"}"#).is_err_and(|e| e.starts_with(
                "unknown variant `reboot_everything`, expected one of `note`, `heartbeat_pause`"
            ))
        );
        assert!(err(r#"{"kind":7}"#).is_err_and(
            |e| e.starts_with("invalid type: integer `7`, expected variant identifier")
        ));
        assert!(err(r#"{"kind":"site_down","site":3}"#)
            .is_err_and(|e| e.starts_with("invalid type: integer `3`, expected a string")));
    }

    #[test]
    fn every_kind_names_exactly_one_engine() {
        for kind in Action::KINDS {
            let owners = [
                CoreAction::KINDS.contains(&kind),
                LhcAction::KINDS.contains(&kind),
                crate::lms::LmsAction::KINDS.contains(&kind),
                crate::gslb::GslbAction::KINDS.contains(&kind),
                crate::autoscale::AutoscaleAction::KINDS.contains(&kind),
            ];
            assert_eq!(owners.iter().filter(|o| **o).count(), 1, "{kind}");
            assert!(Action::engine_of(kind).is_some(), "{kind}");
        }
    }
}
