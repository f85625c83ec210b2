//! The black-hole A/B: the same seeded logon storm right after a server reboots, run twice on
//! copies of the scenario's farm — with the fix (a starting server reports 10000) and
//! without it (it reports 0 and swallows the storm) — shown side by side.

use engine::lms::views::{AbReport, AbRun};
use engine::Role;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::answer::answer;
use crate::api::lms::{lms_black_hole_ab, lms_evaluators};
use crate::components::filter_form::FilterForm;
use crate::components::layout::user_allows;
use crate::components::lms_charts::{sessions_top, SessionLines};
use crate::components::page_help::PageHelp;
use crate::erase::Erase;
use crate::format::thousands;
use crate::pages::lms::LmsNav;
use crate::pages::LoadError;

/// The A/B page. The form is a `GET` of this page: the A/B runs on the server when the
/// address names a server, so a result has an address to share and to come back to.
#[component]
pub fn LmsBlackHolePage() -> impl IntoView {
    let query = use_query_map();
    let asked = Memo::new(move |_| {
        let q = query.read();
        q.get("server").map(|server| {
            (
                server,
                q.get("users").unwrap_or_default(),
                q.get("over").unwrap_or_default(),
                q.get("app"),
            )
        })
    });
    let farm = answer(|| (), |_| lms_evaluators());
    let report = answer(
        move || asked.get(),
        |asked| async move {
            match asked {
                None => Ok(None),
                Some((server, users, over, app)) => {
                    lms_black_hole_ab(server, users, over, app).await.map(Some)
                }
            }
        },
    );
    view! {
        <Title text="Black-hole A/B"/>
        <h1>"Black-hole A/B"</h1>
        <PageHelp text="Two runs of the same logon storm side by side, one with load throttling and one without, on the same scale: without it, every new session goes to the server that looks least loaded and piles up there (the black-hole effect)."/>
        <LmsNav current="/lms/black-hole"/>
        <p class="muted">
            "Before Hotfix Rollup Pack 3 for XenApp 5.0 / Presentation Server 4.5, a server that had just started reported load 0 while its services were still starting, so the data collector sent it every new session and it \"swallowed\" the storm. With the fix it reports full load (10000) until its services are up. Both runs use the same seed, storm and reboot, on copies of the scenario's farm; the live simulation is not touched."
        </p>
        <Suspense fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || Suspend::new(async move {
                let can_run = user_allows(Role::Operator).await;
                let asked = asked.get_untracked();
                match farm.await {
                    Err(e) => view! { <LoadError error=e/> }.erase(),
                    Ok(page) if can_run => view! { <AbForm servers=page.servers server_count=page.server_count apps=page.applications asked/> }.erase(),
                    Ok(_) => view! { <p class="muted">"Running the A/B needs the operator role."</p> }.erase(),
                }
            })}
        </Suspense>
        <Suspense fallback=|| view! { <p class="muted">"Running both simulations…"</p> }>
            {move || Suspend::new(async move {
                match report.await {
                    Err(e) => view! { <p class="error" id="action-error">{e.to_string()}</p> }.erase(),
                    Ok(None) => ().erase(),
                    Ok(Some(report)) => view! { <Report report/> }.erase(),
                }
            })}
        </Suspense>
    }
}

/// The A/B asked for in the address: server, users, over, application.
type Asked = Option<(String, String, String, Option<String>)>;

#[component]
fn AbForm(
    servers: Vec<String>,
    server_count: usize,
    apps: Vec<String>,
    asked: Asked,
) -> impl IntoView {
    let (server, users, over, app) = asked.unwrap_or_else(|| {
        (
            servers.first().cloned().unwrap_or_default(),
            "60".to_owned(),
            "2m".to_owned(),
            None,
        )
    });
    let app = app.unwrap_or_default();
    let hint = if servers.len() < server_count {
        format!(
            "The server to reboot, by host name: any of the farm's {} servers (the suggestions are the first {}).",
            thousands(server_count as u64),
            servers.len()
        )
    } else {
        "The server to reboot, by host name: the suggestions are every server of the farm."
            .to_owned()
    };
    view! {
        <section class="card">
            <FilterForm class="controls" id="ab-form">
                <label>"Reboot "
                    <input type="text" name="server" size="14" list="ab-servers" aria-describedby="ab-servers-hint" value=server/>
                </label>
                <datalist id="ab-servers">
                    {servers.into_iter().map(|s| view! { <option value=s/> }).collect_view()}
                </datalist>
                <label>" then a storm of " <input type="number" name="users" min="1" max="5000" size="5" value=users/> " users"</label>
                <label>" over " <input type="text" name="over" size="5" value=over/></label>
                <label>" launching "
                    <select name="app">
                        <option value="">"any application"</option>
                        {apps.into_iter().map(|a| {
                            let selected = a == app;
                            view! { <option value=a.clone() selected=selected>{a.clone()}</option> }
                        }).collect_view()}
                    </select>
                </label>
                <button type="submit" id="ab-run">"Run A/B"</button>
            </FilterForm>
            <p class="muted small" id="ab-servers-hint">{hint}</p>
        </section>
    }
}

#[component]
fn Side(run: AbRun, rebooted: String, top: u32) -> impl IntoView {
    let title = if run.fix { "Fix on" } else { "Fix off" };
    let id = if run.fix { "ab-fix-on" } else { "ab-fix-off" };
    view! {
        <section class="card" id=id>
            <h2>{title}</h2>
            <p data-col="on_rebooted" data-value=run.on_rebooted.to_string()>{format!("{} of {} placed sessions went to the rebooted server; the busiest server got {} % of the storm; {} refused.",
                run.on_rebooted, run.placed, run.max_share_pct, run.rejected)}</p>
            <SessionLines run rebooted top/>
        </section>
    }
}

#[component]
fn Report(report: AbReport) -> impl IntoView {
    let AbReport {
        server,
        users,
        over_ms,
        fix_on,
        fix_off,
    } = report;
    let top = sessions_top(&[&fix_off, &fix_on]);
    view! {
        <p class="muted">{format!("{users} users over {} s right after {server} restarted.", over_ms / 1000)}</p>
        <div class="grid">
            <Side run=fix_off rebooted=server.clone() top/>
            <Side run=fix_on rebooted=server top/>
        </div>
    }
}
