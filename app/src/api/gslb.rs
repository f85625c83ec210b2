//! GSLB: the topology and its sites, the resolve panel, the operator's faults (sites and MEP
//! links), the backup-list editor, CLI import/export and the guided replays of the documented
//! scenarios.

#![allow(clippy::too_many_arguments)]

use engine::gslb::views::{GuidedReplay, ResolutionView};
use leptos::prelude::*;

use crate::error::AppError;
use crate::model::gslb::{GslbActInput, GslbPage, GslbSiteDetail};
use crate::model::gslb_links::LinkPage;
use crate::model::gslb_sites::GslbConsolePage;

/// Rows of each history list on a site's page: its newest events of each kind.
pub const SITE_HISTORY_ROWS: usize = 50;
#[cfg(feature = "ssr")]
const _: () = assert!(SITE_HISTORY_ROWS == services::charts::gslb::SHOWN);

/// The topology now, with the client locations of the resolve panel.
#[server(endpoint = "gslb_topology", input = crate::api::codec::Form)]
pub async fn gslb_topology(at: Option<String>, run: Option<i64>) -> Result<GslbPage, AppError> {
    use crate::auth::read_only;
    read_only(
        "gslb.topology",
        engine::Role::Viewer,
        |services, _| async move {
            let estate = crate::time_travel::estate(&services, at, run).await?;
            Ok(estate
                .query(|sim| GslbPage {
                    topology: sim.gslb().topology(),
                    locations: sim.gslb().client_locations(),
                    now_ms: sim.now().as_millis(),
                })
                .await?)
        },
    )
    .await
}

/// The GSLB page at any scale: the counters, the graph laid out (large parents collapsed into
/// count badges but `expand`, the site named `q` drawn and marked) and one page of the sites
/// table (names containing `q`, `role` parent or child, `state` up, down, adopted, orphaned or
/// not_active, sorted by `sort`: name, role, state, mep or parent; the topology's order by
/// default).
#[server(endpoint = "gslb_console", input = crate::api::codec::Form)]
pub async fn gslb_console(
    q: Option<String>,
    role: Option<String>,
    state: Option<String>,
    sort: Option<String>,
    desc: Option<bool>,
    page: Option<u32>,
    expand: Option<String>,
    at: Option<String>,
    run: Option<i64>,
) -> Result<GslbConsolePage, AppError> {
    use crate::auth::read_only;
    use crate::form::{optional, page_number, search};
    use crate::model::gslb_picture::{Picture, PictureOptions};
    use crate::model::gslb_sites::{SiteQuery, SiteState, SITE_SORTS};
    use crate::model::listing::keyed;
    use engine::gslb::config::SiteRole;
    read_only(
        "gslb.console",
        engine::Role::Viewer,
        |services, _| async move {
            let search = search(&q)?;
            let role = match optional(&role) {
                None => None,
                Some("parent") => Some(SiteRole::Parent),
                Some("child") => Some(SiteRole::Child),
                Some(_) => return Err(AppError::invalid("role", "must be parent or child")),
            };
            let state = optional(&state)
                .map(|s| {
                    SiteState::parse(s).ok_or_else(|| {
                        AppError::invalid(
                            "state",
                            "must be up, down, adopted, orphaned or not_active",
                        )
                    })
                })
                .transpose()?;
            let sorts: Vec<_> = SITE_SORTS.iter().map(|(k, s, _)| (*k, *s)).collect();
            let query = SiteQuery {
                search: search.clone(),
                role,
                state,
                sort: keyed("sort", &sorts, optional(&sort))?.unwrap_or_default(),
                descending: desc.unwrap_or(false),
                page: page_number(page)?,
            };
            let options = PictureOptions {
                expand: optional(&expand).map(str::to_owned),
                highlight: search,
            };
            let estate = crate::time_travel::estate(&services, at, run).await?;
            Ok(estate
                .query(move |sim| {
                    let topology = sim.gslb().topology();
                    let picture = Picture::of(&topology, &options);
                    GslbConsolePage::of(
                        topology,
                        picture,
                        &query,
                        sim.gslb().client_locations(),
                        sim.now().as_millis(),
                    )
                })
                .await?)
        },
    )
    .await
}

/// One page of the MEP links list: links with an end whose name contains `q`, `kind`
/// parent_parent or parent_child, `status` down, inactive or active, sorted by `sort` (site,
/// peer, kind, status or rtt; the topology's order by default).
#[server(endpoint = "gslb_links", input = crate::api::codec::Form)]
pub async fn gslb_links(
    q: Option<String>,
    kind: Option<String>,
    status: Option<String>,
    sort: Option<String>,
    desc: Option<bool>,
    page: Option<u32>,
    at: Option<String>,
    run: Option<i64>,
) -> Result<LinkPage, AppError> {
    use crate::auth::read_only;
    use crate::form::{optional, page_number, search};
    use crate::model::gslb_links::{select_links, LinkQuery};
    read_only(
        "gslb.links",
        engine::Role::Viewer,
        |services, _| async move {
            let query = LinkQuery::parse(
                search(&q)?,
                optional(&kind),
                optional(&status),
                optional(&sort),
                desc.unwrap_or(false),
                page_number(page)?,
            )?;
            let estate = crate::time_travel::estate(&services, at, run).await?;
            let links = estate.query(|sim| sim.gslb().links()).await?;
            Ok(select_links(links, &query))
        },
    )
    .await
}

/// One site: now, its links, and its MEP and adoption history.
#[server(endpoint = "gslb_site", input = crate::api::codec::Form)]
pub async fn gslb_site(
    name: String,
    at: Option<String>,
    run: Option<i64>,
) -> Result<GslbSiteDetail, AppError> {
    use crate::auth::read_only;
    read_only(
        "gslb.site",
        engine::Role::Viewer,
        |services, _| async move {
            let estate = crate::time_travel::estate(&services, at, run).await?;
            let wanted = name.clone();
            let now = estate
                .query(move |sim| {
                    let topology = sim.gslb().topology();
                    let site = topology.sites.iter().find(|s| s.name == wanted).cloned()?;
                    let links = topology
                        .links
                        .iter()
                        .filter(|l| l.a == wanted || l.b == wanted)
                        .cloned()
                        .collect::<Vec<_>>();
                    let parents = topology
                        .sites
                        .iter()
                        .filter(|s| s.role == engine::gslb::config::SiteRole::Parent)
                        .map(|s| s.name.clone())
                        .collect::<Vec<_>>();
                    Some((site, links, parents, sim.now().as_millis()))
                })
                .await?;
            let Some((site, links, parents, now_ms)) = now else {
                return Err(AppError::NotFound(format!("no GSLB site `{name}`")));
            };
            let window = estate.window();
            let h =
                services::charts::gslb::site_history(&services.store, window, &site.name).await?;
            let rows = |events: Vec<services::history::StoredEvent>| {
                events
                    .into_iter()
                    .map(crate::model::EventRow::from)
                    .collect()
            };
            Ok(GslbSiteDetail {
                site,
                links,
                parents,
                link_history: rows(h.links),
                adoptions: rows(h.adoptions),
                events: rows(h.others),
                now_ms,
            })
        },
    )
    .await
}

/// How a query for `domain` from `client` (an address, or a client location's name) would be
/// answered now. Changes nothing.
#[server(endpoint = "gslb_resolve", input = crate::api::codec::Form)]
pub async fn gslb_resolve(domain: String, client: String) -> Result<ResolutionView, AppError> {
    use crate::auth::read_only;
    read_only(
        "gslb.resolve",
        engine::Role::Viewer,
        |services, _| async move {
            let domain = domain.trim().trim_end_matches('.').to_ascii_lowercase();
            if domain.is_empty() {
                return Err(AppError::invalid(
                    "domain",
                    "is required (e.g. apps.example.com)",
                ));
            }
            let client = client.trim().to_owned();
            let answer = services
                .runtime
                .query(move |sim| {
                    let gslb = sim.gslb();
                    let ip = match client.parse::<core::net::IpAddr>() {
                        Ok(ip) => Some(ip),
                        Err(_) => gslb
                            .client_locations()
                            .into_iter()
                            .find(|l| l.name == client)
                            .and_then(|l| l.sample_ip.parse().ok()),
                    };
                    ip.map(|ip| gslb.preview_resolve(&domain, ip))
                })
                .await?;
            answer.ok_or_else(|| {
                AppError::invalid(
                    "client",
                    "must be an IP address or the name of a client location",
                )
            })
        },
    )
    .await
}

/// An operator's fault on the topology: take a site down or up, cut or restore a MEP link
/// (both directions or one). Operator role; audited.
#[server(endpoint = "gslb_act", input = crate::api::codec::Form)]
pub async fn gslb_act(input: GslbActInput) -> Result<(), AppError> {
    use crate::auth::audited;
    let name = format!("gslb.{}", input.op.trim());
    let args = serde_json::to_value(&input).unwrap_or_default();
    audited(
        &name,
        engine::Role::Operator,
        args,
        |services, user| async move {
            let action = to_action(&input)?;
            services.runtime.apply(action, &user.username).await?;
            Ok(())
        },
    )
    .await
}

/// The engine action an operator's form asks for.
#[cfg(feature = "ssr")]
fn to_action(i: &GslbActInput) -> Result<engine::GslbAction, AppError> {
    use crate::form::need;
    use engine::GslbAction;
    let one_way = match i.direction.trim() {
        "" | "both" => false,
        "one_way" => true,
        _ => return Err(AppError::invalid("direction", "must be both or one_way")),
    };
    Ok(match i.op.trim() {
        "site_down" => GslbAction::SiteDown {
            site: need(&i.site, "site")?,
        },
        "site_up" => GslbAction::SiteUp {
            site: need(&i.site, "site")?,
        },
        "mep_cut" => GslbAction::MepCut {
            from: need(&i.from, "from")?,
            to: need(&i.to, "to")?,
            one_way,
        },
        "mep_restore" => GslbAction::MepRestore {
            from: need(&i.from, "from")?,
            to: need(&i.to, "to")?,
            one_way,
        },
        _ => {
            return Err(AppError::invalid(
                "op",
                "must be site_down, site_up, mep_cut or mep_restore",
            ))
        }
    })
}

/// `set gslb site <site> -backupParentlist …` (an empty list is `unset`). Admin only; audited.
#[server(endpoint = "gslb_backups", input = crate::api::codec::Form)]
pub async fn gslb_backups(site: String, backups: String) -> Result<(), AppError> {
    use crate::auth::audited;
    use crate::model::gslb::split_names;
    let args = serde_json::json!({ "site": site, "backups": backups });
    audited(
        "gslb.backup_parents",
        engine::Role::Admin,
        args,
        |services, user| async move {
            let action = engine::GslbAction::BackupParents {
                site: site.trim().to_owned(),
                backups: split_names(&backups),
            };
            services.runtime.apply(action, &user.username).await?;
            Ok(())
        },
    )
    .await
}

/// The live topology as the product's CLI text. Admin only.
#[server(endpoint = "gslb_export", input = crate::api::codec::Form)]
pub async fn gslb_export() -> Result<String, AppError> {
    use crate::auth::read_only;
    read_only(
        "gslb.export",
        engine::Role::Admin,
        |services, _| async move {
            Ok(services
                .runtime
                .query(|sim| sim.gslb().export_cli())
                .await?)
        },
    )
    .await
}

/// Replaces the topology with CLI text; a bad line is reported with its number and nothing
/// changes. Admin only; audited.
#[server(endpoint = "gslb_import", input = crate::api::codec::Form)]
pub async fn gslb_import(cli: String) -> Result<(), AppError> {
    use crate::auth::audited;
    let args = serde_json::json!({ "lines": cli.lines().count() });
    audited(
        "gslb.topology_import",
        engine::Role::Admin,
        args,
        |services, user| async move {
            if cli.len() > 1_000_000 {
                return Err(AppError::invalid("cli", "must be at most 1 MB"));
            }
            let action = engine::GslbAction::TopologyImport { cli };
            services.runtime.apply(action, &user.username).await?;
            Ok(())
        },
    )
    .await
}

/// A guided replay of documented scenario 1, 2 or 3 on its documented topology (the live run
/// is not touched). Operator role. Reading it changes nothing, so it is not audited (a page
/// that shows one, `/gslb/guided?scenario=N`, asks for it on every read); a refusal is.
#[server(endpoint = "gslb_guided", input = crate::api::codec::Form)]
pub async fn gslb_guided(number: u8) -> Result<GuidedReplay, AppError> {
    use crate::auth::read_only;
    read_only(
        "gslb.guided_replay",
        engine::Role::Operator,
        |_, _| async move {
            if !(1..=3).contains(&number) {
                return Err(AppError::invalid(
                    "number",
                    format!("must be 1, 2 or 3; got {number}"),
                ));
            }
            let replay = tokio::task::spawn_blocking(move || engine::gslb::guided_replay(number))
                .await
                .map_err(|_| AppError::Internal)?;
            replay.ok_or_else(|| AppError::invalid("number", "no such documented scenario"))
        },
    )
    .await
}
