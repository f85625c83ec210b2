//! Load evaluators: the list with their rules and assignments; for admins, the editor (copy,
//! create, edit, delete, assign) with a what-if preview of every affected server's load index
//! and of where the next launches would go, before anything is saved.

use engine::lms::views::{EvaluatorPreview, PreviewRow};
use engine::Role;
use leptos::prelude::*;
use leptos_meta::Title;

use crate::answer::answer;
use crate::api::lms::{
    lms_evaluators, LmsEvaluatorAssign, LmsEvaluatorDelete, LmsEvaluatorPreview, LmsEvaluatorSave,
    PREVIEW_LAUNCHES,
};
use crate::components::layout::user_allows;
use crate::components::page_help::PageHelp;
use crate::erase::Erase;
use crate::format::thousands;
use crate::model::evaluator_preview;
use crate::model::evaluators::{EvaluatorRow, EvaluatorsPage};
use crate::model::lms::{is_counter, RuleDraft, RULE_KINDS};
use crate::pages::lms::LmsNav;
use crate::pages::{action_error, LoadError};

/// What the editor holds.
#[derive(Clone)]
struct Draft {
    /// The evaluator being edited (`None`: a new one).
    replaces: Option<String>,
    name: RwSignal<String>,
    rules: RwSignal<Vec<(u32, RwSignal<RuleDraft>)>>,
    next_id: RwSignal<u32>,
}

impl Draft {
    fn new(replaces: Option<String>, name: String, rules: Vec<RuleDraft>) -> Draft {
        let n = u32::try_from(rules.len()).unwrap_or(0);
        Draft {
            replaces,
            name: RwSignal::new(name),
            rules: RwSignal::new(
                rules
                    .into_iter()
                    .zip(0..)
                    .map(|(r, i)| (i, RwSignal::new(r)))
                    .collect(),
            ),
            next_id: RwSignal::new(n),
        }
    }

    fn rules_json(&self) -> String {
        let rules: Vec<RuleDraft> = self
            .rules
            .get_untracked()
            .iter()
            .map(|(_, r)| r.get_untracked())
            .collect();
        serde_json::to_string(&rules).unwrap_or_else(|_| "[]".into())
    }
}

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

/// The evaluators page.
#[component]
pub fn LmsEvaluatorsPage() -> impl IntoView {
    let save = ServerAction::<LmsEvaluatorSave>::new();
    let delete = ServerAction::<LmsEvaluatorDelete>::new();
    let assign = ServerAction::<LmsEvaluatorAssign>::new();
    let data = answer(
        move || {
            (
                save.version().get(),
                delete.version().get(),
                assign.version().get(),
            )
        },
        |_| lms_evaluators(),
    );
    let editing: RwSignal<Option<Draft>> = RwSignal::new(None);
    let choice = AssignChoice::new();
    // An assignment done: the form empties for the next one (a refusal keeps what was typed).
    Effect::new(move |_| {
        if matches!(assign.value().get(), Some(Ok(()))) {
            choice.servers.set(String::new());
            choice.applications.set(Vec::new());
        }
    });
    // Close the editor once a save succeeded.
    Effect::new(move |_| {
        if matches!(save.value().get(), Some(Ok(()))) {
            editing.set(None);
        }
    });
    view! {
        <Title text="Load evaluators"/>
        <h1>"Load evaluators"</h1>
        <PageHelp text="The load evaluators and their rules (CPU, memory, sessions, page swaps, schedules and so on), with each rule's threshold. An admin edits an evaluator and previews, before saving, how every server's load index and the next placements would change."/>
        <LmsNav current="/lms/evaluators"/>
        <p class="muted">"Default = Server User Load (full at 100 users) + Load Throttling; Advanced = CPU 90/10 + Memory 90/10 + Page Swaps 100/0 + Load Throttling (product documentation). A server has one evaluator; an application may have one too, and the higher load wins."</p>
        {move || action_error(delete.value().get()).map(|e| view! { <p class="error" id="delete-error">{e}</p> })}
        <Transition fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || Suspend::new(async move {
                let is_admin = user_allows(Role::Admin).await;
                match data.await {
                    Err(e) => view! { <LoadError error=e/> }.erase(),
                    Ok(page) => view! { <List page editing delete assign choice is_admin/> }.erase(),
                }
            })}
        </Transition>
        {move || editing.get().map(|draft| view! { <Editor draft save editing apps=data.get().and_then(Result::ok).map(|p| p.applications).unwrap_or_default()/> })}
    }
}

#[component]
fn List(
    page: EvaluatorsPage,
    editing: RwSignal<Option<Draft>>,
    delete: ServerAction<LmsEvaluatorDelete>,
    assign: ServerAction<LmsEvaluatorAssign>,
    choice: AssignChoice,
    is_admin: bool,
) -> impl IntoView {
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
                    {evaluators.into_iter().map(|row| view! { <Row row editing delete is_admin/> }).collect_view()}
                </tbody>
            </table>
            {is_admin.then(|| view! {
                <div class="controls">
                    <button id="evaluator-new" on:click=move |_| editing.set(Some(Draft::new(None, String::new(), vec![RuleDraft { rule: "server_user_load".into(), users: "100".into(), ..RuleDraft::default() }])))>"New evaluator"</button>
                </div>
            })}
        </section>
        {is_admin.then(|| view! { <Assign names servers server_count applications assign choice/> })}
    }
}

#[component]
fn Row(
    row: EvaluatorRow,
    editing: RwSignal<Option<Draft>>,
    delete: ServerAction<LmsEvaluatorDelete>,
    is_admin: bool,
) -> impl IntoView {
    let servers = row.servers_text();
    let e = row.evaluator;
    let drafts: Vec<RuleDraft> = e.rules.iter().map(RuleDraft::from_rule).collect();
    let (name1, name2, name3) = (e.name.clone(), e.name.clone(), e.name.clone());
    let drafts2 = drafts.clone();
    let in_use = !(e.servers.is_empty() && e.applications.is_empty());
    view! {
        <tr data-evaluator=e.name.clone()>
            <td>{e.name.clone()}{e.builtin.then(|| view! { <span class="muted small">" built-in"</span> })}</td>
            <td class="small">{e.rules.iter().map(|r| view! { <div>{rule_summary(r)}</div> }).collect_view()}</td>
            <td class="small">{servers}</td>
            <td class="small">{e.applications.join(", ")}</td>
            {is_admin.then(|| view! {
                <td class="row-actions">
                    <button data-action="edit" aria-label=format!("Edit evaluator {}", e.name) on:click=move |_| editing.set(Some(Draft::new(Some(name1.clone()), name1.clone(), drafts.clone())))>"Edit"</button>
                    <button data-action="copy" aria-label=format!("Copy evaluator {}", e.name) on:click=move |_| editing.set(Some(Draft::new(None, format!("Copy of {name2}"), drafts2.clone())))>"Copy"</button>
                    {(!e.builtin).then(|| view! {
                        <button data-action="delete" class="danger" aria-label=format!("Delete evaluator {}", e.name) title=if in_use { "Assigned: the server refuses to delete it" } else { "" }
                            on:click=move |_| { delete.dispatch(LmsEvaluatorDelete { name: name3.clone() }); }>"Delete"</button>
                    })}
                </td>
            })}
        </tr>
    }
}

/// What the assignment form holds. The page keeps it, so the list's refresh after an
/// assignment or a refusal does not put back choices the admin did not make.
#[derive(Clone, Copy)]
struct AssignChoice {
    evaluator: RwSignal<String>,
    servers: RwSignal<String>,
    applications: RwSignal<Vec<String>>,
}

impl AssignChoice {
    fn new() -> AssignChoice {
        AssignChoice {
            evaluator: RwSignal::new("Default".to_owned()),
            servers: RwSignal::new(String::new()),
            applications: RwSignal::new(Vec::new()),
        }
    }
}

#[component]
fn Assign(
    names: Vec<String>,
    servers: Vec<String>,
    server_count: usize,
    applications: Vec<String>,
    assign: ServerAction<LmsEvaluatorAssign>,
    choice: AssignChoice,
) -> impl IntoView {
    let AssignChoice {
        evaluator,
        servers: chosen_servers,
        applications: chosen_apps,
    } = choice;
    let toggle = |set: RwSignal<Vec<String>>, item: String, on: bool| {
        set.update(|v| {
            v.retain(|x| *x != item);
            if on {
                v.push(item);
            }
        });
    };
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
            <div class="controls">
                <label>"Evaluator "
                    <select on:change=move |ev| evaluator.set(event_target_value(&ev))>
                        <option value="">"(none: remove the application's own evaluator)"</option>
                        {names.into_iter().map(|n| { let (value, same) = (n.clone(), n.clone()); view! { <option value=value selected=move || evaluator.with(|e| *e == same)>{n}</option> }}).collect_view()}
                    </select>
                </label>
            </div>
            <div class="controls">
                <label>"Servers "
                    <input type="text" name="servers" size="40" list="assign-servers" placeholder=pattern.clone() aria-describedby="assign-servers-hint"
                        prop:value=chosen_servers on:input=move |ev| chosen_servers.set(event_target_value(&ev))/>
                </label>
                <datalist id="assign-servers">
                    {servers.into_iter().map(|s| view! { <option value=s/> }).collect_view()}
                </datalist>
            </div>
            <p class="muted small" id="assign-servers-hint">{hint}</p>
            <div class="checks">
                <strong>"Applications: "</strong>
                {applications.into_iter().map(|a| { let a2 = a.clone(); view! {
                    <label><input type="checkbox" value=a.clone() prop:checked={ let a = a.clone(); move || chosen_apps.with(|v| v.contains(&a)) } on:change=move |ev| toggle(chosen_apps, a2.clone(), event_target_checked(&ev))/>{a}</label>
                }}).collect_view()}
            </div>
            <button id="assign-run" on:click=move |_| {
                assign.dispatch(LmsEvaluatorAssign {
                    evaluator: evaluator.get_untracked(),
                    servers: Some(chosen_servers.get_untracked()),
                    applications: Some(chosen_apps.get_untracked().join(",")),
                });
            }>"Assign"</button>
            {move || action_error(assign.value().get()).map(|e| view! { <p class="error" id="assign-error">{e}</p> })}
            {move || matches!(assign.value().get(), Some(Ok(()))).then(|| view! { <p class="muted" id="assign-done">"Assigned: the table above shows each evaluator's servers now."</p> })}
        </section>
    }
}

#[component]
fn Editor(
    draft: Draft,
    save: ServerAction<LmsEvaluatorSave>,
    editing: RwSignal<Option<Draft>>,
    apps: Vec<String>,
) -> impl IntoView {
    let preview = ServerAction::<LmsEvaluatorPreview>::new();
    let preview_app = RwSignal::new(String::new());
    let title = match &draft.replaces {
        Some(name) => format!("Edit evaluator {name}"),
        None => "New evaluator".to_owned(),
    };
    let (d1, d2, d3) = (draft.clone(), draft.clone(), draft.clone());
    let rules = draft.rules;
    let next_id = draft.next_id;
    let app_options = apps.clone();
    // The editor opens below the list: it is brought into view and its first field focused.
    let name_field = NodeRef::<leptos::html::Input>::new();
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        if let Some(input) = name_field.get() {
            input.scroll_into_view();
            let _ = input.focus();
        }
    });
    view! {
        <section class="card editor" id="evaluator-editor">
            <h2>{title}</h2>
            <div class="controls">
                <label>"Name " <input type="text" name="name" size="30" node_ref=name_field prop:value=draft.name on:input=move |ev| draft.name.set(event_target_value(&ev))/></label>
            </div>
            <table tabindex="0" id="rule-editor">
                <thead><tr><th>"Rule"</th><th>"Settings"</th><th></th></tr></thead>
                <tbody>
                    <For each=move || rules.get() key=|(id, _)| *id let:row>
                        <RuleRow id=row.0 rule=row.1 rules apps=apps.clone()/>
                    </For>
                </tbody>
            </table>
            <div class="controls">
                <button on:click=move |_| {
                    let id = next_id.get_untracked();
                    next_id.set(id + 1);
                    rules.update(|v| v.push((id, RwSignal::new(RuleDraft { rule: "cpu_utilization".into(), low: "10".into(), high: "90".into(), ..RuleDraft::default() }))));
                }>"Add rule"</button>
            </div>
            <div class="controls">
                <label>"Preview "{PREVIEW_LAUNCHES}" launches of "
                    <select on:change=move |ev| preview_app.set(event_target_value(&ev))>
                        <option value="">"(first application of the affected servers)"</option>
                        {app_options.into_iter().map(|a| view! { <option value=a.clone()>{a.clone()}</option> }).collect_view()}
                    </select>
                </label>
                <button id="evaluator-preview" on:click=move |_| {
                    preview.dispatch(LmsEvaluatorPreview { replaces: d1.replaces.clone(), name: d1.name.get_untracked(), rules: d1.rules_json(), app: Some(preview_app.get_untracked()) });
                }>"Preview"</button>
                <button id="evaluator-save" class="primary" on:click=move |_| {
                    save.dispatch(LmsEvaluatorSave { replaces: d2.replaces.clone(), name: d2.name.get_untracked(), rules: d2.rules_json() });
                }>"Save"</button>
                <button on:click=move |_| { let _ = &d3; editing.set(None); }>"Cancel"</button>
            </div>
            {move || action_error(save.value().get()).map(|e| view! { <p class="error" id="editor-error">{e}</p> })}
            {move || action_error(preview.value().get()).map(|e| view! { <p class="error" id="preview-error">{e}</p> })}
            {move || preview.value().get().and_then(Result::ok).map(|p| view! { <Preview preview=p/> })}
        </section>
    }
}

#[component]
fn RuleRow(
    id: u32,
    rule: RwSignal<RuleDraft>,
    rules: RwSignal<Vec<(u32, RwSignal<RuleDraft>)>>,
    apps: Vec<String>,
) -> impl IntoView {
    let kind = move || rule.with(|r| r.rule.clone());
    let field = move |name: &'static str, size: &'static str| {
        let value = move || {
            rule.with(|r| match name {
                "low" => r.low.clone(),
                "high" => r.high.clone(),
                "users" => r.users.clone(),
                "windows" => r.windows.clone(),
                "ranges" => r.ranges.clone(),
                _ => String::new(),
            })
        };
        view! {
            <label>{name} " "
                <input type="text" name=name size=size prop:value=value on:input=move |ev| {
                    let v = event_target_value(&ev);
                    rule.update(|r| match name {
                        "low" => r.low = v,
                        "high" => r.high = v,
                        "users" => r.users = v,
                        "windows" => r.windows = v,
                        _ => r.ranges = v,
                    });
                }/>
            </label>
        }
    };
    let apps2 = apps.clone();
    view! {
        <tr data-rule=kind>
            <td>
                <select aria-label="Rule" on:change=move |ev| { let v = event_target_value(&ev); rule.update(|r| r.rule = v); }>
                    {RULE_KINDS.into_iter().map(|(k, label)| view! { <option value=k selected=move || kind() == k>{label}</option> }).collect_view()}
                </select>
            </td>
            <td class="rule-fields">
                {move || {
                    let k = kind();
                    if is_counter(&k) {
                        view! { {field("low", "8")} " " {field("high", "8")} }.erase()
                    } else {
                        match k.as_str() {
                            "server_user_load" => field("users", "6").erase(),
                            "application_user_load" => {
                                let list = apps2.clone();
                                view! {
                                    <label>"app "
                                        <select on:change=move |ev| { let v = event_target_value(&ev); rule.update(|r| r.app = v); }>
                                            <option value="">"(choose)"</option>
                                            {list.into_iter().map(|a| { let a2 = a.clone(); view! { <option value=a.clone() selected=move || rule.with(|r| r.app == a2)>{a.clone()}</option> }}).collect_view()}
                                        </select>
                                    </label>
                                    " " {field("users", "6")}
                                }.erase()
                            }
                            "load_throttling" => view! {
                                <label>"level "
                                    <select on:change=move |ev| { let v = event_target_value(&ev); rule.update(|r| r.level = v); }>
                                        {["extreme", "high", "medium_high", "medium", "medium_low"].into_iter().map(|l| view! {
                                            <option value=l selected=move || rule.with(|r| r.level == l || (r.level.is_empty() && l == "high"))>{l}</option>
                                        }).collect_view()}
                                    </select>
                                </label>
                            }.erase(),
                            "scheduling" => field("windows", "40").erase(),
                            _ => field("ranges", "40").erase(),
                        }
                    }
                }}
            </td>
            <td><button aria-label=move || format!("Remove rule {}", kind()) on:click=move |_| rules.update(|v| v.retain(|(i, _)| *i != id))>"Remove"</button></td>
        </tr>
    }
}

#[component]
fn Preview(preview: EvaluatorPreview) -> impl IntoView {
    let sentences = evaluator_preview::summary(&preview);
    let changes = evaluator_preview::placement_changes(&preview);
    let total = preview.rows.len();
    let shown: Vec<PreviewRow> =
        evaluator_preview::shown_rows(&preview, evaluator_preview::PREVIEW_ROWS)
            .into_iter()
            .cloned()
            .collect();
    view! {
        <div id="preview">
            <h2 class="spaced">"What-if (nothing saved yet)"</h2>
            <ul id="preview-summary">
                {sentences.into_iter().map(|s| view! { <li>{s}</li> }).collect_view()}
            </ul>
            <table tabindex="0" id="preview-table">
                {(total > shown.len()).then(|| view! { <caption>{format!("The {} servers whose load index changes most, of the {} that use this evaluator", shown.len(), thousands(total as u64))}</caption> })}
                <thead><tr><th>"Server"</th><th class="num">"Load index now"</th><th class="num">"With this evaluator"</th><th class="num">"Change"</th></tr></thead>
                <tbody>
                    {shown.iter().map(|r| {
                        let delta = i64::from(r.edited) - i64::from(r.now);
                        let change = if delta == 0 { "no change".to_owned() } else { format!("{delta:+}") };
                        view! {
                            <tr data-server=r.host.clone() class:changed=delta != 0><td class="mono">{r.host.clone()}</td><td class="num" data-col="now">{r.now}</td><td class="num" data-col="edited">{r.edited}</td>
                            <td class="num" data-col="change">{change}</td></tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
            <table tabindex="0" id="preview-placements">
                <caption>{format!("Where the next {} launches of {} go", preview.launches, preview.app)}</caption>
                <thead><tr><th>"Server"</th><th class="num">"Now"</th><th class="num">"With this evaluator"</th><th class="num">"Change"</th></tr></thead>
                <tbody>
                    {changes.into_iter().map(|c| {
                        let delta = i64::from(c.edited) - i64::from(c.now);
                        let change = if delta == 0 { "no change".to_owned() } else { format!("{delta:+}") };
                        view! {
                            <tr data-server=c.host.clone() class:changed=delta != 0><td class="mono">{c.host.clone()}</td><td class="num" data-col="now">{c.now}</td><td class="num" data-col="edited">{c.edited}</td><td class="num">{change}</td></tr>
                        }
                    }).collect_view()}
                    <tr class="total" data-server="refused"><th>"refused"</th><td class="num" data-col="now">{preview.rejected_now}</td><td class="num" data-col="edited">{preview.rejected_edited}</td>
                        <td class="num">{match i64::from(preview.rejected_edited) - i64::from(preview.rejected_now) { 0 => "no change".to_owned(), d => format!("{d:+}") }}</td></tr>
                </tbody>
            </table>
        </div>
    }
}
