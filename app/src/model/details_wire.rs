//! How an event's details travel (server-function answers, the live stream): a details text
//! that is a JSON object goes as that object, any other text as a JSON string.
//!
//! Sent as a string, an object's every quote would be escaped in each answer and stream
//! message. Read back, the object's text is kept byte for byte.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

/// Writes `details` as its object when it is one, else as a string.
pub fn serialize<S: Serializer>(details: &str, serializer: S) -> Result<S::Ok, S::Error> {
    if details.starts_with('{') {
        if let Ok(object) = serde_json::from_str::<&RawValue>(details) {
            return object.serialize(serializer);
        }
    }
    serializer.serialize_str(details)
}

/// Reads details written by [`serialize`] (or as a string, as they were sent before).
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    let raw = Box::<RawValue>::deserialize(deserializer)?;
    let text = raw.get();
    if text.starts_with('{') {
        Ok(text.to_owned())
    } else {
        serde_json::from_str::<String>(text).map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Row {
        #[serde(with = "super")]
        details: String,
    }

    #[test]
    fn details_go_as_objects_when_they_are_and_come_back_byte_for_byte() {
        // (details text, how it is written)
        let cases = [
            (
                r#"{"reason":"cc01 is first"}"#,
                r#"{"details":{"reason":"cc01 is first"}}"#,
            ),
            (
                r#"{"a":[1,2],"b":{"c":null}}"#,
                r#"{"details":{"a":[1,2],"b":{"c":null}}}"#,
            ),
            ("{}", r#"{"details":{}}"#),
            // Not an object: a string, quotes and all.
            ("not json", r#"{"details":"not json"}"#),
            (r#"{"broken":"#, r#"{"details":"{\"broken\":"}"#),
            (r#""a string""#, r#"{"details":"\"a string\""}"#),
            ("[1,2]", r#"{"details":"[1,2]"}"#),
            ("", r#"{"details":""}"#),
        ];
        for (details, wire) in cases {
            let row = Row {
                details: details.to_owned(),
            };
            let written = serde_json::to_string(&row).expect("serializes");
            assert_eq!(written, wire, "{details}");
            let read: Row = serde_json::from_str(&written).expect("deserializes");
            assert_eq!(read, row, "{details}");
        }
    }

    #[test]
    fn details_sent_as_a_string_are_still_read() {
        let read: Row =
            serde_json::from_str(r#"{"details":"{\"reason\":\"x\"}"}"#).expect("deserializes");
        assert_eq!(read.details, r#"{"reason":"x"}"#);
    }
}
