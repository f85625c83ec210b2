//! Server-function answers kept as resources: [`answer`] and [`Answer`], the console's
//! `Resource::new` and `Resource<Result<T, AppError>>`.
//!
//! A resource's value travels twice: in the page the server renders (its hydration data), and
//! in the answer of its server function when it loads again in the browser. The framework
//! reads the first from a `str` and the second from bytes, and JSON's deserializers are
//! compiled per reader, so the browser bundle held every answer's deserializer twice.
//! [`AnswerJson`] reads the hydration data from bytes too: one copy.
//!
//! The server writes the hydration data into the page as Rust's `Debug` text of a string (a
//! quoted script literal), which escapes every `"`: a JSON answer has several per field, and
//! each escape breaks `Debug`'s fast copy of the text around it (a few percent of the server's
//! time per page). So [`AnswerJson`] swaps `"` and `'` in the JSON it writes and swaps them
//! back before it reads: the literal keeps an escape only for an apostrophe in the data, and
//! the page is a few percent shorter.

use std::future::Future;

use leptos::prelude::*;
use leptos::server::codee::{Decoder, Encoder};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::error::AppError;

/// A server function's answer as a resource, hydrated from the page ([`AnswerJson`]).
pub type Answer<T> = Resource<Result<T, AppError>, AnswerJson>;

/// The encoding of a resource's value in the page: JSON, as the framework's default, with `"`
/// and `'` swapped, read from bytes as a server function's answer is (see the module's doc).
#[derive(Debug, Clone, Copy)]
pub struct AnswerJson;

impl<T: Serialize> Encoder<T> for AnswerJson {
    type Error = serde_json::Error;
    type Encoded = String;

    fn encode(value: &T) -> Result<String, Self::Error> {
        let mut json = serde_json::to_vec(value)?;
        swap_quotes(&mut json);
        // Swapping two ASCII bytes keeps the text UTF-8; the check costs a pass and no panic.
        String::from_utf8(json).map_err(serde::ser::Error::custom)
    }
}

impl<T: DeserializeOwned> Decoder<T> for AnswerJson {
    type Error = serde_json::Error;
    type Encoded = str;

    fn decode(encoded: &str) -> Result<T, Self::Error> {
        let mut json = encoded.as_bytes().to_vec();
        swap_quotes(&mut json);
        serde_json::from_slice(&json)
    }
}

/// Swaps every `"` with `'` and back: its own inverse. Both are ASCII, so never part of a
/// longer UTF-8 sequence.
fn swap_quotes(text: &mut [u8]) {
    for byte in text {
        *byte = match *byte {
            b'"' => b'\'',
            b'\'' => b'"',
            other => other,
        };
    }
}

/// A resource like `Resource::new(source, fetcher)`, its value in the page encoded with
/// [`AnswerJson`].
#[track_caller]
pub fn answer<T, S, Fut>(
    source: impl Fn() -> S + Send + Sync + 'static,
    fetcher: impl Fn(S) -> Fut + Send + Sync + 'static,
) -> Resource<T, AnswerJson>
where
    T: Serialize + DeserializeOwned + Send + Sync + 'static,
    S: Send + Sync + Clone + PartialEq + 'static,
    Fut: Future<Output = T> + Send + 'static,
{
    Resource::new_with_options(source, fetcher, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_reads_back_as_it_was_written() {
        let value: Result<Vec<(String, u64)>, AppError> =
            Ok(vec![("é \"quoted\" \\ \u{1F600}".to_owned(), u64::MAX)]);
        let encoded = <AnswerJson as Encoder<_>>::encode(&value).expect("encodes");
        let decoded: Result<Vec<(String, u64)>, AppError> =
            <AnswerJson as Decoder<_>>::decode(&encoded).expect("decodes");
        assert_eq!(decoded, value);
        let error: Result<u8, AppError> = Err(AppError::Unauthorized);
        let encoded = <AnswerJson as Encoder<_>>::encode(&error).expect("encodes");
        assert_eq!(
            <AnswerJson as Decoder<Result<u8, AppError>>>::decode(&encoded).expect("decodes"),
            error
        );
        assert!(<AnswerJson as Decoder<Result<u8, AppError>>>::decode("{").is_err());
    }

    #[test]
    fn the_page_carries_no_double_quote_of_the_json() {
        let value: Result<Vec<String>, AppError> = Ok(vec![
            "the operator's \"note\"".to_owned(),
            "plain".to_owned(),
        ]);
        let encoded = <AnswerJson as Encoder<_>>::encode(&value).expect("encodes");
        assert_eq!(encoded, r#"{'Ok':['the operator"s \'note\'','plain']}"#);
        // In the page, as the server writes it: only the data's apostrophe is escaped.
        assert_eq!(format!("{encoded:?}").matches("\\\"").count(), 1);
        let decoded: Result<Vec<String>, AppError> =
            <AnswerJson as Decoder<_>>::decode(&encoded).expect("decodes");
        assert_eq!(decoded, value);
        // Plain JSON, as another encoder would write it, is not what this reads.
        assert!(<AnswerJson as Decoder<Result<u8, AppError>>>::decode(r#"{"Ok":1}"#).is_err());
    }

    proptest::proptest! {
        /// Any text, quotes, apostrophes, escapes and non-ASCII included, reads back as it
        /// was written, and what the page carries holds no `"` of its own.
        #[test]
        fn any_text_reads_back(texts in proptest::collection::vec("\\PC{0,24}|['\"\\\\]{0,6}", 0..6)) {
            let value: Result<Vec<String>, AppError> = Ok(texts);
            let encoded = <AnswerJson as Encoder<_>>::encode(&value).expect("encodes");
            let apostrophes: usize = value.iter().flatten().map(|t| t.matches('\'').count()).sum();
            proptest::prop_assert_eq!(encoded.matches('"').count(), apostrophes);
            let decoded: Result<Vec<String>, AppError> =
                <AnswerJson as Decoder<_>>::decode(&encoded).expect("decodes");
            proptest::prop_assert_eq!(decoded, value);
        }
    }
}
