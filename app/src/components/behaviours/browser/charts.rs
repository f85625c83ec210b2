//! The charts' crosshair, tooltip and drag-to-zoom, over the plots the server wrote
//! (`.plot[data-tips]`, see [`crate::components::chart_frame`]).

use std::cell::RefCell;

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::js_sys::{Array, JSON};
use web_sys::{Element, MouseEvent};

use crate::components::chart_frame::{elapsed_label, MIN_DRAG};
use crate::format::sim_time;

thread_local! {
    /// The plot a drag started on and where, as a share of its width.
    static DRAG: RefCell<Option<(Element, f64)>> = const { RefCell::new(None) };
}

pub(super) fn install() {
    listen("mousemove", on_move, false);
    listen("mousedown", on_down, false);
    listen("mouseup", on_up, false);
    // `mouseleave` does not bubble: heard on its way down.
    listen("mouseleave", on_leave, true);
}

fn listen(kind: &str, handler: fn(MouseEvent), capture: bool) {
    let handler: Closure<dyn FnMut(MouseEvent)> = Closure::new(handler);
    let _ = document().add_event_listener_with_callback_and_bool(
        kind,
        handler.as_ref().unchecked_ref(),
        capture,
    );
    handler.forget();
}

/// The plot under the pointer.
fn plot_of(ev: &MouseEvent) -> Option<Element> {
    let target: Element = ev.target()?.dyn_into().ok()?;
    target.closest(".plot[data-tips]").ok()?
}

/// Where the pointer is across `plot`, 0.0 (left) to 1.0 (right).
fn fraction(plot: &Element, ev: &MouseEvent) -> Option<f64> {
    let rect = plot.get_bounding_client_rect();
    (rect.width() > 0.0)
        .then(|| ((f64::from(ev.client_x()) - rect.left()) / rect.width()).clamp(0.0, 1.0))
}

fn number(plot: &Element, name: &str) -> u64 {
    plot.get_attribute(name)
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// The instant at `f` across `plot`.
fn instant_at(plot: &Element, f: f64) -> u64 {
    let (from, to) = (number(plot, "data-from"), number(plot, "data-to"));
    from + (f * to.saturating_sub(from) as f64).round() as u64
}

/// `plot`'s child of class `class`, made if missing.
fn child(plot: &Element, class: &str) -> Option<Element> {
    if let Ok(Some(found)) = plot.query_selector(&format!(":scope > .{class}")) {
        return Some(found);
    }
    let made = document().create_element("div").ok()?;
    made.set_class_name(class);
    // Drawn here: a page read again leaves it.
    let _ = made.set_attribute("data-client", "");
    plot.append_child(&made).ok()?;
    Some(made)
}

fn remove(plot: &Element, class: &str) {
    if let Ok(Some(found)) = plot.query_selector(&format!(":scope > .{class}")) {
        found.remove();
    }
}

/// The tooltip's text at `t`: the last one written at or before it.
fn tip_at(plot: &Element, t: u64) -> String {
    let tips = plot
        .get_attribute("data-tips")
        .and_then(|json| JSON::parse(&json).ok())
        .filter(Array::is_array)
        .map(|tips| Array::from(&tips));
    let Some(tips) = tips else {
        return String::new();
    };
    let mut text = String::new();
    for tip in tips.iter() {
        let tip = Array::from(&tip);
        let at = tip.get(0).as_f64().unwrap_or(0.0);
        if at > t as f64 {
            break;
        }
        text = tip.get(1).as_string().unwrap_or_default();
    }
    text
}

fn show_tip(plot: &Element, f: f64) {
    let t = instant_at(plot, f);
    let instant = if plot.get_attribute("data-axis").as_deref() == Some("elapsed") {
        elapsed_label(t)
    } else {
        sim_time(t)
    };
    if let Some(line) = child(plot, "crosshair") {
        let _ = line.set_attribute("style", &format!("left:{:.2}%", f * 100.0));
    }
    let Some(tip) = child(plot, "chart-tip") else {
        return;
    };
    // On the side with more room, never wider than that room.
    let (side, place) = if f > 0.5 {
        (
            "right",
            format!(
                "right:{:.2}%;max-width:calc({:.2}% - 12px)",
                (1.0 - f) * 100.0,
                f * 100.0
            ),
        )
    } else {
        (
            "left",
            format!(
                "left:{:.2}%;max-width:calc({:.2}% - 12px)",
                f * 100.0,
                (1.0 - f) * 100.0
            ),
        )
    };
    tip.set_class_name(&format!("chart-tip {side}"));
    let _ = tip.set_attribute("style", &place);
    let _ = tip.set_attribute("role", "status");
    tip.set_text_content(None);
    if let Ok(bold) = document().create_element("b") {
        bold.set_text_content(Some(&instant));
        let _ = tip.append_child(&bold);
    }
    let text = document().create_text_node(&format!(" {}", tip_at(plot, t)));
    let _ = tip.append_child(&text);
}

fn on_move(ev: MouseEvent) {
    let Some(plot) = plot_of(&ev) else {
        return;
    };
    let Some(f) = fraction(&plot, &ev) else {
        return;
    };
    show_tip(&plot, f);
    let start = DRAG.with(|d| {
        d.borrow()
            .as_ref()
            .filter(|(p, _)| *p == plot)
            .map(|(_, start)| *start)
    });
    if let Some(start) = start {
        if (start - f).abs() >= MIN_DRAG {
            if let Some(band) = child(&plot, "zoom-selection") {
                let style = format!(
                    "left:{:.2}%;width:{:.2}%",
                    start.min(f) * 100.0,
                    (start - f).abs() * 100.0
                );
                let _ = band.set_attribute("style", &style);
            }
        }
    }
}

fn on_down(ev: MouseEvent) {
    let Some(plot) = plot_of(&ev).filter(|p| p.class_list().contains("zooms")) else {
        return;
    };
    let Some(f) = fraction(&plot, &ev) else {
        return;
    };
    ev.prevent_default();
    DRAG.with(|d| *d.borrow_mut() = Some((plot, f)));
}

fn on_up(ev: MouseEvent) {
    let Some((plot, start)) = DRAG.with(|d| d.borrow_mut().take()) else {
        return;
    };
    remove(&plot, "zoom-selection");
    let Some(end) = fraction(&plot, &ev) else {
        return;
    };
    if (end - start).abs() < MIN_DRAG {
        return;
    }
    let (a, b) = (
        instant_at(&plot, start.min(end)),
        instant_at(&plot, start.max(end)),
    );
    crate::components::live::navigate_to(&range_link(a, b));
}

/// The address shown with the custom range `a`–`b` (its other parameters kept).
fn range_link(a: u64, b: u64) -> String {
    let location = window().location();
    let path = location.pathname().unwrap_or_default();
    let search = location.search().unwrap_or_default();
    let mut others = Vec::new();
    if let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) {
        let keys = Array::from(&params.keys());
        let mut seen: Vec<String> = Vec::new();
        for key in keys.iter().filter_map(|k| k.as_string()) {
            if seen.contains(&key) {
                continue;
            }
            for value in params.get_all(&key).iter().filter_map(|v| v.as_string()) {
                others.push((key.clone(), value));
            }
            seen.push(key);
        }
    }
    crate::components::time_range::with_range(
        &path,
        &others,
        &[("from", sim_time(a)), ("to", sim_time(b))],
    )
}

fn on_leave(ev: MouseEvent) {
    let Some(plot) = ev
        .target()
        .and_then(|t| t.dyn_into::<Element>().ok())
        .filter(|e| e.matches(".plot[data-tips]").unwrap_or(false))
    else {
        return;
    };
    for class in ["crosshair", "chart-tip", "zoom-selection"] {
        remove(&plot, class);
    }
    DRAG.with(|d| {
        let mut d = d.borrow_mut();
        if d.as_ref().is_some_and(|(p, _)| *p == plot) {
            *d = None;
        }
    });
}
