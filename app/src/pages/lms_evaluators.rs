//! Load evaluators: the list with their rules and assignments; for admins, the editor (copy,
//! create, edit, delete, assign) with a what-if preview of every affected server's load index
//! and of where the next launches would go, before anything is saved.

use engine::Role;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::answer::answer;
use crate::api::lms::{lms_evaluators, LmsEvaluatorAssign, LmsEvaluatorDelete};
use crate::components::act::{Act, ActForm};
use crate::components::confirm::ConfirmButton;
use crate::components::layout::user_allows;
use crate::components::page_help::PageHelp;
use crate::erase::Erase;
use crate::format::thousands;
use crate::model::evaluators::{EvaluatorRow, EvaluatorsPage};
use crate::model::lms::{is_counter, RuleDraft, RULE_KINDS};
use crate::pages::lms::LmsNav;
use crate::pages::lms_evaluator_editor::EvaluatorEditor;
use crate::pages::LoadError;

/// Short text of a rule for the list.
fn rule_summary(rule: &engine::lms::config::rules::Rule) -> String {
    let d = RuleDraft::from_rule(rule);
    let label = RULE_KINDS
        .iter()
        .find(|(k, _)| *k == d.rule)
        .map_or(d.rule.as_str(), |(_, l)| l);
    let detail = if is_counter(&d.rule) {
        format!("low {} / high {}", d.low, d.high)
    } else {
        match d.rule.as_str() {
            "application_user_load" => format!("{}: full at {}", d.app, d.users),
            "server_user_load" => format!("full at {} users", d.users),
            "load_throttling" => d.level.clone(),
            "scheduling" => d.windows.clone(),
            _ => d.ranges.clone(),
        }
    };
    format!("{label} ({detail})")
}

/// What the address asks the editor to open: `?edit=Name`, `?copy=Name` or `?new=1`; the
/// evaluator edited (`None`: a new one), the name and rules it starts from.
fn opened(
    page: &EvaluatorsPage,
    query: &leptos_router::params::ParamsMap,
) -> Option<(Option<String>, String, Vec<RuleDraft>)> {
    let rules_of = |name: &str| {
        page.evaluators
            .iter()
            .find(|row| row.evaluator.name == name)
            .map(|row| {
                row.evaluator
                    .rules
                    .iter()
                    .map(RuleDraft::from_rule)
                    .collect::<Vec<_>>()
            })
    };
    if let Some(name) = query.get("edit") {
        return rules_of(&name).map(|rules| (Some(name.clone()), name, rules));
    }
    if let Some(name) = query.get("copy") {
        return rules_of(&name).map(|rules| (None, format!("Copy of {name}"), rules));
    }
    query.get("new").map(|_| {
        let first = RuleDraft {
            rule: "server_user_load".into(),
            users: "100".into(),
            ..RuleDraft::default()
        };
        (None, String::new(), vec![first])
    })
}

/// The evaluators page.
#[component]
pub fn LmsEvaluatorsPage() -> impl IntoView {
    let query = use_query_map();
    let data = answer(|| (), |_| lms_evaluators());
    view! {
        <Title text="Load evaluators"/>
        <h1>"Load evaluators"</h1>
        <PageHelp text="The load evaluators and their rules (CPU, memory, sessions, page swaps, schedules and so on), with each rule's threshold. An admin edits an evaluator and previews, before saving, how every server's load index and the next placements would change."/>
        <LmsNav current="/lms/evaluators"/>
        <p class="muted">"Default = Server User Load (full at 100 users) + Load Throttling; Advanced = CPU 90/10 + Memory 90/10 + Page Swaps 100/0 + Load Throttling (product documentation). A server has one evaluator; an application may have one too, and the higher load wins."</p>
        <Transition fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || Suspend::new(async move {
                let is_admin = user_allows(Role::Admin).await;
                match data.await {
                    Err(e) => view! { <LoadError error=e/> }.erase(),
                    Ok(page) => {
                        let open = if is_admin { opened(&page, &query.read_untracked()) } else { None };
                        let apps = page.applications.clone();
                        let editor = open.map(|(replaces, name, rules)| view! {
                            <EvaluatorEditor replaces name rules apps/>
                        });
                        view! { <List page is_admin/> {editor} }.erase()
                    }
                }
            })}
        </Transition>
    }
}

#[component]
fn List(page: EvaluatorsPage, is_admin: bool) -> impl IntoView {
    let EvaluatorsPage {
        evaluators,
        servers,
        server_count,
        applications,
    } = page;
    let names: Vec<String> = evaluators
        .iter()
        .map(|e| e.evaluator.name.clone())
        .collect();
    view! {
        <section class="card">
            <table tabindex="0" id="evaluator-table">
                <thead><tr><th>"Evaluator"</th><th>"Rules"</th><th>"Servers"</th><th>"Applications"</th>{is_admin.then(|| view! { <th></th> })}</tr></thead>
                <tbody>
                    {evaluators.into_iter().map(|row| view! { <Row row is_admin/> }).collect_view()}
                </tbody>
            </table>
            {is_admin.then(|| view! {
                <div class="controls">
                    <a class="button" id="evaluator-new" href="/lms/evaluators?new=1">"New evaluator"</a>
                </div>
            })}
        </section>
        {is_admin.then(|| view! { <Assign names servers server_count applications/> })}
    }
}

#[component]
fn Row(row: EvaluatorRow, is_admin: bool) -> impl IntoView {
    let servers = row.servers_text();
    let e = row.evaluator;
    let in_use = !(e.servers.is_empty() && e.applications.is_empty());
    let encoded = crate::model::encode(&e.name);
    let delete = Act::of(&LmsEvaluatorDelete {
        name: e.name.clone(),
    });
    view! {
        <tr data-evaluator=e.name.clone()>
            <td>{e.name.clone()}{e.builtin.then(|| view! { <span class="muted small">" built-in"</span> })}</td>
            <td class="small">{e.rules.iter().map(|r| view! { <div>{rule_summary(r)}</div> }).collect_view()}</td>
            <td class="small">{servers}</td>
            <td class="small">{e.applications.join(", ")}</td>
            {is_admin.then(|| view! {
                <td class="row-actions">
                    <a class="button" data-action="edit" aria-label=format!("Edit evaluator {}", e.name) href=format!("/lms/evaluators?edit={encoded}")>"Edit"</a>
                    <a class="button" data-action="copy" aria-label=format!("Copy evaluator {}", e.name) href=format!("/lms/evaluators?copy={encoded}")>"Copy"</a>
                    {(!e.builtin).then(|| view! {
                        <ConfirmButton
                            label="Delete"
                            aria_label=format!("Delete evaluator {}", e.name)
                            data_act="delete"
                            confirm=format!("Delete {}", e.name)
                            consequence=format!("Delete the load evaluator {}.", e.name)
                            not_now=in_use.then(|| "Assigned to servers or applications: assign them another evaluator first.".to_owned())
                            act=delete
                        />
                    })}
                </td>
            })}
        </tr>
    }
}

#[component]
fn Assign(
    names: Vec<String>,
    servers: Vec<String>,
    server_count: usize,
    applications: Vec<String>,
) -> impl IntoView {
    let example = servers.first().cloned().unwrap_or_default();
    let pattern = example.rfind(['-', '_']).map_or_else(
        || format!("{example}*"),
        |at| format!("{}*", &example[..=at]),
    );
    let hint = format!(
        "Host names or patterns where * matches any run of characters, separated by commas ({} in the farm), e.g. {example}, {pattern}",
        thousands(server_count as u64)
    );
    view! {
        <section class="card" id="assign-form">
            <h2>"Assign"</h2>
            <ActForm path=LmsEvaluatorAssign::PATH join="applications" error_id="assign-error" status_id="assign-done" done="Assigned: the table above shows each evaluator's servers now." reset=true>
                <div class="controls">
                    <label>"Evaluator "
                        <select name="evaluator">
                            <option value="">"(none: remove the application's own evaluator)"</option>
                            {names.into_iter().map(|n| { let selected = n == "Default"; let label = n.clone(); view! { <option value=n selected=selected>{label}</option> }}).collect_view()}
                        </select>
                    </label>
                </div>
                <div class="controls">
                    <label>"Servers "
                        <input type="text" name="servers" size="40" list="assign-servers" placeholder=pattern.clone() aria-describedby="assign-servers-hint"/>
                    </label>
                    <datalist id="assign-servers">
                        {servers.into_iter().map(|s| view! { <option value=s/> }).collect_view()}
                    </datalist>
                </div>
                <p class="muted small" id="assign-servers-hint">{hint}</p>
                <div class="checks">
                    <strong>"Applications: "</strong>
                    {applications.into_iter().map(|a| view! {
                        <label><input type="checkbox" name="applications" value=a.clone()/>{a}</label>
                    }).collect_view()}
                </div>
                <button type="submit" id="assign-run">"Assign"</button>
            </ActForm>
        </section>
    }
}
