//! The overview's cards in one read (JSON at `/api/overview` for scripts too).

use leptos::prelude::*;

use crate::error::AppError;
use crate::model::overview::Overview;

/// What needs attention and each engine's summary at the instant shown (`at`, `run`: the
/// time bar; the live run now by default), with each engine's recent changes in the live run.
/// Every engine's state is read once, in one query of the estate, for every card.
#[server(endpoint = "overview", input = crate::api::codec::Form)]
pub async fn overview_cards(at: Option<String>, run: Option<i64>) -> Result<Overview, AppError> {
    use crate::api::activity::activity_view;
    use crate::auth::read_only;
    use crate::model::attention;
    use crate::model::overview::{
        cap_attention, AutoscaleSummary, GslbSummary, LhcSummary, LmsSummary, WORST_SHOWN,
    };
    use engine::lms::views::{ServerQuery, ServerSort};
    read_only("overview", engine::Role::Viewer, |services, _| async move {
        let estate = crate::time_travel::estate(&services, at, run).await?;
        let mut overview = estate
            .query(|sim| {
                let rls = sim.lhc().resource_locations();
                let farm = sim.lms().farm();
                let bands = sim.lms().load_bands();
                let busiest = sim.lms().servers(&ServerQuery {
                    sort: ServerSort::Load,
                    descending: true,
                    limit: WORST_SHOWN as u32,
                    ..ServerQuery::default()
                });
                let topology = sim.gslb().topology();
                let groups = sim.autoscale().groups();
                Overview {
                    attention: attention::all(&rls, &farm, &topology, &groups, &sim.flapping()),
                    attention_more: Vec::new(),
                    lhc: LhcSummary::of(&rls),
                    lms: LmsSummary::of(&farm, &bands, &busiest.rows),
                    gslb: GslbSummary::of(&topology),
                    autoscale: AutoscaleSummary::of(&groups),
                    activity: Vec::new(),
                }
            })
            .await?;
        let mut items = crate::api::alerts::attention_items(&services, &estate).await?;
        items.append(&mut overview.attention);
        (overview.attention, overview.attention_more) = cap_attention(attention::sorted(items));
        overview.activity = engine::EngineId::ALL
            .into_iter()
            .map(|id| activity_view(&services, id))
            .collect();
        Ok(overview)
    })
    .await
}
