//! The threshold editor of an autoscale group (administrators): every parameter (node
//! bounds, watch time, cooldown, drain, TTL, the threshold parameters with their limits), a
//! what-if that replays the last hours of recorded demand against the edited values beside
//! what really happened, and Apply (the `group_settings` action). The server checks every
//! field; a refused value is shown next to its field and nothing changes.

use engine::autoscale::config::DistributionMode;
use engine::autoscale::views::GroupView;
use engine::Role;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

use crate::answer::answer;
use crate::api::autoscale::{
    autoscale_groups, AutoscaleSave, AutoscaleWhatIf, DEFAULT_WHAT_IF_HOURS, MAX_WHAT_IF_HOURS,
};
use crate::components::autoscale_charts::{minute_label, SharedScale, TimelineChart};
use crate::components::layout::user_allows;
use crate::components::page_help::PageHelp;
use crate::erase::Erase;
use crate::error::AppError;
use crate::model::autoscale::{
    field_error, metric_name, metric_unit, ParamsDraft, ThresholdDraft, WhatIfResult, METRICS,
    NUMBER_FIELDS,
};
use crate::pages::LoadError;

/// The editor page.
#[component]
pub fn AutoscaleEditorPage() -> impl IntoView {
    let params = use_params_map();
    let group = Memo::new(move |_| params.read().get("group").unwrap_or_default());
    // The parameters in force (the page is read again after a save; the editor, an island
    // given the same props, keeps what is typed).
    let data = answer(
        move || group.get(),
        |name| autoscale_groups(Some(name), None, None),
    );
    view! {
        <Title text="Autoscale thresholds"/>
        <p><a href=move || format!("/autoscale/{}", group.get())>"← Group"</a>" · "<a href="/autoscale">"All groups"</a></p>
        <h1>"Thresholds and limits of " <span class="mono">{move || group.get()}</span></h1>
        <PageHelp text="Change a group's thresholds, watch time, cooldown and limits, and see before you save what would have happened: the what-if replays the group's recorded load with your values and compares its scale events with the real ones. Saving applies the values to the live group from the next decision on."/>
        <Transition fallback=|| view! { <p class="muted">"Loading…"</p> }>
            {move || Suspend::new(async move {
                let name = group.get_untracked();
                match data.await {
                    Err(e) => view! { <LoadError error=e/> }.erase(),
                    Ok(page) => match page.groups.into_iter().find(|g| g.name == name) {
                        None => view! { <p class="error">{format!("No autoscale group `{name}`.")}</p> }.erase(),
                        Some(g) => view! { <InForce group=g/> }.erase(),
                    },
                }
            })}
        </Transition>
        <Transition fallback=|| ()>
            {move || Suspend::new(async move {
                let is_admin = user_allows(Role::Admin).await;
                let name = group.get_untracked();
                let found = data.await.ok().and_then(|p| p.groups.into_iter().find(|g| g.name == name));
                match (is_admin, found) {
                    (true, Some(g)) => {
                        let dns = g.mode == DistributionMode::Dns;
                        let start = ParamsDraft::from_params(&g.params);
                        // Kept as it is when the page is read again after a save (its props,
                        // the parameters in force, changed; what is typed stays).
                        view! { <div data-keep=""><AutoscaleEditor name=g.name start dns/></div> }.erase()
                    }
                    (false, _) => view! {
                        <p class="muted" id="editor-denied">"Only administrators edit an autoscale group's parameters."</p>
                    }.erase(),
                    (true, None) => ().erase(),
                }
            })}
        </Transition>
    }
}

/// The parameters in force, in one line.
#[component]
fn InForce(group: GroupView) -> impl IntoView {
    let p = group.params;
    let thresholds = p
        .thresholds
        .iter()
        .map(|t| {
            format!(
                "{} {}–{} {}",
                metric_name(t.parameter),
                t.min,
                t.max,
                metric_unit(t.parameter)
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    view! {
        <section class="card" id="in-force">
            <p>
                "In force: "
                <span data-col="nodes">{format!("{}–{} nodes", p.min_nodes, p.max_nodes)}</span>
                {format!(" · watch {} min · cooldown {} min · drain {} min · TTL {} s · {thresholds}",
                    p.watch_time_min, p.cooldown_min, p.drain_timeout_min, p.ttl_s)}
            </p>
        </section>
    }
}

type Rows = RwSignal<Vec<(u32, RwSignal<ThresholdDraft>)>>;

fn draft_json(numbers: RwSignal<ParamsDraft>, rows: Rows) -> String {
    let mut draft = numbers.get_untracked();
    draft.thresholds = rows
        .get_untracked()
        .iter()
        .map(|(_, t)| t.get_untracked())
        .collect();
    serde_json::to_string(&draft).unwrap_or_default()
}

/// The editor of group `name` (an island: the values are edited in the browser), starting
/// from `start`, the parameters in force; `dns` when the group distributes by DNS.
#[island]
pub fn AutoscaleEditor(name: String, start: ParamsDraft, dns: bool) -> impl IntoView {
    let save = ServerAction::<AutoscaleSave>::new();
    let what_if = ServerAction::<AutoscaleWhatIf>::new();
    let count = u32::try_from(start.thresholds.len()).unwrap_or(0);
    let rows: Rows = RwSignal::new(
        start
            .thresholds
            .iter()
            .cloned()
            .zip(0..)
            .map(|(t, i)| (i, RwSignal::new(t)))
            .collect(),
    );
    let next_id = RwSignal::new(count);
    let numbers = RwSignal::new(start);
    let hours = RwSignal::new(DEFAULT_WHAT_IF_HOURS.to_string());
    let error: RwSignal<Option<AppError>> = RwSignal::new(None);
    let saved = RwSignal::new(false);
    Effect::new(move |_| {
        if let Some(result) = save.value().get() {
            saved.set(result.is_ok());
            if result.is_ok() {
                // The parameters in force, shown above the editor, read again.
                crate::components::live::reload_in_place();
            }
            error.set(result.err());
        }
    });
    Effect::new(move |_| {
        if let Some(result) = what_if.value().get() {
            error.set(result.err());
        }
    });
    let (n1, n2) = (name.clone(), name.clone());
    let number_fields = NUMBER_FIELDS
        .into_iter()
        .map(|(field, label, lo, hi)| {
            view! {
                <label class="as-field">
                    <span>{label}</span>
                    <input type="text" size="6" name=field
                        prop:value=move || numbers.with(|d| d.number(field).to_owned())
                        on:input=move |ev| { let v = event_target_value(&ev); numbers.update(|d| d.set_number(field, v)); }/>
                    <span class="muted small">{format!("{lo}–{hi}")}</span>
                    {move || field_error(&error.get(), field).map(|m| view! { <span class="error as-field-error" data-error-for=field>{format!("{field}: {m}")}</span> })}
                </label>
            }
        })
        .collect_view();
    view! {
        <section class="card editor" id="autoscale-editor">
            <h2>"Edit"</h2>
            <div class="as-fields">{number_fields}</div>
            <table tabindex="0" id="threshold-editor">
                <thead><tr><th>"Threshold parameter"</th><th>"Minimum (scale in when all below)"</th><th>"Maximum (scale out when any above)"</th><th></th></tr></thead>
                <tbody>
                    <For each=move || rows.get() key=|(id, _)| *id let:row>
                        <ThresholdRow id=row.0 threshold=row.1 rows error/>
                    </For>
                </tbody>
            </table>
            {move || field_error(&error.get(), "thresholds").map(|m| view! { <p class="error as-field-error" data-error-for="thresholds">{format!("thresholds: {m}")}</p> })}
            <div class="controls">
                <button id="threshold-add" on:click=move |_| {
                    let used: Vec<String> = rows.get_untracked().iter().map(|(_, t)| t.get_untracked().parameter).collect();
                    let parameter = METRICS.iter().map(|(m, _)| *m).find(|m| !used.iter().any(|u| u == m)).unwrap_or("cpu");
                    let (min, max) = if parameter == "throughput" { ("100", "800") } else { ("25", "75") };
                    let id = next_id.get_untracked();
                    next_id.set(id + 1);
                    rows.update(|v| v.push((id, RwSignal::new(ThresholdDraft { parameter: parameter.into(), min: min.into(), max: max.into() }))));
                }>"Add threshold"</button>
            </div>
            <div class="controls">
                <label>"What-if over the last "
                    <input type="text" size="4" name="hours" prop:value=hours on:input=move |ev| hours.set(event_target_value(&ev))/>
                    {format!(" simulated hours (1–{MAX_WHAT_IF_HOURS})")}
                </label>
                {move || field_error(&error.get(), "hours").map(|m| view! { <span class="error as-field-error" data-error-for="hours">{format!("hours: {m}")}</span> })}
                <button id="what-if" on:click=move |_| {
                    saved.set(false);
                    what_if.dispatch(AutoscaleWhatIf { group: n1.clone(), params: draft_json(numbers, rows), hours: Some(hours.get_untracked()) });
                }>"What-if"</button>
                <button id="apply" class="primary" on:click=move |_| {
                    save.dispatch(AutoscaleSave { group: n2.clone(), params: draft_json(numbers, rows) });
                }>"Apply"</button>
            </div>
            {move || error.get().map(|e| view! { <p class="error" id="editor-error">{e.to_string()}</p> })}
            {move || saved.get().then(|| view! {
                <p class="ok" id="save-ok">"Applied: the group now uses these parameters (an audited group_settings action). "
                    <a href=format!("/autoscale/{name}")>"See the group"</a></p>
            })}
            {move || what_if.pending().get().then(|| view! { <p class="muted">"Replaying…"</p> })}
            {move || what_if.value().get().and_then(Result::ok).map(|r| view! { <WhatIf result=r dns/> })}
        </section>
    }
}

#[component]
fn ThresholdRow(
    id: u32,
    threshold: RwSignal<ThresholdDraft>,
    rows: Rows,
    error: RwSignal<Option<AppError>>,
) -> impl IntoView {
    let index = move || rows.with(|v| v.iter().position(|(i, _)| *i == id).unwrap_or(0));
    let field = move |name: &'static str| {
        let value = move || {
            threshold.with(|t| match name {
                "min" => t.min.clone(),
                _ => t.max.clone(),
            })
        };
        view! {
            <input type="text" size="7" name=name prop:value=value
                aria-label=move || format!("{} of threshold {}", if name == "min" { "Minimum" } else { "Maximum" }, index() + 1)
                on:input=move |ev| {
                let v = event_target_value(&ev);
                threshold.update(|t| if name == "min" { t.min = v } else { t.max = v });
            }/>
            {move || {
                let path = format!("thresholds[{}].{name}", index());
                field_error(&error.get(), &path).map(|m| view! { <span class="error as-field-error" data-error-for=path.clone()>{format!("{path}: {m}")}</span> })
            }}
        }
    };
    view! {
        <tr data-threshold=move || threshold.with(|t| t.parameter.clone())>
            <td>
                <select name="parameter" aria-label=move || format!("Parameter of threshold {}", index() + 1) on:change=move |ev| { let v = event_target_value(&ev); threshold.update(|t| t.parameter = v); }>
                    {METRICS.into_iter().map(|(m, label)| view! { <option value=m selected=move || threshold.with(|t| t.parameter == m)>{label}</option> }).collect_view()}
                </select>
                {move || {
                    let path = format!("thresholds[{}].parameter", index());
                    field_error(&error.get(), &path).map(|m| view! { <span class="error as-field-error" data-error-for=path.clone()>{format!("{path}: {m}")}</span> })
                }}
            </td>
            <td>{field("min")}</td>
            <td>{field("max")}</td>
            <td><button data-action="remove" aria-label=move || format!("Remove threshold {}", index() + 1) on:click=move |_| rows.update(|v| v.retain(|(i, _)| *i != id))>"Remove"</button></td>
        </tr>
    }
}

#[component]
fn WhatIf(result: WhatIfResult, dns: bool) -> impl IntoView {
    let WhatIfResult {
        group: _,
        hours,
        from_minute,
        to_minute,
        zones,
        server_us,
    } = result;
    let counts = zones
        .iter()
        .map(|z| {
            let (r, e) = (&z.real_summary, &z.edited_summary);
            view! {
                <tr data-zone=z.zone.clone()>
                    <td class="mono">{z.zone.clone()}</td>
                    <td class="num" data-col="real-out">{r.scale_outs}</td>
                    <td class="num" data-col="edited-out">{e.scale_outs}</td>
                    <td class="num" data-col="real-in">{r.scale_ins}</td>
                    <td class="num" data-col="edited-in">{e.scale_ins}</td>
                    <td class="num" data-col="real-peak">{r.peak_nodes}</td>
                    <td class="num" data-col="edited-peak">{e.peak_nodes}</td>
                    <td class="num" data-col="real-node-min">{r.node_minutes}</td>
                    <td class="num" data-col="edited-node-min">{e.node_minutes}</td>
                    <td class="num" data-col="real-saturated">{r.saturated_minutes}</td>
                    <td class="num" data-col="edited-saturated">{e.saturated_minutes}</td>
                </tr>
            }
        })
        .collect_view();
    let charts = zones
        .into_iter()
        .map(|z| {
            let zone = z.zone.clone();
            // Recorded and replayed on one scale: equal heights are equal values.
            let scale = SharedScale::of(&[&z.real, &z.edited]);
            view! {
                <div class="as-what-if-zone" data-zone=zone.clone()>
                    <h3>{format!("{zone}: recorded (parameters in force)")}</h3>
                    <TimelineChart timeline=z.real dns id=format!("what-if-real-{zone}") scale=scale.clone() zoom=false/>
                    <h3>{format!("{zone}: replayed with the edited parameters")}</h3>
                    <TimelineChart timeline=z.edited dns id=format!("what-if-edited-{zone}") scale zoom=false/>
                </div>
            }
            .erase()
        })
        .collect_view();
    view! {
        <div id="what-if-result">
            <h2 class="spaced">"What-if (nothing saved yet)"</h2>
            <p class="muted" id="what-if-time" data-us=server_us.to_string()>
                {format!("Replayed {hours} h of recorded demand (minutes {} → {}) in {:.2} ms server-side.",
                    minute_label(from_minute), minute_label(to_minute), server_us as f64 / 1000.0)}
            </p>
            <table tabindex="0" class="counts" id="what-if-counts">
                <thead>
                    <tr><th></th><th colspan="2">"Scale-outs"</th><th colspan="2">"Scale-ins"</th><th colspan="2">"Peak nodes"</th><th colspan="2">"Node-minutes (cost)"</th><th colspan="2">"Saturated minutes"</th></tr>
                    <tr><th>"Zone"</th><th>"real"</th><th>"edited"</th><th>"real"</th><th>"edited"</th><th>"real"</th><th>"edited"</th><th>"real"</th><th>"edited"</th><th>"real"</th><th>"edited"</th></tr>
                </thead>
                <tbody>{counts}</tbody>
            </table>
            {charts}
        </div>
    }
    .erase()
}
