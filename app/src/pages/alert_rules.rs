//! The alert rules: what the console watches on the live run. Everyone sees them; an admin
//! adds, replaces (same name) and deletes them. The server validates each rule and names the
//! field it refuses; a refused rule changes nothing.

use engine::Role;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;

use crate::answer::answer;
use crate::api::alerts::{alert_rules, DeleteAlertRule, SaveAlertRule};
use crate::components::act::{Act, ActForm};
use crate::components::confirm::ConfirmButton;
use crate::components::layout::user_allows;
use crate::components::page_help::PageHelp;
use crate::erase::Erase;
use crate::model::alerts::{AlertRuleView, RULE_KINDS};
use crate::pages::LoadError;

/// The alert rules page.
#[component]
pub fn AlertRulesPage() -> impl IntoView {
    let rules = answer(|| (), |_| alert_rules());
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
                    view! { <RuleForm/> }.erase()
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
                    Ok(list) => view! { <RuleTable list admin/> }.erase(),
                }
            })}
        </Transition>
    }
}

/// The admin's form: a rule's name, severity, kind and the fields of that kind (one fieldset
/// per kind, the chosen one shown: `data-switch`).
#[component]
fn RuleForm() -> impl IntoView {
    view! {
        <section class="card">
            <h2>"Add or replace a rule"</h2>
            <ActForm path=SaveAlertRule::PATH class="form" id="alert-rule-form" error_id="rule-error" status_id="rule-saved" done="Rule {name} saved: {condition}." reset=true>
                <label>"Name " <input type="text" name="name" required maxlength="64"/></label>
                <label>"Severity "
                    <select name="severity">
                        <option value="critical">"critical"</option>
                        <option value="warning" selected>"warning"</option>
                        <option value="info">"info"</option>
                    </select>
                </label>
                <label>"Condition "
                    <select name="kind" data-switch="">
                        {RULE_KINDS.iter().map(|k| view! { <option value=k.kind>{k.label}</option> }).collect_view()}
                    </select>
                </label>
                {RULE_KINDS.iter().enumerate().map(|(i, k)| {
                    let first = i == 0;
                    view! {
                        <fieldset class="case" data-case=k.kind hidden=!first disabled=!first>
                            <legend class="visually-hidden">{k.label}</legend>
                            {k.fields.iter().map(|(name, label)| view! {
                                <label>{format!("{label} ")}<input type="text" name=*name required=*name != "engine"/></label>
                            }).collect_view()}
                        </fieldset>
                    }
                }).collect_view()}
                <button type="submit" class="primary">"Save rule"</button>
            </ActForm>
        </section>
    }
}

#[component]
fn RuleTable(list: Vec<AlertRuleView>, admin: bool) -> impl IntoView {
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
                                <td>{admin.then(|| view! {
                                    <ConfirmButton
                                        label=format!("Delete {name}")
                                        confirm=format!("Delete {name}")
                                        consequence=format!("Delete the alert rule {name}: it stops firing; the alerts it fired stay in the history.")
                                        act=Act::of(&DeleteAlertRule { name: name.clone() })
                                    />
                                })}</td>
                            </tr>
                        }}).collect_view()}
                    </tbody>
                </table>
        </section>
    }
}
