//! The formula audit: every server's load index under the seed's sum formula and the 7.x
//! average formula, and where the next launches would go under each. Changes nothing.

use engine::lms::views::FormulaAudit;
use leptos::prelude::*;

use crate::error::AppError;

/// Launches an audit places when the request names none.
pub const DEFAULT_AUDIT_LAUNCHES: u32 = 100;

/// Most servers the audit's index table lists: beyond, those whose two indexes differ most.
pub const AUDIT_ROWS_SHOWN: usize = 50;

/// The formula audit at the instant shown: `launches` (0 to 1,000, default 100) launches of
/// `app` (default: the first application) placed on two copies of the farm, one per
/// formula. Read-only: viewers may run it. A farm of more than [`AUDIT_ROWS_SHOWN`] servers
/// lists those whose two indexes differ most (ties in configuration order).
#[server(endpoint = "lms_formula_audit", input = crate::api::codec::Form)]
pub async fn lms_formula_audit(
    app: Option<String>,
    launches: Option<u32>,
    at: Option<String>,
    run: Option<i64>,
) -> Result<FormulaAudit, AppError> {
    use crate::auth::read_only;
    use crate::form::optional;
    read_only(
        "lms.formula_audit",
        engine::Role::Viewer,
        |services, _| async move {
            let app = optional(&app).map(str::to_owned);
            let launches = launches.unwrap_or(DEFAULT_AUDIT_LAUNCHES);
            let estate = crate::time_travel::estate(&services, at, run).await?;
            let mut audit = estate
                .query(move |sim| sim.lms().formula_audit(app.as_deref(), launches))
                .await??;
            if audit.rows.len() > AUDIT_ROWS_SHOWN {
                audit.rows.sort_by_key(|r| {
                    std::cmp::Reverse(i64::from(r.average).abs_diff(i64::from(r.sum)))
                });
                audit.rows.truncate(AUDIT_ROWS_SHOWN);
            }
            Ok(audit)
        },
    )
    .await
}
