//! The alert rules: what the console watches on the live run. Everyone sees them; an admin
//! adds, replaces (same name) and deletes them. The server validates each rule and names the
//! field it refuses; a refused rule changes nothing.

use engine::Role;
use leptos::prelude::*;
use leptos_meta::Title;

use crate::answer::answer;
use crate::api::alerts::{alert_rules, DeleteAlertRule, SaveAlertRule};
use crate::components::layout::user_allows;
use crate::components::page_help::PageHelp;
use crate::erase::Erase;
use crate::model::alerts::{rule_kind, AlertRuleView, RULE_KINDS};
use crate::pages::{action_error, LoadError};

/// The alert rules page.
#[component]
pub fn AlertRulesPage() -> impl IntoView {
    let save = ServerAction::<SaveAlertRule>::new();
    let delete = ServerAction::<DeleteAlertRule>::new();
    let rules = answer(
        move || (save.version().get(), delete.version().get()),
        |_| alert_rules(),
    );
    view! {
        <Title text="Alert rules"/>
        <h1>"Alert rules"</h1>
        <PageHelp text="The conditions the console watches on the live run. Each rule has a severity and a kind: a resource location held in an HA state for some minutes, a share of VDAs unregistered, a GSLB child orphaned, a server at full load for some samples, an autoscale group at its maximum, or anything flapping. Everyone can read the rules; only an admin adds, replaces (same name) or deletes one, and a rule with a value out of range is refused with the field named, nothing saved."/>
        <p class="muted">
            "Each rule fires an alert per subject for which its condition holds (after its hold time), and resolves it when the condition no longer holds. "
            <a href="/alerts">"Alerts firing and their history"</a>
        </p>
        <Transition fallback=|| ()>
            {move || Suspend::new(async move {
                if user_allows(Role::Admin).await {
                    view! { <RuleForm save/> }.erase()
                } else {
                    view! { <p class="muted" id="rules-read-only">"Defining alert rules is for admins."</p> }.erase()
                }
            })}
        </Transition>
        <Transition fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || Suspend::new(async move {
                let admin = user_allows(Role::Admin).await;
                match rules.await {
                    Err(e) => view! { <LoadError error=e/> }.erase(),
                    Ok(list) if list.is_empty() => view! {
                        <section class="card"><p class="muted" id="rules-none">"No alert rule yet."</p></section>
                    }.erase(),
                    Ok(list) => view! { <RuleTable list delete=admin.then_some(delete)/> }.erase(),
                }
            })}
        </Transition>
        {move || action_error(delete.value().get()).map(|e| view! { <p class="error">{e}</p> })}
    }
}

/// The admin's form: a rule's name, severity, kind and the fields of that kind.
#[component]
fn RuleForm(save: ServerAction<SaveAlertRule>) -> impl IntoView {
    let kind = RwSignal::new(RULE_KINDS[0].kind.to_owned());
    view! {
        <section class="card">
            <h2>"Add or replace a rule"</h2>
            <ActionForm action=save attr:class="form" attr:id="alert-rule-form">
                <label>"Name " <input type="text" name="name" required maxlength="64"/></label>
                <label>"Severity "
                    <select name="severity">
                        <option value="critical">"critical"</option>
                        <option value="warning" selected>"warning"</option>
                        <option value="info">"info"</option>
                    </select>
                </label>
                <label>"Condition "
                    <select name="kind" on:change=move |ev| kind.set(event_target_value(&ev))>
                        {RULE_KINDS.iter().map(|k| view! { <option value=k.kind>{k.label}</option> }).collect_view()}
                    </select>
                </label>
                // The kind's fields, keyed by name: a field of another kind is a new input (an
                // input re-used for it would keep what was typed in the last one).
                <For
                    each=move || rule_kind(&kind.get()).map(|k| k.fields).unwrap_or_default().iter().copied()
                    key=|(name, _)| *name
                    let((name, label))
                >
                    <label>{format!("{label} ")}<input type="text" name=name required=name != "engine"/></label>
                </For>
                <button type="submit" class="primary">"Save rule"</button>
            </ActionForm>
            {move || action_error(save.value().get()).map(|e| view! { <p class="error" id="rule-error">{e}</p> })}
            {move || save.value().get().and_then(|r| r.ok()).map(|r| view! {
                <p class="ok" id="rule-saved">{format!("Rule {} saved: {}.", r.name, r.condition)}</p>
            })}
        </section>
    }
}

#[component]
fn RuleTable(
    list: Vec<AlertRuleView>,
    delete: Option<ServerAction<DeleteAlertRule>>,
) -> impl IntoView {
    view! {
        <section class="card">
                            <table tabindex="0" id="rules-table">
                    <thead><tr><th>"Rule"</th><th>"Severity"</th><th>"Condition"</th><th>"Saved"</th><th></th></tr></thead>
                    <tbody>
                        {list.into_iter().map(|r| {
                            let name = r.name.clone();
                            view! {
                            <tr data-rule=r.name.clone()>
                                <td>{r.name.clone()}</td>
                                <td><span class=format!("sev sev-{}", r.severity)>{r.severity.clone()}</span></td>
                                <td>{r.condition.clone()}<span class="muted small mono">{format!(" ({})", r.kind)}</span></td>
                                <td class="small">{format!("by {} at {}", r.saved_by, r.saved_at)}</td>
                                <td>{delete.map(|delete| view! {
                                    <ActionForm action=delete attr:class="inline">
                                        <input type="hidden" name="name" value=name.clone()/>
                                        <button type="submit" class="danger">{format!("Delete {name}")}</button>
                                    </ActionForm>
                                })}</td>
                            </tr>
                        }}).collect_view()}
                    </tbody>
                </table>
        </section>
    }
}
