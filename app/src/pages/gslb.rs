//! GSLB, the topology page: the live graph (large parents collapsed into count badges) and the
//! sites table (searched, filtered and paged on the server), the operator's faults (sites and
//! MEP links), the resolve panel, the settings (documented or assumed). Also the section's
//! tabs.

use engine::gslb::config::SiteRole;
use engine::gslb::views::{ClientLocationView, DomainView, ResolutionView};
use engine::Role;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::answer::answer;
use crate::api::gslb::{gslb_console, gslb_resolve, GslbAct};
use crate::components::act::{Act, ActButton, ActForm};
use crate::components::confirm::ConfirmButton;
use crate::components::facts::Facts;
use crate::components::filter_form::{choice, ChoiceFilter, FilterForm, KeptSort};
use crate::components::layout::user_allows;
use crate::components::list_url::{matching_summary, ListUrl};
use crate::components::live::LiveRefresh;
use crate::components::page_help::PageHelp;
use crate::components::pager::Pager;
use crate::components::section_tabs::SectionTabs;
use crate::components::topology::{status_class, status_label, TopologyGraph};
use crate::erase::Erase;
use crate::error::AppError;
use crate::format::sim_time;
use crate::model::gslb::GslbActInput;
use crate::model::gslb_sites::{
    GslbConsolePage, GslbTotals, SitePage, SiteState, SITE_PAGE_SIZE, SITE_SORTS,
};
use crate::pages::LoadError;
use crate::time_travel::use_as_of;

/// The section's tabs.
#[component]
pub fn GslbNav(current: &'static str) -> impl IntoView {
    const TABS: &[(&str, &str)] = &[
        ("/gslb", "Topology"),
        ("/gslb/links", "MEP links"),
        ("/gslb/guided", "Documented scenarios"),
        ("/gslb/cli", "CLI import / export"),
    ];
    view! { <SectionTabs tabs=TABS current/> }
}

/// The topology page.
#[component]
pub fn GslbPage() -> impl IntoView {
    let as_of = use_as_of();
    let query = use_query_map();
    let params = Memo::new(move |_| {
        let q = query.read();
        (
            (q.get("q"), q.get("role"), q.get("state")),
            (q.get("sort"), q.get("desc").map(|d| d == "1")),
            q.get("page").and_then(|p| p.parse::<u32>().ok()),
            q.get("expand"),
        )
    });
    // The resolve panel's question, as its `GET` form puts it in the address.
    let asked = Memo::new(move |_| {
        let q = query.read();
        q.get("domain").zip(q.get("client"))
    });
    let resolution = answer(
        move || asked.get(),
        |asked| async move {
            match asked {
                None => Ok(None),
                Some((domain, client)) => gslb_resolve(domain, client).await.map(Some),
            }
        },
    );
    let page = answer(
        move || (params.get(), as_of.get()),
        |(((q, role, state), (sort, desc), page, expand), as_of)| {
            gslb_console(
                q, role, state, sort, desc, page, expand, as_of.at, as_of.run,
            )
        },
    );
    view! {
        <Title text="GSLB"/>
        <LiveRefresh engine="gslb"/>
        <h1>"GSLB"</h1>
        <PageHelp text="The GSLB parent-child topology over MEP: parent sites exchange metrics with each other, each child reports to its parent and falls back to a backup parent when its own goes down. The graph and the table show each site's state and its links; an operator can take a site down or cut a MEP link (one way or both) and watch the adoptions follow."/>
        <GslbNav current="/gslb"/>
        <p class="muted">
            "Parent-child topology over MEP: parents peer with every parent and answer ADNS; a child talks only to its parent. When a parent goes DOWN, the highest-preference backup parent that is up adopts its children; a child accepts or rejects from its own view."
        </p>
        <Transition fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || Suspend::new(async move {
                let can_act = user_allows(Role::Operator).await;
                let resolution = resolution.await;
                match page.await {
                    Err(e) => view! { <LoadError error=e/> }.erase(),
                    Ok(p) => view! { <Topology page=p can_act resolution/> }.erase(),
                }
            })}
        </Transition>
    }
}

#[component]
fn Topology(
    page: GslbConsolePage,
    can_act: bool,
    resolution: Result<Option<ResolutionView>, AppError>,
) -> impl IntoView {
    let GslbConsolePage {
        now_ms,
        totals,
        domains,
        settings,
        picture,
        sites,
        parents,
        locations,
    } = page;
    let facts: Vec<(String, String)> = settings
        .iter()
        .map(|s| (s.label.clone(), format!("{} ({})", s.value, s.source)))
        .collect();
    let summary = view! { <Summary totals domains=domains.clone() now_ms/> }.erase();
    let graph = view! {
        <section class="card">
            <h2>"Topology"</h2>
            <TopologyGraph picture href_prefix="/gslb/sites/" badge_prefix="/gslb?expand=" id="topology"/>
        </section>
    }
    .erase();
    let table = view! { <SitesTable sites can_act/> }.erase();
    view! {
        {summary}
        {graph}
        <div class="grid">
            {table}
            <div>
                {can_act.then(|| view! { <LinkForm parents/> })}
                <ResolvePanel domains locations resolution/>
            </div>
        </div>
        <Facts facts/>
    }
}

#[component]
fn Summary(totals: GslbTotals, domains: Vec<DomainView>, now_ms: u64) -> impl IntoView {
    let t = totals;
    view! {
        <section class="card" id="gslb-summary">
            <table tabindex="0" class="counts">
                <tbody>
                    <tr><th>"Simulated time"</th><td>{sim_time(now_ms)}</td></tr>
                    <tr><th>"Parents up / total"</th><td class="num" id="parents-up">{format!("{} / {}", t.parents_up, t.parents_total)}</td></tr>
                    <tr><th>"Children adopted / orphaned / total"</th><td class="num" id="children-adopted">{format!("{} / {} / {}", t.children_adopted, t.children_orphaned, t.children_total)}</td></tr>
                    <tr><th>"Adoptions accepted / rejected"</th><td class="num">{format!("{} / {}", t.adoptions, t.rejections)}</td></tr>
                    <tr><th>"DNS queries answered"</th><td class="num" id="dns-answered">{t.dns_answered}</td></tr>
                    <tr><th>"Domains"</th><td>{domains.iter().map(|d| format!("{} ({}, TTL {} s)", d.name, d.method.cli_name(), d.ttl_s)).collect::<Vec<_>>().join(" · ")}</td></tr>
                </tbody>
            </table>
        </section>
    }
}

/// The sites table's search and filters.
#[component]
fn SiteFilters() -> impl IntoView {
    let query = use_query_map();
    let current = move |k: &str| query.read().get(k).unwrap_or_default();
    view! {
        <FilterForm class="form filters" id="site-filters">
            <label>"Search " <input type="search" name="q" size="14" maxlength="100" placeholder="site name" value=move || current("q")/></label>
            <ChoiceFilter label="Role" name="role" choices=vec![choice("parent", "parent"), choice("child", "child")]/>
            <ChoiceFilter label="State" name="state" choices=SiteState::ALL.into_iter().map(|(key, _)| choice(key, key.replace('_', " "))).collect()/>
            <input type="hidden" name="expand" value=move || current("expand")/>
            <KeptSort/>
            <button type="submit">"Filter"</button>
        </FilterForm>
    }
}

#[component]
fn SitesTable(sites: SitePage, can_act: bool) -> impl IntoView {
    let as_of = use_as_of().get_untracked();
    let url = ListUrl::current("/gslb", &["q", "role", "state", "expand"]);
    let summary = matching_summary(sites.matching, sites.total, "sites");
    let [name, role, state, mep, parent] =
        SITE_SORTS.map(|(key, _, label)| url.header(key, label, false));
    let (number, matching) = (sites.page, sites.matching);
    view! {
        <section class="card">
            <h2>"Sites"</h2>
            <SiteFilters/>
            <p class="muted" id="site-matching" data-matching=matching.to_string()>{summary}</p>
            <table tabindex="0" id="site-table">
                <thead><tr>{name}{role}<th>"IP / public IP"</th>{state}{mep}{parent}<th>"Backup parents"</th>{can_act.then(|| view! { <th></th> })}</tr></thead>
                <tbody>
                    {sites.rows.into_iter().map(|s| {
                        let name = s.name.clone();
                        let up = s.up;
                        let parent = match (&s.current_parent, &s.configured_parent) {
                            (Some(c), Some(o)) if c != o => format!("{c} (adopted; configured {o})"),
                            (Some(c), _) => c.clone(),
                            (None, Some(o)) => format!("none: orphaned (configured {o})"),
                            (None, None) => "—".to_owned(),
                        };
                        view! {
                            <tr data-site=s.name.clone() class:down=!s.up>
                                <td><a href=as_of.link(&format!("/gslb/sites/{}", s.name))>{s.name.clone()}</a></td>
                                <td>{if s.role == SiteRole::Parent { "parent" } else { "child" }}</td>
                                <td class="mono small">{s.ip.clone()}{s.public_ip.clone().map(|p| format!(" / {p}"))}</td>
                                <td data-col="state">{if s.up { "up" } else { "down" }}</td>
                                <td><span class=format!("badge {}", status_class(s.mep_status))>{status_label(s.mep_status)}</span></td>
                                <td data-col="parent">{parent}</td>
                                <td class="small">{s.backup_parents.join(" > ")}</td>
                                {can_act.then(|| view! {
                                    <td>
                                        {if up {
                                            let site = name.clone();
                                            let consequence = if s.role == SiteRole::Parent {
                                                format!("Take down {name}: it stops answering ADNS and its MEP links go DOWN; once its peers see it DOWN, the first backup parent that is up adopts its children.")
                                            } else {
                                                format!("Take down {name}: its MEP link to its parent goes DOWN and the parent stops sending clients to it.")
                                            };
                                            view! {
                                                <ConfirmButton
                                                    label="Take down"
                                                    aria_label=format!("Take down {name}")
                                                    data_act="down"
                                                    confirm=format!("Take down {name}")
                                                    consequence
                                                    act=Act::of(&GslbAct { input: GslbActInput { op: "site_down".into(), site: site.clone(), ..GslbActInput::default() } })
                                                />
                                            }.erase()
                                        } else {
                                            let act = Act::of(&GslbAct { input: GslbActInput { op: "site_up".into(), site: name.clone(), ..GslbActInput::default() } });
                                            view! {
                                                <ActButton label="Bring up" data_act="up" aria_label=format!("Bring up {name}") act/>
                                            }.erase()
                                        }}
                                    </td>
                                })}
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
            <Pager page=number total=u64::from(matching) per_page=SITE_PAGE_SIZE href=url.page_href()/>
        </section>
    }
}

/// Cuts and restores MEP links. The two ends are typed (any site; the parents are suggested),
/// so the form stays small however many sites the topology has; the server names an unknown
/// site.
#[component]
fn LinkForm(parents: Vec<String>) -> impl IntoView {
    let from = parents.first().cloned().unwrap_or_default();
    let to = parents.get(1).cloned().unwrap_or_default();
    view! {
        <section class="card" id="link-form">
            <h2>"MEP link faults"</h2>
            <datalist id="gslb-parents">
                {parents.into_iter().map(|n| view! { <option value=n/> }).collect_view()}
            </datalist>
            <ActForm path=GslbAct::PATH error_id="action-error">
                <div class="controls">
                    <label>"From " <input type="text" name="input[from]" size="12" list="gslb-parents" value=from/></label>
                    <label>" to " <input type="text" name="input[to]" size="12" list="gslb-parents" value=to/></label>
                    <label>" "
                        <select name="input[direction]" aria-label="Direction of the cut">
                            <option value="both">"both directions"</option>
                            <option value="one_way">"this direction only (from → to)"</option>
                        </select>
                    </label>
                </div>
                <div class="controls">
                    <button type="submit" class="danger" id="link-cut" name="input[op]" value="mep_cut">"Cut link"</button>
                    <button type="submit" id="link-restore" name="input[op]" value="mep_restore">"Restore link"</button>
                </div>
            </ActForm>
            <p class="muted small">"A cut link stops delivering MEP packets; the receiving side declares the other DOWN after the keep-alive timeout. One-way cuts stage asymmetric partitions (documented scenario 3)."</p>
        </section>
    }
}

/// How the parents' ADNS would answer: a `GET` form of this page (`?domain=..&client=..`),
/// answered on the server.
#[component]
fn ResolvePanel(
    domains: Vec<DomainView>,
    locations: Vec<ClientLocationView>,
    resolution: Result<Option<ResolutionView>, AppError>,
) -> impl IntoView {
    let query = use_query_map();
    let (domain, client) = {
        let q = query.read_untracked();
        (
            q.get("domain").unwrap_or_default(),
            q.get("client").unwrap_or_default(),
        )
    };
    view! {
        <section class="card" id="resolve-panel">
            <h2>"Resolve"</h2>
            <p class="muted small">"How the parents' ADNS would answer a query now (the live round robin is not advanced). The same answers come from the DNS responder (dig @127.0.0.1 -p 5353 <domain>)."</p>
            <FilterForm class="controls" id="resolve-form">
                <label>"Domain "
                    <select name="domain">
                        {domains.iter().map(|d| view! { <option value=d.name.clone() selected=d.name == domain>{format!("{} ({})", d.name, d.method.cli_name())}</option> }).collect_view()}
                    </select>
                </label>
                <label>" from "
                    <select name="client">
                        {locations.iter().map(|l| view! { <option value=l.name.clone() selected=l.name == client>{format!("{} ({}, e.g. {})", l.name, l.network, l.sample_ip)}</option> }).collect_view()}
                    </select>
                </label>
                <button type="submit" id="resolve">"Resolve"</button>
            </FilterForm>
            {resolution.transpose().map(|r| match r {
                Err(e) => view! { <p class="error">{e.to_string()}</p> }.erase(),
                Ok(r) => view! {
                    <div id="resolution">
                        <p><strong>{format!("{:?}", r.outcome).to_lowercase()}</strong>
                            {r.answered_by.clone().map(|p| format!(" · answered by {p}"))}
                            {(!r.ips.is_empty()).then(|| format!(" · {} (TTL {} s)", r.ips.join(", "), r.ttl_s))}
                            {r.effective_method.map(|m| format!(" · method {}", m.cli_name()))}
                        </p>
                        <p class="small" id="resolution-reason">{r.reason.clone()}</p>
                        <table tabindex="0" class="small">
                            <thead><tr><th>"Site"</th><th>"Service"</th><th>"IP"</th><th>"Up"</th><th>"Metric"</th><th></th></tr></thead>
                            <tbody>
                                {r.candidates.into_iter().map(|c| view! {
                                    <tr class:chosen=c.chosen>
                                        <td>{c.site}</td><td>{c.service}</td><td class="mono">{c.ip}</td>
                                        <td>{if c.up { "yes" } else { "no" }}</td>
                                        <td class="num">{c.metric.map(|m| format!("{m:.1}")).unwrap_or_else(|| "—".into())}</td>
                                        <td>{c.chosen.then_some("chosen")}</td>
                                    </tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    </div>
                }.erase(),
            })}
        </section>
    }
}
