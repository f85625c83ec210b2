//! The formula audit card of the dynamic store page: every server's load index under the
//! seed's sum formula and the 7.x average formula side by side, and where the next launches
//! would go under each, before anyone flips the farm's formula.

use engine::lms::config::LoadFormula;
use engine::lms::views::FormulaAudit;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::answer::answer;
use crate::api::lms_audit::{lms_formula_audit, DEFAULT_AUDIT_LAUNCHES};
use crate::components::filter_form::FilterForm;
use crate::erase::Erase;
use crate::pages::LoadError;
use crate::time_travel::use_as_of;

/// The audit card: a `GET` form (application, launches: `?audit-app=..&audit-launches=..`,
/// the page's other parameters kept) and its answer, read on the server. It does not follow
/// the live clock (its instant is shown).
#[component]
pub fn FormulaAuditCard() -> impl IntoView {
    let as_of = use_as_of();
    let query = use_query_map();
    // (application, launches as typed): the server checks the number and names the field.
    let asked = Memo::new(move |_| {
        let q = query.read();
        (
            q.get("audit-app").filter(|a| !a.is_empty()),
            q.get("audit-launches"),
        )
    });
    let audit = answer(
        move || (asked.get(), as_of.get()),
        |((app, launches), as_of)| async move {
            let launches = match launches.as_deref().map(str::trim) {
                None | Some("") => None,
                Some(text) => match text.parse::<u32>() {
                    Ok(n) => Some(n),
                    Err(_) => {
                        return Err(crate::error::AppError::Invalid {
                            field: "launches".into(),
                            message: format!("must be a whole number from 0 to 1000; got `{text}`"),
                        })
                    }
                },
            };
            lms_formula_audit(app, launches, as_of.at, as_of.run).await
        },
    );
    let (app, launches) = asked.get_untracked();
    let launches = launches.unwrap_or_else(|| DEFAULT_AUDIT_LAUNCHES.to_string());
    view! {
        <section class="card" id="formula-audit">
            <h2>"Formula audit: the seed's sum formula against the 7.x average formula"</h2>
            <p class="muted">"Load index = the highest rule load + 5 % of the sum of the other rules' loads (seed, the default) or + 5 % of their average (the 7.x product). The next launches are placed on two copies of the farm, one per formula; nothing changes in the run."</p>
            <Transition fallback=|| view! { <p class="muted">"Auditing…"</p> }>
                {move || {
                    let (app, launches) = (app.clone(), launches.clone());
                    Suspend::new(async move {
                        let answer = audit.await;
                        let apps = answer.as_ref().map(|a| a.applications.clone()).unwrap_or_default();
                        let chosen = app.clone().or_else(|| answer.as_ref().ok().map(|a| a.app.clone())).unwrap_or_default();
                        view! {
                            <FilterForm class="inline" id="formula-audit-form" merge=true>
                                <label>"Application "
                                    <select name="audit-app">
                                        {apps.into_iter().map(|a| {
                                            let selected = a == chosen;
                                            let value = a.clone();
                                            view! { <option value=value selected=selected>{a}</option> }
                                        }).collect_view()}
                                    </select>
                                </label>
                                <label>" Launches "
                                    <input type="number" name="audit-launches" min="0" max="1000" size="5" value=launches/>
                                </label>
                                " " <button type="submit">"Audit"</button>
                            </FilterForm>
                            {match answer {
                                Err(e) => view! { <LoadError error=e/> }.erase(),
                                Ok(a) => view! { <Answer audit=a/> }.erase(),
                            }}
                        }
                    })
                }}
            </Transition>
        </section>
    }
}

fn formula_name(f: LoadFormula) -> &'static str {
    match f {
        LoadFormula::Sum => "seed (sum)",
        LoadFormula::Average => "7.x (average)",
    }
}

#[component]
fn Answer(audit: FormulaAudit) -> impl IntoView {
    let FormulaAudit {
        in_force,
        app,
        launches,
        servers_total,
        rows,
        placements,
        rejected_sum,
        rejected_average,
        differing,
        differences,
        ..
    } = audit;
    let summary = if launches == 0 {
        "No launch placed.".to_owned()
    } else if differing == 0 {
        format!("The next {launches} launches of {app} go to the same servers under both formulas.")
    } else {
        format!("{differing} of the next {launches} launches of {app} go elsewhere under the other formula.")
    };
    view! {
        <p>{format!("In force: {}.", formula_name(in_force))}</p>
        {(rows.len() < servers_total as usize).then(|| view! {
            <p class="muted small" id="audit-shown">{format!("The {} servers (of {servers_total}) whose two indexes differ most.", rows.len())}</p>
        })}
        <div>
            <table tabindex="0" id="audit-indexes">
                <thead><tr><th>"Server"</th><th>"Zone"</th><th>"Evaluator"</th>
                    <th class="num">"Index, sum"</th><th class="num">"Index, average"</th><th class="num">"Difference"</th></tr></thead>
                <tbody>
                    {rows.into_iter().map(|r| {
                        let diff = i64::from(r.average) - i64::from(r.sum);
                        view! {
                            <tr data-server=r.host.clone() class:differs=diff != 0>
                                <td class="mono"><a href=format!("/lms/servers/{}", r.host)>{r.host.clone()}</a></td>
                                <td>{r.zone}</td><td>{r.evaluator}</td>
                                <td class="num" data-col="sum">{r.sum}</td>
                                <td class="num" data-col="average">{r.average}</td>
                                <td class="num">{format!("{diff:+}")}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
        <p id="audit-summary">{summary}</p>
        {(launches > 0).then(|| view! {
            <div class="grid">
                <div>
                    <table tabindex="0" id="audit-placements">
                        <thead><tr><th>"Server"</th><th class="num">"Launches, sum"</th><th class="num">"Launches, average"</th></tr></thead>
                        <tbody>
                            {placements.into_iter().map(|p| {
                                let key = p.host.clone();
                                view! {
                                    <tr data-server=key class:differs=p.sum != p.average>
                                        <td class="mono">{p.host}</td><td class="num">{p.sum}</td><td class="num">{p.average}</td>
                                    </tr>
                                }
                            }).collect_view()}
                            <tr><th>"Refused"</th><td class="num">{rejected_sum}</td><td class="num">{rejected_average}</td></tr>
                        </tbody>
                    </table>
                </div>
                <div>
                    <table tabindex="0" id="audit-differences">
                        <thead><tr><th class="num">"Launch"</th><th>"Under sum"</th><th>"Under average"</th></tr></thead>
                        <tbody>
                            {differences.is_empty().then(|| view! { <tr><td colspan="3" class="empty">"No launch differs."</td></tr> })}
                            {differences.into_iter().map(|d| view! {
                                <tr><td class="num">{d.launch}</td>
                                    <td class="mono">{d.sum.unwrap_or_else(|| "refused".into())}</td>
                                    <td class="mono">{d.average.unwrap_or_else(|| "refused".into())}</td></tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
            </div>
        })}
    }
}
