//! The load-evaluator editor (an island: the rules are edited in the browser): an
//! evaluator's name and rules, a what-if preview of every affected server's load index and of
//! where the next launches would go, and saving, all checked on the server.

use engine::lms::views::{EvaluatorPreview, PreviewRow};
use leptos::prelude::*;

use crate::api::lms::{LmsEvaluatorPreview, LmsEvaluatorSave, PREVIEW_LAUNCHES};
use crate::erase::Erase;
use crate::format::thousands;
use crate::model::evaluator_preview;
use crate::model::lms::{is_counter, RuleDraft, RULE_KINDS};
use crate::pages::action_error;

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

/// The editor of one evaluator: `replaces` the evaluator edited (`None`: a new one), `name`
/// and `rules` what it starts from, `apps` the farm's applications. Saving closes it (the page
/// is read again without it); Cancel is a link back to the list.
#[island]
pub fn EvaluatorEditor(
    replaces: Option<String>,
    name: String,
    rules: Vec<RuleDraft>,
    apps: Vec<String>,
) -> impl IntoView {
    let draft = Draft::new(replaces, name, rules);
    let save = ServerAction::<LmsEvaluatorSave>::new();
    // Saved: the list shows it, the editor closes.
    Effect::new(move |_| {
        if matches!(save.value().get(), Some(Ok(()))) {
            crate::components::live::navigate_to("/lms/evaluators");
        }
    });
    let preview = ServerAction::<LmsEvaluatorPreview>::new();
    let preview_app = RwSignal::new(String::new());
    let title = match &draft.replaces {
        Some(name) => format!("Edit evaluator {name}"),
        None => "New evaluator".to_owned(),
    };
    let (d1, d2) = (draft.clone(), draft.clone());
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
                <a class="button" href="/lms/evaluators" id="evaluator-cancel">"Cancel"</a>
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
