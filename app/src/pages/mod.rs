//! One file per screen.

pub mod alert_rules;
pub mod alerts;
pub mod attention;
pub mod audit;
pub mod autoscale;
pub mod autoscale_editor;
pub mod autoscale_group;
pub mod autoscale_nodes;
pub mod dashboard;
pub mod gslb;
pub mod gslb_cli;
pub mod gslb_guided;
pub mod gslb_links;
pub mod gslb_site;
pub mod history;
pub mod lhc;
pub mod lhc_connectors;
pub mod lhc_detail;
pub mod lms;
pub mod lms_black_hole;
pub mod lms_evaluator_editor;
pub mod lms_evaluators;
pub mod lms_formula_audit;
pub mod lms_server;
pub mod lms_store;
pub mod login;
pub mod overview_cards;
pub mod users;

use leptos::prelude::*;

use crate::answer::Answer;
use crate::error::AppError;
use crate::ids;

/// A server function's answer once it has come: shown by `show`, or its error. The answer
/// before stays on screen while a new one loads (a list re-sorted or re-filtered).
#[component]
pub fn Loaded<T, V>(of: Answer<T>, show: fn(T) -> V) -> impl IntoView
where
    T: Clone + Send + Sync + 'static,
    V: IntoView + 'static,
{
    use leptos::either::Either;
    view! {
        <Transition fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match of.await {
                    Err(e) => Either::Left(view! { <LoadError error=e/> }),
                    Ok(answer) => Either::Right(show(answer)),
                }
            })}
        </Transition>
    }
}

/// The message of a failed load, with the hint a user needs.
#[component]
pub fn LoadError(error: AppError) -> impl IntoView {
    let hint = match &error {
        AppError::Unauthorized => Some(view! { <a href="/login">"Sign in again"</a> }),
        _ => None,
    };
    view! { <p class="error" id=ids::FORM_ERROR>{error.to_string()} " " {hint}</p> }
}

/// The error of the last answer of a form's action, if any.
pub fn action_error<T>(value: Option<Result<T, AppError>>) -> Option<String>
where
    T: 'static,
{
    value.and_then(|r| r.err()).map(|e| e.to_string())
}
