//! Small behaviours over server HTML: the skip link, the topology's zoom, the raw JSON
//! disclosures and the time bar's slider.

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, HtmlInputElement, MouseEvent};

use crate::components::raw_json::JsonSource;
use crate::components::topology::{ACTUAL_SIZE, ZOOMS};
use crate::format::sim_offset;

pub(super) fn install() {
    // `toggle` does not bubble: heard on its way down.
    let on_toggle: Closure<dyn FnMut(web_sys::Event)> = Closure::new(on_toggle);
    let _ = document().add_event_listener_with_callback_and_bool(
        "toggle",
        on_toggle.as_ref().unchecked_ref(),
        true,
    );
    on_toggle.forget();
    let on_input: Closure<dyn FnMut(web_sys::Event)> = Closure::new(on_input);
    let _ = document().add_event_listener_with_callback("input", on_input.as_ref().unchecked_ref());
    on_input.forget();
}

/// A click this module handles (the skip link, a zoom button): `true` when it did.
pub(super) fn on_click(ev: &MouseEvent, target: &Element) -> bool {
    if let Ok(Some(_)) = target.closest("a.skip-link") {
        let content = document()
            .get_element_by_id(crate::ids::CONTENT)
            .and_then(|e| e.dyn_into::<HtmlElement>().ok());
        if let Some(content) = content {
            ev.prevent_default();
            let _ = content.focus();
            content.scroll_into_view();
        }
        return true;
    }
    if let Ok(Some(button)) = target.closest("button[data-zoom]") {
        zoom(&button);
        return true;
    }
    false
}

/// Applies a zoom button's step to the drawing after its group.
fn zoom(button: &Element) {
    let Some(group) = button.closest(".topology-zoom").ok().flatten() else {
        return;
    };
    let Some(svg) = group
        .next_element_sibling()
        .and_then(|wrap| wrap.query_selector("svg.topology").ok().flatten())
    else {
        return;
    };
    let step = svg
        .get_attribute("data-step")
        .and_then(|s| s.parse::<usize>().ok())
        .unwrap_or(ACTUAL_SIZE)
        .min(ZOOMS.len() - 1);
    let fitted = svg.has_attribute("data-fit");
    let (step, fit) = match button.get_attribute("data-zoom").as_deref() {
        Some("in") => ((step + 1).min(ZOOMS.len() - 1), false),
        Some("out") => (step.saturating_sub(1), false),
        Some("fit") => (step, true),
        Some("actual") => (ACTUAL_SIZE, false),
        _ => (step, fitted),
    };
    let natural = |name: &str| {
        svg.get_attribute(name)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    let scale = ZOOMS[step];
    let _ = svg.set_attribute("data-step", &step.to_string());
    if fit {
        let _ = svg.set_attribute("data-fit", "");
        let _ = svg.set_attribute("width", "100%");
        let _ = svg.remove_attribute("height");
    } else {
        let _ = svg.remove_attribute("data-fit");
        let _ = svg.set_attribute("width", &format!("{:.0}", natural("data-width") * scale));
        let _ = svg.set_attribute("height", &format!("{:.0}", natural("data-height") * scale));
    }
    let set = |selector: &str, name: &str, on: bool| {
        if let Ok(Some(el)) = group.query_selector(selector) {
            let _ = if on {
                el.set_attribute(name, "")
            } else {
                el.remove_attribute(name)
            };
        }
    };
    set(".zoom-out", "disabled", !fit && step == 0);
    set(".zoom-in", "disabled", !fit && step == ZOOMS.len() - 1);
    if let Ok(Some(pressed)) = group.query_selector(".zoom-fit") {
        let _ = pressed.set_attribute("aria-pressed", if fit { "true" } else { "false" });
    }
    if let Ok(Some(level)) = group.query_selector(".zoom-level") {
        let text = if fit {
            "fitted to the width".to_owned()
        } else {
            format!("{:.0} %", scale * 100.0)
        };
        level.set_text_content(Some(&text));
    }
}

/// A raw JSON disclosure opened: its `<pre>` filled ([`fill_json`]).
fn on_toggle(ev: web_sys::Event) {
    let Some(details) = ev
        .target()
        .and_then(|t| t.dyn_into::<Element>().ok())
        .filter(|e| e.tag_name() == "DETAILS" && e.class_list().contains("raw"))
    else {
        return;
    };
    if details.has_attribute("open") {
        fill_json(&details);
    }
}

/// Every open raw JSON disclosure filled again if its row now shows another event (after a
/// page read in place: a row keeps its place, its event may change).
pub(super) fn refill_open_json() {
    let Ok(open) = document().query_selector_all("details.raw[open]") else {
        return;
    };
    for i in 0..open.length() {
        if let Some(details) = open.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
            fill_json(&details);
        }
    }
}

/// Fills `details`'s `<pre>` with its JSON unless it holds it already (`data-for` names what
/// it was filled with): at once from `data-json`, else read from the server; the text lands
/// only if the disclosure still names the same key when the answer comes.
fn fill_json(details: &Element) {
    let (Some(json), Ok(Some(pre))) = (JsonSource::of(details), details.query_selector("pre"))
    else {
        return;
    };
    let Some(key) = json.key() else {
        // A text the page carries (the one source without a key): written at once.
        if let JsonSource::Inline(text) = &json {
            pre.set_text_content(Some(text));
            let _ = pre.remove_attribute("data-for");
        }
        return;
    };
    if pre.get_attribute("data-for").as_deref() == Some(key.as_str())
        || pre.get_attribute("data-reading").as_deref() == Some(key.as_str())
    {
        return;
    }
    // Another event's JSON is not shown meanwhile.
    pre.set_text_content(None);
    let _ = pre.remove_attribute("data-for");
    let _ = pre.set_attribute("data-reading", &key);
    let details = details.clone();
    leptos::task::spawn_local(async move {
        let read = json.read().await;
        if pre.get_attribute("data-reading").as_deref() != Some(key.as_str()) {
            // Asked again for another key meanwhile: that answer fills it.
            return;
        }
        let _ = pre.remove_attribute("data-reading");
        if JsonSource::of(&details).and_then(|j| j.key()).as_deref() != Some(key.as_str()) {
            return;
        }
        match read {
            Ok(text) => {
                pre.set_text_content(Some(&text));
                let _ = pre.set_attribute("data-for", &key);
            }
            Err(e) => {
                // Not marked as filled: the next opening asks again.
                pre.set_text_content(Some(&format!("The JSON could not be read: {e}")));
                let _ = pre.remove_attribute("data-for");
            }
        }
    });
}

/// A slider with `data-offset-for`: its instant written into that field as it moves.
fn on_input(ev: web_sys::Event) {
    let Some(slider) = ev
        .target()
        .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
    else {
        return;
    };
    let Some(field) = slider
        .get_attribute("data-offset-for")
        .and_then(|id| document().get_element_by_id(&id))
        .and_then(|f| f.dyn_into::<HtmlInputElement>().ok())
    else {
        return;
    };
    if let Ok(ms) = slider.value().parse::<u64>() {
        field.set_value(&sim_offset(ms));
    }
}
