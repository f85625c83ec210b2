//! Server-function answers kept as resources: [`answer`] and [`Answer`], the console's
//! `Resource::new` and `Resource<Result<T, AppError>>`.
//!
//! A resource's value travels twice: in the page the server renders (its hydration data), and
//! in the answer of its server function when it loads again in the browser. The framework
//! reads the first from a `str` and the second from bytes, and JSON's deserializers are
//! compiled per reader, so the browser bundle held every answer's deserializer twice.
//! [`AnswerJson`] reads the hydration data from bytes too: one copy.

use std::future::Future;

use leptos::prelude::*;
use leptos::server::codee::{Decoder, Encoder};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::error::AppError;

/// A server function's answer as a resource, hydrated from the page ([`AnswerJson`]).
pub type Answer<T> = Resource<Result<T, AppError>, AnswerJson>;

/// The encoding of a resource's value in the page: JSON, as the framework's default, read
/// from bytes as a server function's answer is (see the module's doc).
#[derive(Debug, Clone, Copy)]
pub struct AnswerJson;

impl<T: Serialize> Encoder<T> for AnswerJson {
    type Error = serde_json::Error;
    type Encoded = String;

    fn encode(value: &T) -> Result<String, Self::Error> {
        serde_json::to_string(value)
    }
}

impl<T: DeserializeOwned> Decoder<T> for AnswerJson {
    type Error = serde_json::Error;
    type Encoded = str;

    fn decode(encoded: &str) -> Result<T, Self::Error> {
        serde_json::from_slice(encoded.as_bytes())
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
}
