//! One GSLB site: its state and parents (current and configured), its backup list (editable
//! by an administrator on a parent), its MEP links now and their changes over time, and its
//! adoption history with the reasons.

use engine::gslb::config::SiteRole;
use engine::gslb::views::{DirectionView, LinkView};
use engine::Role;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

use crate::answer::answer;
use crate::api::gslb::{gslb_site, GslbAct, GslbBackups, SITE_HISTORY_ROWS};
use crate::components::act::{Act, ActButton, ActForm};
use crate::components::event_table::{EventTable, ReasonTable};
use crate::components::layout::user_allows;
use crate::components::live::LiveRefresh;
use crate::components::page_help::PageHelp;
use crate::components::topology::{status_class, status_label};
use crate::erase::Erase;
use crate::format::sim_time;
use crate::model::gslb::{GslbActInput, GslbSiteDetail};
use crate::model::EventRow;
use crate::pages::gslb::GslbNav;
use crate::pages::LoadError;
use crate::time_travel::use_as_of;

/// The site page.
#[component]
pub fn GslbSitePage() -> impl IntoView {
    let params = use_params_map();
    let name = Memo::new(move |_| params.read().get("name").unwrap_or_default());
    let as_of = use_as_of();
    let detail = answer(
        move || (name.get(), as_of.get()),
        |(name, as_of)| gslb_site(name, as_of.at, as_of.run),
    );
    view! {
        <Title text="GSLB site"/>
        <LiveRefresh engine="gslb"/>
        <GslbNav current=""/>
        <p><a href=move || as_of.get().link("/gslb")>"← Topology"</a></p>
        <Transition fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || Suspend::new(async move {
                let can_act = user_allows(Role::Operator).await;
                let is_admin = user_allows(Role::Admin).await;
                match detail.await {
                    Err(e) => view! { <LoadError error=e/> }.erase(),
                    Ok(d) => view! { <Detail detail=d can_act is_admin/> }.erase(),
                }
            })}
        </Transition>
    }
}

/// One direction of a MEP link in words: delivering or cut, and how the receiver sees it.
pub(crate) fn direction_text(d: &DirectionView) -> String {
    format!(
        "{}, {} since {}",
        if d.delivering { "delivering" } else { "cut" },
        if d.seen_up { "seen up" } else { "seen DOWN" },
        sim_time(d.since_ms)
    )
}

#[component]
fn Detail(detail: GslbSiteDetail, can_act: bool, is_admin: bool) -> impl IntoView {
    let GslbSiteDetail {
        site,
        links,
        parents,
        link_history,
        adoptions,
        events,
        now_ms,
    } = detail;
    let newest = format!(
        "The newest {SITE_HISTORY_ROWS} of the range shown (the whole run unless a time range is picked)."
    );
    let name = site.name.clone();
    let up = site.up;
    let is_parent = site.role == SiteRole::Parent;
    let facts = view! {
        <section class="card" id="site-facts">
            <h2>"Now"</h2>
            <table tabindex="0" class="counts">
                <tbody>
                    <tr><th>"Simulated time"</th><td>{sim_time(now_ms)}</td></tr>
                    <tr><th>"Role"</th><td>{if is_parent { "parent: peers with every parent, answers ADNS" } else { "child: talks only to its parent" }}</td></tr>
                    <tr><th>"IP / public IP"</th><td class="mono">{site.ip.clone()}{site.public_ip.clone().map(|p| format!(" / {p}"))}</td></tr>
                    <tr><th>"Software version"</th><td>{site.version.clone()}</td></tr>
                    <tr><th>"State"</th><td id="site-state">{if site.up { "up" } else { "down" }}</td></tr>
                    <tr><th>"MEP status"</th><td><span class=format!("badge {}", status_class(site.mep_status))>{status_label(site.mep_status)}</span></td></tr>
                    {(!is_parent).then(|| view! {
                        <tr><th>"Current parent"</th><td id="current-parent">{site.current_parent.clone().unwrap_or_else(|| "none (orphaned)".into())}</td></tr>
                        <tr><th>"Configured (original) parent"</th><td>{site.configured_parent.clone().unwrap_or_default()}</td></tr>
                    })}
                    <tr><th>{if is_parent { "Backup parents (preference order)" } else { "Backup list received from its parent" }}</th>
                        <td id="backup-list">{if site.backup_parents.is_empty() { "none".to_owned() } else { site.backup_parents.join(" > ") }}</td></tr>
                    {is_parent.then(|| view! {
                        <tr><th>"Sees the other parents"</th><td class="small">{site.peer_view.iter().map(|(p, up)| format!("{p}: {}", if *up { "up" } else { "DOWN" })).collect::<Vec<_>>().join(" · ")}</td></tr>
                        <tr><th>"Children now"</th><td>{site.children.join(", ")}</td></tr>
                    })}
                    {site.learning_until_ms.map(|t| view! { <tr><th>"Services learning until"</th><td>{sim_time(t)}</td></tr> })}
                    <tr><th>"Services"</th><td class="small">{site.services.iter().map(|s| format!("{} {}:{} ({}, {} conn.)", s.name, s.ip, s.port, if s.up { "up" } else { "down" }, s.connections)).collect::<Vec<_>>().join(" · ")}</td></tr>
                </tbody>
            </table>
            {can_act.then(|| view! {
                <div class="controls">
                    <ActButton
                        id="site-power"
                        class=if up { "danger" } else { "" }
                        error_id="action-error"
                        label=if up { "Take site down" } else { "Bring site up" }
                        act=Act::of(&GslbAct { input: GslbActInput { op: if up { "site_down" } else { "site_up" }.into(), site: name.clone(), ..GslbActInput::default() } })
                    />
                </div>
            })}
        </section>
    }
    .erase();
    let editor = (is_admin && is_parent).then(|| {
        view! { <BackupEditor site=site.name.clone() current=site.backup_parents.clone() parents/> }.erase()
    });
    let links_table = view! { <LinksTable site=site.name.clone() links can_act/> }.erase();
    view! {
        <h1>{site.name.clone()}</h1>
        <PageHelp text="One GSLB site: its role (parent or child), its parent and backup parent, whether it is adopted or orphaned, the state of each MEP link as each end sees it, and the site's events with the reason of every adoption or return."/>
        <div class="grid">{facts}{links_table}</div>
        {editor}
        <section class="card">
            <h2>"Adoption history (offers, acceptances, rejections, migrations) with reasons"</h2>
            <p class="muted small">{newest.clone()}</p>
            <ReasonTable rows=adoptions id="adoption-history"/>
        </section>
        <section class="card">
            <h2>"MEP link changes over time"</h2>
            <p class="muted small">{newest}</p>
            <ReasonTable rows=link_history id="link-history"/>
        </section>
        <History title="Other events" rows=events id="site-events"/>
    }
}

#[component]
fn LinksTable(site: String, links: Vec<LinkView>, can_act: bool) -> impl IntoView {
    let as_of = use_as_of().get_untracked();
    view! {
        <section class="card">
            <h2>"MEP links"</h2>
            <table tabindex="0" id="link-table">
                <thead><tr><th>"Peer"</th><th>"Status"</th><th>"Out (this → peer)"</th><th>"In (peer → this)"</th><th>"Initiator"</th><th>"RTT"</th>{can_act.then(|| view! { <th></th> })}</tr></thead>
                <tbody>
                    {links.into_iter().map(|l| {
                        let mine_is_a = l.a == site;
                        let peer = if mine_is_a { l.b.clone() } else { l.a.clone() };
                        let (out, inn) = if mine_is_a { (&l.a_to_b, &l.b_to_a) } else { (&l.b_to_a, &l.a_to_b) };
                        let cut = !out.delivering || !inn.delivering;
                        let act = Act::of(&GslbAct { input: GslbActInput { op: if cut { "mep_restore" } else { "mep_cut" }.into(), from: site.clone(), to: peer.clone(), direction: "both".into(), ..GslbActInput::default() } });
                        view! {
                            <tr data-peer=peer.clone()>
                                <td><a href=as_of.link(&format!("/gslb/sites/{peer}"))>{peer.clone()}</a></td>
                                <td><span class=format!("badge {}", status_class(l.status))>{status_label(l.status)}</span></td>
                                <td class="small">{direction_text(out)}</td>
                                <td class="small">{direction_text(inn)}</td>
                                <td class="small">{format!("{} ({})", l.initiator, l.initiator_rule)}</td>
                                <td class="num">{l.rtt_ms.map(|r| format!("{r:.1} ms")).unwrap_or_else(|| "—".into())}</td>
                                {can_act.then(|| view! {
                                    <td><ActButton class=if cut { "" } else { "danger" } label=if cut { "Restore" } else { "Cut" } aria_label=format!("{} the link to {peer}", if cut { "Restore" } else { "Cut" }) act/></td>
                                })}
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </section>
    }
}

#[component]
fn BackupEditor(site: String, current: Vec<String>, parents: Vec<String>) -> impl IntoView {
    let list = current.join(" ");
    let others: Vec<String> = parents.into_iter().filter(|p| *p != site).collect();
    let command = format!("set gslb site {site} -backupParentlist {list}");
    let site_again = site.clone();
    let unset = Act::of(&GslbBackups {
        site: site.clone(),
        backups: String::new(),
    });
    view! {
        <section class="card" id="backup-editor">
            <h2>"Backup parents (administrator)"</h2>
            <p class="mono small">{command}</p>
            <ActForm path=GslbBackups::PATH class="controls" error_id="backups-error">
                <input type="hidden" name="site" value=site.clone()/>
                <label>"Backup parents in preference order (at most 5; parents only; not itself) "
                    <input type="text" size="50" name="backups" value=list/>
                </label>
                <button type="submit" id="backups-save">"Save"</button>
            </ActForm>
            <ActButton id="backups-unset" label="Unset" aria_label=format!("Unset the backup parents of {site_again}") act=unset/>
            <p class="muted small">{format!("Other parents: {}", others.join(", "))}</p>
        </section>
    }
}

#[component]
fn History(title: &'static str, rows: Vec<EventRow>, id: &'static str) -> impl IntoView {
    view! {
        <section class="card">
            <h2>{title}</h2>
            <EventTable rows id/>
        </section>
    }
}
