//! CLI import and export of the topology (administrators): the live topology as the
//! product's `add gslb site …` / `set gslb site … -backupParentlist …` text, and an import
//! that replaces it, refused with the line number of the first bad line.

use engine::Role;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;

use crate::answer::answer;
use crate::api::gslb::{gslb_export, GslbImport};
use crate::components::act::ActForm;
use crate::components::layout::user_allows;
use crate::components::page_help::PageHelp;
use crate::erase::Erase;
use crate::pages::gslb::GslbNav;
use crate::pages::LoadError;

/// The CLI page.
#[component]
pub fn GslbCliPage() -> impl IntoView {
    let export = answer(|| (), |_| gslb_export());
    view! {
        <Title text="GSLB CLI"/>
        <h1>"GSLB: CLI import / export"</h1>
        <PageHelp text="The live GSLB topology as the ADC's own CLI commands (add gslb site, set gslb site … -parentSite …), ready to copy, and an import that replaces the topology with the commands you paste. An import is checked line by line first: a command it cannot read is refused with its line number and nothing changes."/>
        <GslbNav current="/gslb/cli"/>
        <Suspense fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || Suspend::new(async move {
                if !user_allows(Role::Admin).await {
                    return view! { <p class="muted" id="cli-admin-only">"Import and export are for administrators."</p> }.erase();
                }
                match export.await {
                    Err(e) => view! { <LoadError error=e/> }.erase(),
                    Ok(cli) => view! {
                        <div class="grid">
                            <section class="card">
                                <h2>"Export (live topology)"</h2>
                                <textarea id="cli-export" aria-label="The live topology as CLI commands" readonly rows="18" cols="70" class="mono">{cli}</textarea>
                            </section>
                            <section class="card">
                                <h2>"Import (replaces the topology)"</h2>
                                <ActForm path=GslbImport::PATH error_id="import-error" status_id="import-ok" done="Imported.">
                                    <textarea id="cli-import" name="cli" rows="18" cols="70" class="mono" aria-label="CLI commands to import" placeholder="add gslb site SiteP1 10.10.0.1 -publicIP 203.0.113.1"></textarea>
                                    <div class="controls">
                                        <button type="submit" id="cli-import-go">"Import"</button>
                                    </div>
                                </ActForm>
                            </section>
                        </div>
                    }.erase(),
                }
            })}
        </Suspense>
    }
}
