//! [`Buffer`]: one value of any self-describing format (TOML, JSON), held as read, so an
//! action table can be read once, routed by its `kind`, and then decoded by its engine's own
//! type with the same errors a direct decoding would give. It keeps what a JSON value would
//! lose (NaN and infinities, the order of keys) and reports errors in serde's own words.

use core::fmt;

use serde::de::value::{Error, MapDeserializer, SeqDeserializer};
use serde::de::{self, Deserialize, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor};

/// A buffered value.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Buffer {
    Bool(bool),
    I64(i64),
    U64(u64),
    F64(f64),
    Str(String),
    /// JSON `null` (TOML has none).
    Unit,
    Seq(Vec<Buffer>),
    /// Entries in the order they were read.
    Map(Vec<(Buffer, Buffer)>),
}

impl Buffer {
    /// What the value is, for an error.
    pub(super) fn unexpected(&self) -> de::Unexpected<'_> {
        match self {
            Buffer::Bool(b) => de::Unexpected::Bool(*b),
            Buffer::I64(i) => de::Unexpected::Signed(*i),
            Buffer::U64(u) => de::Unexpected::Unsigned(*u),
            Buffer::F64(f) => de::Unexpected::Float(*f),
            Buffer::Str(s) => de::Unexpected::Str(s),
            Buffer::Unit => de::Unexpected::Unit,
            Buffer::Seq(_) => de::Unexpected::Seq,
            Buffer::Map(_) => de::Unexpected::Map,
        }
    }
}

impl<'de> Deserialize<'de> for Buffer {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Buffer, D::Error> {
        d.deserialize_any(BufferVisitor)
    }
}

struct BufferVisitor;

impl<'de> Visitor<'de> for BufferVisitor {
    type Value = Buffer;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Buffer, E> {
        Ok(Buffer::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Buffer, E> {
        Ok(Buffer::I64(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Buffer, E> {
        Ok(Buffer::U64(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Buffer, E> {
        Ok(Buffer::F64(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Buffer, E> {
        Ok(Buffer::Str(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Buffer, E> {
        Ok(Buffer::Str(v))
    }

    fn visit_unit<E>(self) -> Result<Buffer, E> {
        Ok(Buffer::Unit)
    }

    fn visit_none<E>(self) -> Result<Buffer, E> {
        Ok(Buffer::Unit)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Buffer, D::Error> {
        Buffer::deserialize(d)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Buffer, D::Error> {
        Buffer::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Buffer, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Buffer::Seq(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Buffer, A::Error> {
        let mut entries = Vec::new();
        while let Some(entry) = map.next_entry()? {
            entries.push(entry);
        }
        Ok(Buffer::Map(entries))
    }
}

impl<'de> Deserializer<'de> for Buffer {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Buffer::Bool(v) => visitor.visit_bool(v),
            Buffer::I64(v) => visitor.visit_i64(v),
            Buffer::U64(v) => visitor.visit_u64(v),
            Buffer::F64(v) => visitor.visit_f64(v),
            Buffer::Str(v) => visitor.visit_string(v),
            Buffer::Unit => visitor.visit_unit(),
            Buffer::Seq(items) => {
                let mut seq = SeqDeserializer::new(items.into_iter());
                let value = visitor.visit_seq(&mut seq)?;
                seq.end()?;
                Ok(value)
            }
            Buffer::Map(entries) => {
                let mut map = MapDeserializer::new(entries.into_iter());
                let value = visitor.visit_map(&mut map)?;
                map.end()?;
                Ok(value)
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Buffer::Unit => visitor.visit_none(),
            other => visitor.visit_some(other),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    /// Unit variants are written as their name (`counter = "cpu"`).
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self {
            Buffer::Str(name) => visitor.visit_enum(name.into_deserializer()),
            other => Err(de::Error::invalid_type(
                other.unexpected(),
                &"variant identifier",
            )),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

impl IntoDeserializer<'_, Error> for Buffer {
    type Deserializer = Buffer;

    fn into_deserializer(self) -> Buffer {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_what_a_json_value_would_lose() -> Result<(), Error> {
        let b = Buffer::Map(vec![
            (Buffer::Str("z".into()), Buffer::F64(f64::NAN)),
            (Buffer::Str("a".into()), Buffer::F64(f64::INFINITY)),
        ]);
        let pairs: Vec<(String, f64)> = match b {
            Buffer::Map(entries) => entries
                .into_iter()
                .map(|(k, v)| Ok((String::deserialize(k)?, f64::deserialize(v)?)))
                .collect::<Result<_, Error>>()?,
            _ => Vec::new(),
        };
        assert_eq!(pairs[0].0, "z", "key order kept");
        assert!(pairs[0].1.is_nan());
        assert_eq!(pairs[1].1, f64::INFINITY);
        Ok(())
    }

    #[test]
    fn errors_are_serdes_own() {
        let err = |b: Buffer| u8::deserialize(b).map_err(|e| e.to_string());
        assert_eq!(
            err(Buffer::I64(300)),
            Err("invalid value: integer `300`, expected u8".into())
        );
        assert_eq!(
            err(Buffer::F64(1.5)),
            Err("invalid type: floating point `1.5`, expected u8".into())
        );
        assert_eq!(Option::<u8>::deserialize(Buffer::Unit), Ok(None));
    }
}
