//! The audit log (admin): every mutating action with who, when and the outcome.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::api::admin::audit_entries;
use crate::components::page_help::PageHelp;
use crate::components::pager::Pager;
use crate::pages::LoadError;

/// The audit page.
#[component]
pub fn AuditPage() -> impl IntoView {
    let query = use_query_map();
    let page_no = Memo::new(move |_| {
        query
            .read()
            .get("page")
            .and_then(|p| p.parse::<u32>().ok())
            .unwrap_or(1)
    });
    let page = Resource::new(move || page_no.get(), audit_entries);
    view! {
        <Title text="Audit"/>
        <h1>"Audit log"</h1>
        <PageHelp text="Every action a person took in the console, newest first: who, when (wall-clock time), what and with which values, and whether it was accepted. Clock changes, forced outages, evaluator edits, topology imports, alert acknowledgements and account changes are all here; filter by user or action."/>
        <Transition fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match page.await {
                    Err(e) => view! { <LoadError error=e/> }.into_any(),
                    Ok(p) => view! {
                        <section class="card">
                            <table tabindex="0" class="audit" id="audit-table">
                                <thead><tr><th>"When (UTC)"</th><th>"Who"</th><th>"Action"</th><th>"Arguments"</th><th>"Outcome"</th></tr></thead>
                                <tbody>
                                    {p.rows.into_iter().map(|r| {
                                        let refused = r.outcome != "ok";
                                        view! {
                                        <tr>
                                            <td class="mono">{r.at}</td>
                                            <td>{r.actor}</td>
                                            <td>{r.action}</td>
                                            <td class="mono details">{r.arguments}</td>
                                            <td class:refused=refused>{r.outcome}</td>
                                        </tr>
                                    }}).collect_view()}
                                </tbody>
                            </table>
                            <Pager page=p.page total=p.total per_page=p.per_page href=|n| format!("/audit?page={n}")/>
                        </section>
                    }.into_any(),
                }
            })}
        </Transition>
    }
}
