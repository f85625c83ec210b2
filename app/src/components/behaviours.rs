//! The page's behaviours over its server-rendered HTML: one island per page that listens on
//! the document once and acts on what the elements say in their `data-` attributes.
//!
//! - A button with `data-act-path` and `data-act-body` posts that call
//!   ([`crate::components::act::Act`]); once the server accepts, the page is read again in
//!   place; a refusal goes into the `data-act-error` element of the button's `.act` wrapper.
//! - A form with `data-act-path` ([`crate::components::act::ActForm`]) posts its fields (and
//!   the name and value of the button that submitted it) to that server function; once the
//!   server accepts, it shows its `data-act-done` text, is reset if it has `data-act-reset`,
//!   and the page is read again in place; a refusal goes into the form's `data-act-error`.
//! - A `GET` form with `data-in-place` ([`crate::components::filter_form::FilterForm`]) is
//!   read in place, its empty fields left out of the address.
//! - A `<select data-switch>` shows, in its form, the `<fieldset data-case>` whose value is
//!   the one chosen and hides and disables the others (a disabled fieldset's fields are not
//!   sent): the fields of a rule's kind.
//! - A chart's plot with `data-tips` ([`crate::components::chart_frame::ChartFrame`]) shows a
//!   crosshair and the tooltip of the instant under the pointer; dragging across a zooming
//!   plot opens that range.
//! - The topology's zoom buttons (`data-zoom`) resize its drawing.
//! - A raw JSON disclosure (`details.raw`, [`crate::components::raw_json::RawJson`]) fills its
//!   `<pre>` when it opens: from `data-json`, or read from the server by the row's key
//!   (`data-event`, `data-audit`); an open one whose row now shows another event is filled
//!   again after a page read.
//! - A range slider with `data-offset-for` writes its instant into that field as it moves,
//!   and submits its form when let go.
//! - The skip link moves focus to the page's content.
//! - A button with `data-confirm-open` opens its confirmation (`aria-controls`), moves focus to
//!   the confirming button and holds the live refreshes while it is open; `data-confirm="no"`
//!   closes it, `data-confirm="yes"` closes it and runs its call.
//!
//! The elements stay plain HTML: a page read again (the islands router diffs it in) updates
//! them like any other, which an island's own state would not be.

use leptos::prelude::*;

/// Installs the behaviours (once per tab: the document outlives the pages the islands router
/// shows in it).
#[island]
pub fn Behaviours() -> impl IntoView {
    #[cfg(feature = "hydrate")]
    browser::install();
}

#[cfg(feature = "hydrate")]
pub use browser::after_page_read;

#[cfg(feature = "hydrate")]
mod browser {
    use leptos::prelude::*;
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    use web_sys::{Element, HtmlElement, HtmlFormElement, MouseEvent, SubmitEvent};

    use crate::components::act::Act;
    use crate::components::live::{reload_in_place, use_live};

    mod charts;
    mod controls;

    thread_local! {
        static INSTALLED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }

    pub(super) fn install() {
        if INSTALLED.with(|i| i.replace(true)) {
            return;
        }
        crate::components::reader::install();
        let on_click: Closure<dyn FnMut(MouseEvent)> = Closure::new(on_click);
        let _ =
            document().add_event_listener_with_callback("click", on_click.as_ref().unchecked_ref());
        // The listeners live as long as the tab.
        on_click.forget();
        let on_submit: Closure<dyn FnMut(SubmitEvent)> = Closure::new(on_submit);
        let _ = document()
            .add_event_listener_with_callback("submit", on_submit.as_ref().unchecked_ref());
        on_submit.forget();
        let on_change: Closure<dyn FnMut(web_sys::Event)> = Closure::new(on_change);
        let _ = document()
            .add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref());
        on_change.forget();
        charts::install();
        controls::install();
    }

    fn on_click(ev: MouseEvent) {
        let Some(target) = ev.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
            return;
        };
        if controls::on_click(&ev, &target) {
            return;
        }
        let Ok(Some(button)) = target.closest("button") else {
            return;
        };
        if button.has_attribute("disabled") {
            return;
        }
        if button.has_attribute("data-confirm-open") {
            open(&button);
            return;
        }
        match button.get_attribute("data-confirm").as_deref() {
            Some("no") => close(&button),
            Some("yes") => {
                close(&button);
                run(&button);
            }
            _ => run(&button),
        }
    }

    /// The confirmation `opener` controls.
    fn panel_of(opener: &Element) -> Option<Element> {
        let id = opener.get_attribute("aria-controls")?;
        document().get_element_by_id(&id)
    }

    fn open(opener: &Element) {
        let Some(panel) = panel_of(opener) else {
            return;
        };
        if !panel.has_attribute("hidden") {
            return;
        }
        let _ = panel.remove_attribute("hidden");
        let _ = opener.set_attribute("aria-expanded", "true");
        use_live().holds.update(|n| *n += 1);
        if let Ok(Some(yes)) = panel.query_selector("[data-confirm=yes]") {
            if let Ok(yes) = yes.dyn_into::<HtmlElement>() {
                let _ = yes.focus();
            }
        }
    }

    /// Closes the confirmation that holds `inside`, focus back on its opener.
    fn close(inside: &Element) {
        let Ok(Some(panel)) = inside.closest("[role=alertdialog]") else {
            return;
        };
        if panel.has_attribute("hidden") {
            return;
        }
        let _ = panel.set_attribute("hidden", "");
        use_live().holds.update(|n| *n = n.saturating_sub(1));
        let opener = document()
            .query_selector(&format!("[aria-controls=\"{}\"]", panel.id()))
            .ok()
            .flatten();
        if let Some(opener) = opener {
            let _ = opener.set_attribute("aria-expanded", "false");
            if let Ok(opener) = opener.dyn_into::<HtmlElement>() {
                let _ = opener.focus();
            }
        }
    }

    /// Posts the call `button` carries, if any.
    fn run(button: &Element) {
        let (Some(path), Some(body)) = (
            button.get_attribute("data-act-path"),
            button.get_attribute("data-act-body"),
        ) else {
            return;
        };
        let wrap = button.closest(".act").ok().flatten();
        send(Act { path, body }, button.clone(), wrap, |_, _| ());
    }

    /// Posts an action form's fields, with the name and value of the button that submitted
    /// it.
    fn on_submit(ev: SubmitEvent) {
        let Some(form) = ev
            .target()
            .and_then(|t| t.dyn_into::<HtmlFormElement>().ok())
        else {
            return;
        };
        let in_place = form.has_attribute("data-in-place");
        let path = form.get_attribute("data-act-path");
        if path.is_none() && !in_place {
            return;
        }
        let Ok(data) = web_sys::FormData::new_with_form(&form) else {
            return;
        };
        ev.prevent_default();
        let submitter = ev.submitter();
        if let Some(name) = submitter.as_ref().and_then(|s| s.get_attribute("name")) {
            let value = submitter
                .as_ref()
                .and_then(|s| s.get_attribute("value"))
                .unwrap_or_default();
            let _ = data.append_with_str(&name, &value);
        }
        // Checkboxes of one name sent as one field, their values joined by commas.
        for name in form
            .get_attribute("data-act-join")
            .unwrap_or_default()
            .split_whitespace()
        {
            let values: Vec<String> = data
                .get_all(name)
                .iter()
                .filter_map(|v| v.as_string())
                .collect();
            let _ = data.set_with_str(name, &values.join(","));
        }
        let Ok(params) = web_sys::UrlSearchParams::new_with_str_sequence_sequence(&data) else {
            return;
        };
        let body = String::from(params.to_string());
        let Some(path) = path else {
            // A `GET` form of filters: the page it asks for, read in place.
            let body = if form.get_attribute("data-in-place").as_deref() == Some("merge") {
                merged(&form, &params)
            } else {
                body
            };
            // A `:` may stand as it is in a query, and reads better (`at=0+01:30:00`).
            let query =
                crate::components::filter_form::without_empty_fields(&body).replace("%3A", ":");
            let here = window().location().pathname().unwrap_or_default();
            let url = if query.is_empty() {
                here
            } else {
                format!("{here}?{query}")
            };
            crate::components::live::navigate_to(&url);
            return;
        };
        let busy: Element = submitter.map_or_else(|| form.clone().into(), Into::into);
        let wrap: Element = form.clone().into();
        send(Act { path, body }, busy, Some(wrap), move |wrap, answer| {
            if let Some(done) = wrap.get_attribute("data-act-done") {
                if let Ok(Some(status)) = wrap.query_selector("[data-act-status]") {
                    status.set_text_content(Some(&fill(&done, answer)));
                }
            }
            if form.has_attribute("data-act-reset") {
                form.reset();
            }
        });
    }

    /// The address's parameters with those of `form` (`fields`, what it sends) put in their
    /// place: a field the form has and does not send (a box unticked) leaves the address.
    fn merged(form: &HtmlFormElement, fields: &web_sys::UrlSearchParams) -> String {
        let search = window().location().search().unwrap_or_default();
        let Ok(all) = web_sys::UrlSearchParams::new_with_str(&search) else {
            return String::from(fields.to_string());
        };
        if let Ok(named) = form.query_selector_all("[name]") {
            for i in 0..named.length() {
                let name = named
                    .item(i)
                    .and_then(|n| n.dyn_into::<Element>().ok())
                    .and_then(|e| e.get_attribute("name"));
                if let Some(name) = name {
                    all.delete(&name);
                }
            }
        }
        let keys = web_sys::js_sys::Array::from(&fields.keys());
        for key in keys.iter().filter_map(|k| k.as_string()) {
            for value in fields.get_all(&key).iter().filter_map(|v| v.as_string()) {
                all.append(&key, &value);
            }
        }
        // The page of a paged list starts again at the first.
        all.delete("page");
        String::from(all.to_string())
    }

    /// `template` with `{n}` made the number of items of a JSON list `answer`, and `{key}`
    /// the text or number of `key` in a JSON object `answer` ("User {username} added.").
    fn fill(template: &str, answer: &str) -> String {
        use web_sys::js_sys::{Array, Reflect, JSON};
        let parsed = JSON::parse(answer).ok();
        let mut out = String::with_capacity(template.len());
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let Some(close) = rest[open..].find('}') else {
                break;
            };
            let key = &rest[open + 1..open + close];
            let value = parsed.as_ref().and_then(|v| {
                if key == "n" {
                    return Array::is_array(v).then(|| Array::from(v).length().to_string());
                }
                let field = Reflect::get(v, &key.into()).ok()?;
                field
                    .as_string()
                    .or_else(|| field.as_f64().map(|f| f.to_string()))
            });
            out.push_str(&value.unwrap_or_default());
            rest = &rest[open + close + 1..];
        }
        out.push_str(rest);
        out
    }

    /// Shows the fieldset of the choice of a `select[data-switch]`, hides and disables the
    /// others of its form.
    fn on_change(ev: web_sys::Event) {
        // A field of a form that submits itself on a change, or one that submits its form.
        let field = ev.target().and_then(|t| t.dyn_into::<Element>().ok());
        let submits = field.as_ref().and_then(|f| {
            if f.has_attribute("data-submit-on-change") {
                f.closest("form").ok().flatten()
            } else {
                f.closest("form[data-auto-submit]").ok().flatten()
            }
        });
        if let Some(form) = submits.and_then(|f| f.dyn_into::<HtmlFormElement>().ok()) {
            let _ = form.request_submit();
        }
        let Some(select) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok())
        else {
            return;
        };
        if select.has_attribute("data-switch") {
            sync(&select);
        }
    }

    /// What follows a page read in place: the switched fieldsets and the open JSON
    /// disclosures made to follow what the page now shows.
    pub fn after_page_read() {
        sync_switches();
        controls::refill_open_json();
    }

    /// Every `select[data-switch]`'s fieldsets made to follow its choice again (after a page
    /// read in place, which brings the server's first choice back into them).
    fn sync_switches() {
        let Ok(selects) = document().query_selector_all("select[data-switch]") else {
            return;
        };
        for i in 0..selects.length() {
            if let Some(select) = selects
                .item(i)
                .and_then(|n| n.dyn_into::<web_sys::HtmlSelectElement>().ok())
            {
                sync(&select);
            }
        }
    }

    fn sync(select: &web_sys::HtmlSelectElement) {
        let Some(form) = select.form() else {
            return;
        };
        let chosen = select.value();
        let Ok(cases) = form.query_selector_all("fieldset[data-case]") else {
            return;
        };
        for i in 0..cases.length() {
            let Some(case) = cases.item(i).and_then(|n| n.dyn_into::<Element>().ok()) else {
                continue;
            };
            let on = case.get_attribute("data-case").as_deref() == Some(chosen.as_str());
            for attribute in ["hidden", "disabled"] {
                let _ = if on {
                    case.remove_attribute(attribute)
                } else {
                    case.set_attribute(attribute, "")
                };
            }
        }
    }

    /// Posts `act`, `busy` disabled meanwhile. A refusal goes into `wrap`'s
    /// `[data-act-error]`; once accepted, `accepted(wrap, answer)` runs and the page is read
    /// again.
    fn send(
        act: Act,
        busy: Element,
        wrap: Option<Element>,
        accepted: impl FnOnce(&Element, &str) + 'static,
    ) {
        let error = wrap
            .as_ref()
            .and_then(|w| w.query_selector("[data-act-error]").ok().flatten());
        if let Some(status) = wrap
            .as_ref()
            .and_then(|w| w.query_selector("[data-act-status]").ok().flatten())
        {
            status.set_text_content(None);
        }
        let _ = busy.set_attribute("disabled", "");
        leptos::task::spawn_local(async move {
            let result = crate::components::act::post(&act).await;
            let _ = busy.remove_attribute("disabled");
            match result {
                Ok(done) => {
                    if let Some(to) = done.redirect {
                        // Signed in or out: a page of its own, loaded afresh.
                        let _ = window().location().assign(&to);
                        return;
                    }
                    if let Some(error) = &error {
                        error.set_text_content(None);
                    }
                    if let Some(wrap) = &wrap {
                        accepted(wrap, &done.answer);
                    }
                    reload_in_place();
                }
                Err(message) => {
                    if let Some(error) = &error {
                        error.set_text_content(Some(&message));
                    }
                }
            }
        });
    }
}
