//! What needs attention now, across the four engines (the overview's first card, and JSON at
//! `/api/attention` for scripts).

use leptos::prelude::*;

use crate::error::AppError;
use crate::model::attention::AttentionItem;

/// Every item that needs attention at the instant shown, most serious first.
#[server(endpoint = "attention", input = crate::api::codec::Form)]
pub async fn attention(
    at: Option<String>,
    run: Option<i64>,
) -> Result<Vec<AttentionItem>, AppError> {
    use crate::auth::read_only;
    use crate::model::attention;
    read_only(
        "attention",
        engine::Role::Viewer,
        |services, _| async move {
            let estate = crate::time_travel::estate(&services, at, run).await?;
            let mut items = crate::api::alerts::attention_items(&services, &estate).await?;
            items.extend(
                estate
                    .query(|sim| {
                        attention::all(
                            &sim.lhc().resource_locations(),
                            &sim.lms().farm(),
                            &sim.gslb().topology(),
                            &sim.autoscale().groups(),
                            &sim.flapping(),
                        )
                    })
                    .await?,
            );
            Ok(attention::sorted(items))
        },
    )
    .await
}
