//! The page's behaviours over its server-rendered HTML: one island per page that listens on
//! the document once and acts on what the elements say in their `data-` attributes.
//!
//! - A button with `data-act-path` and `data-act-body` posts that call
//!   ([`crate::components::act::Act`]); once the server accepts, the page is read again in
//!   place; a refusal goes into the `data-act-error` element of the button's `.act` wrapper.
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
mod browser {
    use leptos::prelude::*;
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    use web_sys::{Element, HtmlElement, MouseEvent};

    use crate::components::act::Act;
    use crate::components::live::{reload_in_place, use_live};

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
        // The listener lives as long as the tab.
        on_click.forget();
    }

    fn on_click(ev: MouseEvent) {
        let Some(target) = ev.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
            return;
        };
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
        let error = button
            .closest(".act")
            .ok()
            .flatten()
            .and_then(|wrap| wrap.query_selector("[data-act-error]").ok().flatten());
        let _ = button.set_attribute("disabled", "");
        let button = button.clone();
        leptos::task::spawn_local(async move {
            let result = crate::components::act::post(&Act { path, body }).await;
            let _ = button.remove_attribute("disabled");
            match result {
                Ok(()) => {
                    if let Some(error) = &error {
                        error.set_text_content(None);
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
