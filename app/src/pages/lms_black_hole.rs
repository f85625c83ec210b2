//! The black-hole A/B: the same seeded logon storm right after a server reboots, run twice on
//! copies of the scenario's farm — with the fix (a starting server reports 10000) and
//! without it (it reports 0 and swallows the storm) — shown side by side.

use engine::lms::views::{AbReport, AbRun};
use engine::Role;
use leptos::prelude::*;
use leptos_meta::Title;

use crate::answer::answer;
use crate::api::lms::{lms_evaluators, LmsBlackHoleAb};
use crate::components::layout::user_allows;
use crate::components::lms_charts::{sessions_top, SessionLines};
use crate::components::page_help::PageHelp;
use crate::erase::Erase;
use crate::format::thousands;
use crate::pages::lms::LmsNav;
use crate::pages::{action_error, LoadError};

/// The A/B page.
#[component]
pub fn LmsBlackHolePage() -> impl IntoView {
    let run = ServerAction::<LmsBlackHoleAb>::new();
    let farm = answer(|| (), |_| lms_evaluators());
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
                match farm.await {
                    Err(e) => view! { <LoadError error=e/> }.erase(),
                    Ok(page) if can_run => view! { <AbForm servers=page.servers server_count=page.server_count apps=page.applications run/> }.erase(),
                    Ok(_) => view! { <p class="muted">"Running the A/B needs the operator role."</p> }.erase(),
                }
            })}
        </Suspense>
        {move || action_error(run.value().get()).map(|e| view! { <p class="error" id="action-error">{e}</p> })}
        {move || run.pending().get().then(|| view! { <p class="muted">"Running both simulations…"</p> })}
        {move || run.value().get().and_then(Result::ok).map(|report| view! { <Report report/> })}
    }
}

#[component]
fn AbForm(
    servers: Vec<String>,
    server_count: usize,
    apps: Vec<String>,
    run: ServerAction<LmsBlackHoleAb>,
) -> impl IntoView {
    let server = RwSignal::new(servers.first().cloned().unwrap_or_default());
    let users = RwSignal::new("60".to_owned());
    let over = RwSignal::new("2m".to_owned());
    let app = RwSignal::new(String::new());
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
            <div class="controls" id="ab-form">
                <label>"Reboot "
                    <input type="text" name="server" size="14" list="ab-servers" aria-describedby="ab-servers-hint" prop:value=server on:input=move |ev| server.set(event_target_value(&ev))/>
                </label>
                <datalist id="ab-servers">
                    {servers.into_iter().map(|s| view! { <option value=s/> }).collect_view()}
                </datalist>
                <label>" then a storm of " <input type="number" name="users" min="1" max="5000" size="5" prop:value=users on:input=move |ev| users.set(event_target_value(&ev))/> " users"</label>
                <label>" over " <input type="text" name="over" size="5" prop:value=over on:input=move |ev| over.set(event_target_value(&ev))/></label>
                <label>" launching "
                    <select on:change=move |ev| app.set(event_target_value(&ev))>
                        <option value="">"any application"</option>
                        {apps.into_iter().map(|a| view! { <option value=a.clone()>{a.clone()}</option> }).collect_view()}
                    </select>
                </label>
                <button id="ab-run" on:click=move |_| {
                    run.dispatch(LmsBlackHoleAb { server: server.get_untracked(), users: users.get_untracked(), over: over.get_untracked(), app: Some(app.get_untracked()) });
                }>"Run A/B"</button>
            </div>
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
