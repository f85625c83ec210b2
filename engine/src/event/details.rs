//! [`Details`]: the payload of an [`Event`](super::Event), kept as the JSON text it will be
//! written as whenever the engine wrote it from a typed payload.
//!
//! The frequent events of a large estate (a placement, a zone's load sample) are written once
//! as JSON text and never become a tree of maps: building, serializing and dropping that tree
//! was most of a full-scale run's time. Reading a field parses the text on first use and keeps
//! the tree.

use core::fmt;
use core::ops::Deref;
use std::borrow::Cow;
use std::sync::OnceLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::Value;

/// The kind-specific payload of an event: a JSON object.
///
/// It reads as a [`serde_json::Value`] (`details["chosen"]`, `details.get("mode")`) and
/// writes as its JSON text (`to_string()`, or serde_json, which copies the text as is).
#[derive(Clone)]
pub struct Details(Repr);

#[derive(Clone)]
enum Repr {
    /// A tree built by hand (`json!`).
    Tree(Value),
    /// JSON text written from a typed payload, and its tree once something read it.
    Text {
        text: Box<RawValue>,
        tree: OnceLock<Value>,
    },
}

impl Details {
    /// The payload written from `payload`'s `Serialize` implementation, straight to JSON
    /// text. Its fields must be declared in alphabetical order, as the engines write every
    /// object's keys (the event log's lines do not depend on the map type serde_json was built
    /// with). A payload that does not serialize (a map with non-string keys) becomes
    /// `{"error": …}`.
    pub fn of<T: Serialize + ?Sized>(payload: &T) -> Details {
        match serde_json::value::to_raw_value(payload) {
            Ok(text) => Details(Repr::Text {
                text,
                tree: OnceLock::new(),
            }),
            Err(e) => {
                let mut map = serde_json::Map::new();
                map.insert("error".into(), Value::String(e.to_string()));
                Details(Repr::Tree(Value::Object(map)))
            }
        }
    }

    /// The payload as a JSON tree (parsed from its text on first use).
    pub fn value(&self) -> &Value {
        match &self.0 {
            Repr::Tree(v) => v,
            Repr::Text { text, tree } => tree.get_or_init(|| parse(text)),
        }
    }

    /// The payload as a JSON tree, owned.
    pub fn into_value(self) -> Value {
        match self.0 {
            Repr::Tree(v) => v,
            Repr::Text { text, tree } => tree.into_inner().unwrap_or_else(|| parse(&text)),
        }
    }

    /// The JSON text the event log stores: borrowed when the payload was written as text,
    /// serialized from the tree otherwise.
    pub fn json_text(&self) -> Cow<'_, str> {
        match &self.0 {
            Repr::Tree(v) => Cow::Owned(v.to_string()),
            Repr::Text { text, .. } => Cow::Borrowed(text.get()),
        }
    }

    /// The JSON text, when the payload was written as text (no copy, no serialization).
    pub fn as_json_text(&self) -> Option<&str> {
        match &self.0 {
            Repr::Tree(_) => None,
            Repr::Text { text, .. } => Some(text.get()),
        }
    }
}

/// The tree of text that serde_json wrote itself; `null` if it somehow is not JSON.
fn parse(text: &RawValue) -> Value {
    serde_json::from_str(text.get()).unwrap_or(Value::Null)
}

impl From<Value> for Details {
    fn from(v: Value) -> Details {
        Details(Repr::Tree(v))
    }
}

impl From<Details> for Value {
    fn from(d: Details) -> Value {
        d.into_value()
    }
}

impl Default for Details {
    fn default() -> Details {
        Details(Repr::Tree(Value::Null))
    }
}

impl Deref for Details {
    type Target = Value;

    fn deref(&self) -> &Value {
        self.value()
    }
}

impl PartialEq for Details {
    fn eq(&self, other: &Details) -> bool {
        match (self.as_json_text(), other.as_json_text()) {
            (Some(a), Some(b)) if a == b => true,
            _ => self.value() == other.value(),
        }
    }
}

impl PartialEq<Value> for Details {
    fn eq(&self, other: &Value) -> bool {
        self.value() == other
    }
}

impl PartialEq<Details> for Value {
    fn eq(&self, other: &Details) -> bool {
        self == other.value()
    }
}

impl fmt::Debug for Details {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.value(), f)
    }
}

impl fmt::Display for Details {
    /// The JSON text (compact), as the event log stores it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Tree(v) => fmt::Display::fmt(v, f),
            Repr::Text { text, .. } => f.write_str(text.get()),
        }
    }
}

impl Serialize for Details {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Repr::Tree(v) => v.serialize(s),
            // serde_json copies the text as is; any other format gets the tree.
            Repr::Text { text, .. } if s.is_human_readable() => text.serialize(s),
            Repr::Text { .. } => self.value().serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for Details {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Details, D::Error> {
        Value::deserialize(d).map(Details::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Serialize)]
    struct Placed<'a> {
        chosen: &'a str,
        load: Option<u32>,
        share: f64,
    }

    fn placed() -> Details {
        Details::of(&Placed {
            chosen: "XA-1",
            load: None,
            share: 5.0,
        })
    }

    #[test]
    fn text_and_tree_write_the_same_line() {
        let tree = Details::from(json!({"chosen": "XA-1", "load": null, "share": 5.0}));
        let text = placed();
        assert_eq!(
            text.as_json_text(),
            Some(r#"{"chosen":"XA-1","load":null,"share":5.0}"#)
        );
        assert_eq!(tree.to_string(), text.to_string());
        assert_eq!(
            serde_json::to_string(&tree).ok(),
            serde_json::to_string(&text).ok()
        );
        assert_eq!(tree, text);
    }

    #[test]
    fn text_reads_as_a_tree() {
        let d = placed();
        assert_eq!(d["chosen"], "XA-1");
        assert!(d.get("load").is_some_and(Value::is_null));
        assert_eq!(d, json!({"chosen": "XA-1", "load": null, "share": 5.0}));
        assert_eq!(
            Value::from(d.clone()),
            json!({"chosen": "XA-1", "load": null, "share": 5.0})
        );
    }

    #[test]
    fn a_binary_format_gets_the_tree() -> Result<(), Box<dyn std::error::Error>> {
        let d = placed();
        let bytes = rmp_serde::to_vec(&d)?;
        let back: Details = rmp_serde::from_slice(&bytes)?;
        assert_eq!(back, d);
        Ok(())
    }

    #[test]
    fn a_payload_that_cannot_be_json_names_its_error() {
        let mut bad = std::collections::BTreeMap::new();
        bad.insert((1, 2), 3);
        let d = Details::of(&bad);
        assert!(d["error"].as_str().is_some_and(|e| !e.is_empty()));
    }
}
