//! Reading an event's details: typed look-ups for the templates, and the generic form every
//! kind without a template reads as (`name value`, nested fields in parentheses).

use engine::SimDuration;
use serde_json::{Map, Value};

/// An event's details object, read field by field. Every look-up is `None` when the field is
/// missing or of another type, so a template meeting details of another shape gives up
/// (and the event reads through [`in_words`]).
#[derive(Clone, Copy)]
pub(super) struct Fields<'a>(pub &'a Map<String, Value>);

impl<'a> Fields<'a> {
    /// A text field.
    pub fn text(self, key: &str) -> Option<&'a str> {
        self.0.get(key)?.as_str()
    }

    /// A whole, non-negative number.
    pub fn int(self, key: &str) -> Option<u64> {
        self.0.get(key)?.as_u64()
    }

    /// A whole number, maybe negative.
    pub fn signed(self, key: &str) -> Option<i64> {
        self.0.get(key)?.as_i64()
    }

    /// Any number, written as a person reads it (`400` for `400.0`).
    pub fn number(self, key: &str) -> Option<String> {
        self.0.get(key)?.as_f64().map(number)
    }

    /// A yes/no field.
    pub fn flag(self, key: &str) -> Option<bool> {
        self.0.get(key)?.as_bool()
    }

    /// A list of texts (`None` when any item is not a text).
    pub fn texts(self, key: &str) -> Option<Vec<&'a str>> {
        self.0
            .get(key)?
            .as_array()?
            .iter()
            .map(Value::as_str)
            .collect()
    }

    /// A list of objects (`None` when any item is not an object).
    pub fn objects(self, key: &str) -> Option<Vec<Fields<'a>>> {
        self.0
            .get(key)?
            .as_array()?
            .iter()
            .map(|v| v.as_object().map(Fields))
            .collect()
    }

    /// A nested object.
    pub fn object(self, key: &str) -> Option<Fields<'a>> {
        self.0.get(key)?.as_object().map(Fields)
    }

    /// Whether the field is missing or null.
    pub fn is_null(self, key: &str) -> bool {
        self.0.get(key).is_none_or(Value::is_null)
    }
}

/// A number as a person reads it: no `.0` on whole numbers, at most two decimals.
pub(super) fn number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{n:.0}")
    } else {
        let text = format!("{n:.2}");
        text.trim_end_matches('0').trim_end_matches('.').to_owned()
    }
}

/// A simulated duration: `250 ms`, `4.1 s` under a minute, else as scenario files write it
/// (`10m`, `1h30m`).
pub(super) fn duration(ms: u64) -> String {
    match ms {
        0..1_000 => format!("{ms} ms"),
        1_000..60_000 => format!("{} s", number((ms as f64 / 100.0).round() / 10.0)),
        _ => SimDuration::from_millis(ms / 1_000 * 1_000).to_string(),
    }
}

/// `1 server`, `3 servers`.
pub(super) fn counted(n: u64, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {one}s")
    }
}

/// `A, B`, or `none` when there is nothing.
pub(super) fn listed(items: &[&str], none: &str) -> String {
    if items.is_empty() {
        none.to_owned()
    } else {
        items.join(", ")
    }
}

/// A switch's state: `on` or `off`.
pub(super) fn on_off(on: bool) -> &'static str {
    if on {
        "on"
    } else {
        "off"
    }
}

/// A field name in words: underscores as spaces.
pub(super) fn spaced(name: &str) -> String {
    name.replace('_', " ")
}

/// Fields as `name value` pairs joined by ` · `: `interval 1000 ms · seq 1`. Empty fields
/// (null, `{}`, `[]`) are left out.
pub(super) fn in_words(fields: &Map<String, Value>) -> String {
    fields
        .iter()
        .filter(|(_, value)| !is_empty(value))
        .map(|(name, value)| named(name, value))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// One field: its name with underscores as spaces and a unit suffix (`_ms`, `_s`, `_min`)
/// after the value.
pub(super) fn named(name: &str, value: &Value) -> String {
    let (name, unit) = name_and_unit(name);
    format!("{name} {}{unit}", value_in_words(value))
}

/// A field's name in words and the unit its suffix stands for: `watch_time_min` is
/// (`watch time`, ` min`).
pub(super) fn name_and_unit(name: &str) -> (String, &'static str) {
    let (stem, unit) = [("_ms", " ms"), ("_s", " s"), ("_min", " min")]
        .iter()
        .find_map(|(suffix, unit)| name.strip_suffix(suffix).map(|stem| (stem, *unit)))
        .unwrap_or((name, ""));
    (spaced(stem), unit)
}

/// A value in words: text as is, a list joined by commas, an object as its fields in
/// parentheses.
fn value_in_words(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Array(items) => items
            .iter()
            .filter(|item| !is_empty(item))
            .map(value_in_words)
            .collect::<Vec<_>>()
            .join(", "),
        Value::Object(fields) => {
            let inner: Vec<String> = fields
                .iter()
                .filter(|(_, v)| !is_empty(v))
                .map(|(name, v)| named(name, v))
                .collect();
            format!("({})", inner.join(", "))
        }
        other => other.to_string(),
    }
}

fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Array(items) => items.is_empty(),
        Value::Object(fields) => fields.is_empty(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::{counted, duration, number};

    #[test]
    fn numbers_and_durations_read_as_a_person_writes_them() {
        let numbers = [
            (400.0, "400"),
            (22.27, "22.27"),
            (54.851, "54.85"),
            (0.5, "0.5"),
        ];
        for (n, want) in numbers {
            assert_eq!(number(n), want, "{n}");
        }
        let durations = [
            (250, "250 ms"),
            (4_074, "4.1 s"),
            (30_000, "30 s"),
            (600_000, "10m"),
            (5_400_000, "1h30m"),
            (60_500, "1m"),
        ];
        for (ms, want) in durations {
            assert_eq!(duration(ms), want, "{ms}");
        }
        assert_eq!(counted(1, "node"), "1 node");
        assert_eq!(counted(0, "node"), "0 nodes");
    }
}
