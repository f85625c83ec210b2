//! Server-function answers kept as resources: [`answer`] and [`Answer`], the console's
//! `Resource::new` and `Resource<Result<T, AppError>>`.
//!
//! Pages are rendered on the server only (docs/ARCHITECTURE.md, "The browser"): a resource a
//! page creates is read while the page renders, and its value is not written into the page
//! for the browser. An island takes what it shows as props, so no island creates one. The
//! value's encoding is therefore the framework's default; nothing reads it.

use std::future::Future;

use leptos::prelude::*;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::error::AppError;

/// A server function's answer as a resource.
pub type Answer<T> = Resource<Result<T, AppError>>;

/// A resource like `Resource::new(source, fetcher)`: read while the page renders on the
/// server (the module's doc).
#[track_caller]
pub fn answer<T, S, Fut>(
    source: impl Fn() -> S + Send + Sync + 'static,
    fetcher: impl Fn(S) -> Fut + Send + Sync + 'static,
) -> Resource<T>
where
    T: Serialize + DeserializeOwned + Send + Sync + 'static,
    S: Send + Sync + Clone + PartialEq + 'static,
    Fut: Future<Output = T> + Send + 'static,
{
    Resource::new_with_options(source, fetcher, false)
}
