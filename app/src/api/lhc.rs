//! Resource locations (Local Host Cache / HA engine): overview, detail, VDA listing, and the
//! operator actions (forced outage, cloud link, connector faults, test launch).

// A list's filters, page and instant are each one argument (one URL parameter of its page);
// the server macro's generated functions carry them all.
#![allow(clippy::too_many_arguments)]

use engine::lhc::{RlView, VdaPage};
use leptos::prelude::*;

use crate::error::AppError;
use crate::model::connector_list::ConnectorPage;
use crate::model::lhc::RlDetail;
use crate::model::rl_list::RlPage;

/// VDA rows per page of the detail page.
pub const VDA_PAGE_SIZE: u32 = 50;

/// Every resource location now.
#[server(endpoint = "lhc_overview", input = crate::api::codec::Form)]
pub async fn lhc_overview(at: Option<String>, run: Option<i64>) -> Result<Vec<RlView>, AppError> {
    use crate::auth::read_only;
    read_only(
        "lhc.overview",
        engine::Role::Viewer,
        |services, _| async move {
            let estate = crate::time_travel::estate(&services, at, run).await?;
            Ok(estate.query(|sim| sim.lhc().resource_locations()).await?)
        },
    )
    .await
}

/// A page of the resource-location list: names or ids containing `q`, in `state`, sorted by
/// `sort` (`config`, `name`, `state`, `elected`, `connectors`, `cloud`, `secondary`,
/// `unregistered`), [`RL_PAGE_SIZE`](crate::model::rl_list::RL_PAGE_SIZE) rows per `page`.
#[server(endpoint = "lhc_locations", input = crate::api::codec::Form)]
pub async fn lhc_locations(
    q: Option<String>,
    state: Option<String>,
    sort: Option<String>,
    desc: Option<bool>,
    page: Option<u32>,
    at: Option<String>,
    run: Option<i64>,
) -> Result<RlPage, AppError> {
    use crate::auth::read_only;
    use crate::form::{optional, page_number, search};
    use crate::model::rl_list::{select, RlListQuery, RlSort};
    read_only("lhc.locations", engine::Role::Viewer, |services, _| async move {
        let state = optional(&state)
            .map(|s| {
                serde_json::from_value(serde_json::Value::String(s.to_owned())).map_err(|_| {
                    AppError::invalid(
                        "state",
                        "must be working_normally, pending_ha, ha_initial, extended_ha or pending_recovery",
                    )
                })
            })
            .transpose()?;
        let sort = match optional(&sort) {
            None => RlSort::Config,
            Some(key) => RlSort::parse(key).ok_or_else(|| {
                AppError::invalid(
                    "sort",
                    "must be config, name, state, elected, connectors, cloud, secondary or unregistered",
                )
            })?,
        };
        let query = RlListQuery {
            search: search(&q)?,
            state,
            sort,
            descending: desc.unwrap_or(false),
            page: page_number(page)?,
        };
        let estate = crate::time_travel::estate(&services, at, run).await?;
        let rls = estate.query(|sim| sim.lhc().resource_locations()).await?;
        Ok(select(rls, &query))
    })
    .await
}

/// One page of the Cloud Connectors list: every connector of every resource location, `q`
/// in its FQDN or resource location, `state` an HA state or no_detection, `power` up,
/// restarting or down, `role` elected, candidate or excluded, sorted by `sort` (fqdn, rl,
/// power, state, rank or registrations; the configuration's order by default).
#[server(endpoint = "lhc_connectors", input = crate::api::codec::Form)]
pub async fn lhc_connectors(
    q: Option<String>,
    state: Option<String>,
    power: Option<String>,
    role: Option<String>,
    sort: Option<String>,
    desc: Option<bool>,
    page: Option<u32>,
    at: Option<String>,
    run: Option<i64>,
) -> Result<ConnectorPage, AppError> {
    use crate::auth::read_only;
    use crate::form::{optional, page_number, search};
    use crate::model::connector_list::{select_connectors, ConnectorQuery};
    read_only(
        "lhc.connectors",
        engine::Role::Viewer,
        |services, _| async move {
            let query = ConnectorQuery::parse(
                search(&q)?,
                optional(&state),
                optional(&power),
                optional(&role),
                optional(&sort),
                desc.unwrap_or(false),
                page_number(page)?,
            )?;
            let estate = crate::time_travel::estate(&services, at, run).await?;
            let connectors = estate.query(|sim| sim.lhc().connectors()).await?;
            Ok(select_connectors(connectors, &query))
        },
    )
    .await
}

/// One resource location with its connectors, charts and log.
#[server(endpoint = "lhc_location", input = crate::api::codec::Form)]
pub async fn lhc_location(
    id: String,
    at: Option<String>,
    run: Option<i64>,
) -> Result<RlDetail, AppError> {
    use crate::auth::read_only;
    read_only(
        "lhc.location",
        engine::Role::Viewer,
        |services, _| async move {
            let estate = crate::time_travel::estate(&services, at, run).await?;
            let rl_id = id.clone();
            let now = estate
                .query(move |sim| {
                    let lhc = sim.lhc();
                    lhc.resource_location(&rl_id).map(|rl| {
                        let connectors = lhc.connectors_of(&rl_id).unwrap_or_default();
                        (rl, connectors, lhc.storefront(), sim.now().as_millis())
                    })
                })
                .await?;
            let Some((rl, connectors, storefront, now_ms)) = now else {
                return Err(AppError::NotFound(format!("no resource location `{id}`")));
            };
            let resources = estate
                .scenario()
                .lhc
                .resource_locations
                .iter()
                .filter(|r| r.id == id)
                .flat_map(|r| r.vda_pools.iter().flat_map(|p| p.resources.iter().cloned()))
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            let mut subjects = vec![id.clone()];
            subjects.extend(connectors.iter().map(|c| c.fqdn.clone()));
            let window = estate.window();
            let history =
                services::charts::lhc::rl_history(&services.store, window, &id, subjects).await?;
            Ok(RlDetail {
                rl,
                connectors,
                storefront,
                resources,
                now_ms,
                states: history.states,
                registrations: history.registrations,
                events: history
                    .events
                    .into_iter()
                    .map(crate::model::EventRow::from)
                    .collect(),
            })
        },
    )
    .await
}

/// One page of a resource location's VDAs. Filters as typed in the form: `q` the start of
/// the VDA's name (case-insensitive); `broker` is empty, `cloud`, `secondary`,
/// `unregistered` or `secondary:<FQDN>`; `maintenance` empty, `yes` or `no`; `kind` empty,
/// `multi_session`, `pooled_vdi` or `static`; `sort` name (the default), broker (not
/// registered first), sessions or phase (of the heartbeats), `desc` to reverse it (ties keep
/// the name order); `page` from 1.
#[server(endpoint = "lhc_vdas", input = crate::api::codec::Form)]
pub async fn lhc_vdas(
    resource_location: String,
    q: Option<String>,
    broker: Option<String>,
    maintenance: Option<String>,
    kind: Option<String>,
    sort: Option<String>,
    desc: Option<bool>,
    page: Option<u32>,
    at: Option<String>,
    run: Option<i64>,
) -> Result<VdaPage, AppError> {
    use crate::auth::read_only;
    use crate::form::{optional, search};
    use crate::model::listing::keyed;
    use engine::lhc::{BrokerFilter, VdaQuery, VdaSort};
    const SORTS: [(&str, VdaSort); 7] = [
        ("name", VdaSort::Name),
        ("kind", VdaSort::Kind),
        ("group", VdaSort::DeliveryGroup),
        ("broker", VdaSort::Broker),
        ("sessions", VdaSort::Sessions),
        ("maintenance", VdaSort::Maintenance),
        ("phase", VdaSort::HeartbeatPhase),
    ];
    read_only("lhc.vdas", engine::Role::Viewer, |services, _| async move {
        let name_prefix = search(&q)?;
        let estate = crate::time_travel::estate(&services, at, run).await?;
        let blank = |v: &Option<String>| optional(v).map(str::to_owned);
        let broker = match blank(&broker).as_deref() {
            None => None,
            Some("cloud") => Some(BrokerFilter::Cloud),
            Some("unregistered") => Some(BrokerFilter::Unregistered),
            Some("secondary") => Some(BrokerFilter::Secondary { fqdn: None }),
            Some(other) => match other.strip_prefix("secondary:") {
                Some(fqdn) if !fqdn.is_empty() => Some(BrokerFilter::Secondary {
                    fqdn: Some(fqdn.to_owned()),
                }),
                _ => {
                    return Err(AppError::invalid(
                        "broker",
                        "must be cloud, secondary, secondary:<FQDN> or unregistered",
                    ))
                }
            },
        };
        let maintenance = match blank(&maintenance).as_deref() {
            None => None,
            Some("yes") => Some(true),
            Some("no") => Some(false),
            Some(_) => return Err(AppError::invalid("maintenance", "must be yes or no")),
        };
        let kind = blank(&kind)
            .map(|k| {
                serde_json::from_value(serde_json::Value::String(k)).map_err(|_| {
                    AppError::invalid("kind", "must be multi_session, pooled_vdi or static")
                })
            })
            .transpose()?;
        let page = page.unwrap_or(1);
        if page == 0 {
            return Err(AppError::invalid("page", "must be 1 or more"));
        }
        let query = VdaQuery {
            resource_location: Some(resource_location.clone()),
            broker,
            kind,
            maintenance,
            name_prefix,
            sort: keyed("sort", &SORTS, optional(&sort))?.unwrap_or_default(),
            descending: desc.unwrap_or(false),
            offset: (page as usize - 1) * VDA_PAGE_SIZE as usize,
            limit: VDA_PAGE_SIZE as usize,
            ..Default::default()
        };
        let found = estate
            .query(move |sim| {
                let lhc = sim.lhc();
                lhc.resource_location(&resource_location)
                    .map(|_| lhc.vdas(&query))
            })
            .await?;
        found.ok_or_else(|| AppError::NotFound("no such resource location".into()))
    })
    .await
}

/// An operator action on a resource location or a connector. `op` is one of
/// `force_outage`, `clear_outage`, `cut_cloud_link`, `restore_cloud_link` (on the resource
/// location, or on `connector` when given), `restart`, `fail`, `recover` (on `connector`, or
/// on one `component`: css, ha_service, rbp), `test_launch` (of `resource`).
#[server(endpoint = "lhc_act", input = crate::api::codec::Form)]
pub async fn lhc_act(
    op: String,
    resource_location: Option<String>,
    connector: Option<String>,
    component: Option<String>,
    resource: Option<String>,
) -> Result<(), AppError> {
    use crate::auth::audited;
    use crate::form::{choice, need, optional};
    use engine::LhcAction;
    let action_name = format!("lhc.{op}");
    let blank = |v: Option<String>| optional(&v).map(str::to_owned);
    let (rl, connector, component, resource) = (
        blank(resource_location),
        blank(connector),
        blank(component),
        blank(resource),
    );
    let args = serde_json::json!({
        "resource_location": rl, "connector": connector,
        "component": component, "resource": resource,
    });
    audited(&action_name, engine::Role::Operator, args, |services, user| async move {
            let required = |v: &Option<String>, field: &str| need(v.as_deref().unwrap_or(""), field);
            let component = || {
                component
                    .as_deref()
                    .map(|c| choice(c, "component", "css, ha_service or rbp"))
                    .transpose()
            };
            let action = match op.as_str() {
                "force_outage" => LhcAction::ForceOutage { resource_location: required(&rl, "resource_location")?, connector },
                "clear_outage" => LhcAction::ClearOutage { resource_location: required(&rl, "resource_location")?, connector },
                "cut_cloud_link" | "restore_cloud_link" => LhcAction::CloudLink {
                    resource_location: required(&rl, "resource_location")?,
                    connector,
                    up: op == "restore_cloud_link",
                },
                "restart" => LhcAction::ConnectorRestart { connector: required(&connector, "connector")? },
                "fail" => LhcAction::ConnectorFail { connector: required(&connector, "connector")?, component: component()? },
                "recover" => LhcAction::ConnectorRecover { connector: required(&connector, "connector")?, component: component()? },
                "test_launch" => LhcAction::TestLaunch { resource: required(&resource, "resource")?, user: Some(user.username.clone()) },
                _ => return Err(AppError::invalid(
                    "op",
                    "must be force_outage, clear_outage, cut_cloud_link, restore_cloud_link, restart, fail, recover or test_launch",
                )),
            };
            services.runtime.apply(action, &user.username).await?;
            Ok(())
        })
.await
}
