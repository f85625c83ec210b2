//! The console's in-place reader (browser only): it reads a page from the server and diffs it
//! into the one shown, for live refreshes, after an action, and for a click on a link or the
//! submission of a `GET` form. Only what differs changes: what a person is typing, the scroll
//! and the islands whose server-given props are the same stay as they are.
//!
//! The framework ships a reader of its own (its islands router); this one differs where the
//! console needs it: an attribute the new page lacks is removed (`disabled`, `hidden`), and an
//! island whose props changed is replaced and hydrated again. An element marked `data-keep`
//! keeps its content (the text an action's result put there), and one with
//! `data-client-attrs` the attributes it lists; an element the browser added itself, marked
//! `data-client`, is not removed. All three hold while the page shown is read again; another
//! page (a link, Back) starts afresh, its form fields showing what the server wrote. (The
//! body's `data-hydrated` stays in every case.)

/// What a read does to the tab's history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum History {
    /// A new entry (a link followed, a form submitted).
    Push,
    /// The same entry, its address updated (a refresh, an action's result).
    Replace,
    /// None (Back or Forward: the browser moved already).
    Keep,
}

#[cfg(feature = "hydrate")]
pub use browser::{install, read_in_place};

#[cfg(feature = "hydrate")]
mod browser {
    use std::cell::{Cell, RefCell};

    use leptos::prelude::*;
    use leptos::reactive::owner::Owner;
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::{JsCast, JsValue};
    use web_sys::{Document, Element, MouseEvent, Node};

    use super::History;

    thread_local! {
        /// Reads started; an answer that is not the latest one's is dropped.
        static LATEST: Cell<u64> = const { Cell::new(0) };
        /// Whether the read being applied is another page (or the same one asked again by
        /// a link): its form fields then show what the server wrote, not what was typed on
        /// the page left.
        static RESET_FIELDS: Cell<bool> = const { Cell::new(false) };
        static INSTALLED: Cell<bool> = const { Cell::new(false) };
        /// The islands this reader hydrated, each with the owner of what its hydration
        /// created (effects, signals): disposed once the island has left the document, so a
        /// page left stops following the live stream.
        static HYDRATED: RefCell<Vec<(Element, Owner)>> = const { RefCell::new(Vec::new()) };
        /// The read of another page in flight (a link, a form, Back), if any. A read of the
        /// page shown again (a live refresh, an action's result) is not started meanwhile: it
        /// would supersede the one in flight, and the person's click would be lost.
        static NAVIGATING: Cell<Option<u64>> = const { Cell::new(None) };
    }

    /// Reads `url` (path and query) and diffs it in.
    pub fn read_in_place(url: String, history: History) {
        let navigating = history != History::Replace;
        if !navigating && NAVIGATING.with(|n| n.get().is_some()) {
            return;
        }
        let this = LATEST.with(|l| {
            let next = l.get() + 1;
            l.set(next);
            next
        });
        if navigating {
            NAVIGATING.with(|n| n.set(Some(this)));
        }
        leptos::task::spawn_local(async move {
            let fetched = fetch_page(&url).await;
            if navigating {
                NAVIGATING.with(|n| {
                    if n.get() == Some(this) {
                        n.set(None);
                    }
                });
            }
            let Some((html, final_url)) = fetched else {
                if history != History::Replace {
                    // A link followed (or Back) and the page could not be read: the browser
                    // goes there itself (and shows what the server says).
                    let _ = window().location().assign(&url);
                } else {
                    // A refresh: the page shown stays; the next one tries again.
                    leptos::logging::warn!("could not read {url} again");
                }
                return;
            };
            if LATEST.with(Cell::get) != this {
                return;
            }
            let Ok(parser) = web_sys::DomParser::new() else {
                return;
            };
            let Ok(new) = parser.parse_from_string(&html, web_sys::SupportedType::TextHtml) else {
                return;
            };
            RESET_FIELDS.with(|r| r.set(history != History::Replace));
            apply(&new);
            RESET_FIELDS.with(|r| r.set(false));
            crate::components::behaviours::after_page_read();
            if let Ok(h) = window().history() {
                let _ = match history {
                    History::Push => h.push_state_with_url(&JsValue::NULL, "", Some(&final_url)),
                    History::Replace => {
                        h.replace_state_with_url(&JsValue::NULL, "", Some(&final_url))
                    }
                    History::Keep => Ok(()),
                };
            }
            if history == History::Push {
                window().scroll_to_with_x_and_y(0.0, 0.0);
            }
        });
    }

    /// The page at `url` and the address it ended at (after redirects).
    async fn fetch_page(url: &str) -> Option<(String, String)> {
        use leptos::__reexports::wasm_bindgen_futures::JsFuture;
        let headers = web_sys::Headers::new().ok()?;
        // The server leaves out what a page loaded once already has (its hydration scripts).
        headers.set("Islands-Router", "true").ok()?;
        let init = web_sys::RequestInit::new();
        init.set_headers(&headers);
        let response = JsFuture::from(window().fetch_with_str_and_init(url, &init))
            .await
            .ok()?;
        let response: web_sys::Response = response.dyn_into().ok()?;
        if !response.ok() && response.status() != 404 {
            return None;
        }
        let text = JsFuture::from(response.text().ok()?)
            .await
            .ok()?
            .as_string()?;
        Some((text, response.url()))
    }

    /// Diffs `new` into the document: the title and the body; then hydrates the islands that
    /// came new.
    fn apply(new: &Document) {
        let old = document();
        let title = new.title();
        if old.title() != title {
            old.set_title(&title);
        }
        let (Some(old_body), Some(new_body)) = (old.body(), new.body()) else {
            return;
        };
        let mut fresh = Vec::new();
        diff_attributes(&old_body, &new_body);
        diff_children(&old, &old_body, &new_body, &mut fresh);
        let hydrate =
            web_sys::js_sys::Reflect::get(&window(), &JsValue::from_str("__hydrateIsland"))
                .ok()
                .and_then(|f| f.dyn_into::<web_sys::js_sys::Function>().ok());
        dispose_islands_gone();
        if let Some(hydrate) = hydrate {
            for island in fresh {
                let id = island.get_attribute("data-component").unwrap_or_default();
                // The island's hydration runs at once (the islands are not lazy), under an
                // owner of its own.
                let owner = Owner::new();
                owner.with(|| {
                    let _ = hydrate.call2(&JsValue::NULL, &island, &JsValue::from_str(&id));
                });
                HYDRATED.with_borrow_mut(|islands| islands.push((island, owner)));
            }
        }
        let owned = HYDRATED.with_borrow(Vec::len);
        if let Some(body) = old.body() {
            let _ = body.set_attribute("data-islands-owned", &owned.to_string());
        }
    }

    /// Disposes what the islands no longer in the document created: their effects stop and
    /// their signals go. (The islands of the page the tab first loaded were hydrated by the
    /// framework, under its root: they stay.)
    fn dispose_islands_gone() {
        HYDRATED.with_borrow_mut(|islands| {
            islands.retain(|(island, owner)| {
                let kept = island.is_connected();
                if !kept {
                    owner.cleanup();
                }
                kept
            })
        });
    }

    fn diff_children(doc: &Document, old: &Node, new: &Node, fresh: &mut Vec<Element>) {
        let old_children = old.child_nodes();
        let new_children = new.child_nodes();
        let (old_len, new_len) = (old_children.length(), new_children.length());
        for i in 0..new_len {
            let Some(new_child) = new_children.item(i) else {
                continue;
            };
            match old_children.item(i) {
                Some(old_child) => diff_node(doc, old, &old_child, &new_child, fresh),
                None => {
                    if let Ok(node) = doc.import_node_with_deep(&new_child, true) {
                        let _ = old.append_child(&node);
                        collect_islands(&node, fresh);
                    }
                }
            }
        }
        for i in (new_len..old_len).rev() {
            if let Some(extra) = old_children.item(i) {
                // What the browser drew there itself (a chart's tooltip) stays.
                let drawn_here = same_page()
                    && extra
                        .dyn_ref::<Element>()
                        .is_some_and(|e| e.has_attribute("data-client"));
                if !drawn_here {
                    let _ = old.remove_child(&extra);
                }
            }
        }
    }

    fn diff_node(doc: &Document, parent: &Node, old: &Node, new: &Node, fresh: &mut Vec<Element>) {
        let same_kind = old.node_type() == new.node_type() && old.node_name() == new.node_name();
        if same_kind && old.node_type() != Node::ELEMENT_NODE {
            if old.node_value() != new.node_value() {
                old.set_node_value(new.node_value().as_deref());
            }
            return;
        }
        let (Some(old_el), Some(new_el)) = (old.dyn_ref::<Element>(), new.dyn_ref::<Element>())
        else {
            replace(doc, parent, old, new, fresh);
            return;
        };
        if !same_kind {
            replace(doc, parent, old, new, fresh);
            return;
        }
        if old_el.tag_name() == "LEPTOS-ISLAND" {
            // Its state is the browser's: kept while the server gives it the same props.
            let same = old_el.get_attribute("data-component")
                == new_el.get_attribute("data-component")
                && old_el.get_attribute("data-props") == new_el.get_attribute("data-props");
            if !same {
                replace(doc, parent, old, new, fresh);
            }
            return;
        }
        diff_attributes(old_el, new_el);
        if old_el.has_attribute("data-keep") && same_page() {
            // Its content is the browser's (an action's refusal or result, an editor).
            return;
        }
        diff_children(doc, old, new, fresh);
        if RESET_FIELDS.with(Cell::get) {
            reset_field(old_el, new_el);
        }
    }

    /// Whether the read being applied is the page shown, read again (a live refresh, an
    /// action's result): what the browser holds in it (`data-keep`, `data-client-attrs`,
    /// `data-client`) then stays; another page starts afresh.
    fn same_page() -> bool {
        !RESET_FIELDS.with(Cell::get)
    }

    /// A form field made to show what the new page wrote: a field once typed in (or a
    /// slider once dragged) no longer follows its `value` attribute.
    fn reset_field(old: &Element, new: &Element) {
        use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
        if let Some(input) = old.dyn_ref::<HtmlInputElement>() {
            match input.type_().as_str() {
                "checkbox" | "radio" => input.set_checked(new.has_attribute("checked")),
                "file" => {}
                _ => input.set_value(&new.get_attribute("value").unwrap_or_default()),
            }
        } else if let (Some(select), Some(fresh)) = (
            old.dyn_ref::<HtmlSelectElement>(),
            new.dyn_ref::<HtmlSelectElement>(),
        ) {
            select.set_selected_index(fresh.selected_index());
        } else if let Some(area) = old.dyn_ref::<HtmlTextAreaElement>() {
            area.set_value(&new.text_content().unwrap_or_default());
        }
    }

    fn replace(doc: &Document, parent: &Node, old: &Node, new: &Node, fresh: &mut Vec<Element>) {
        if let Ok(node) = doc.import_node_with_deep(new, true) {
            let _ = parent.replace_child(&node, old);
            collect_islands(&node, fresh);
        }
    }

    /// `old`'s attributes made `new`'s: changed ones set, missing ones removed; but those
    /// `old` lists in `data-client-attrs` stay as the browser set them (a drawing's zoom).
    fn diff_attributes(old: &Element, new: &Element) {
        let mut kept = if same_page() || old.tag_name() == "BODY" {
            old.get_attribute("data-client-attrs").unwrap_or_default()
        } else {
            String::new()
        };
        if same_page() && old.tag_name() == "DETAILS" {
            // A disclosure a person opened or folded stays so while the page is read again.
            kept.push_str(" open");
        }
        let kept: Vec<&str> = kept.split_whitespace().collect();
        let names = old.get_attribute_names();
        for name in names.iter().filter_map(|n| n.as_string()) {
            if kept.contains(&name.as_str()) {
                continue;
            }
            if !new.has_attribute(&name) {
                let _ = old.remove_attribute(&name);
            }
        }
        for name in new
            .get_attribute_names()
            .iter()
            .filter_map(|n| n.as_string())
        {
            if kept.contains(&name.as_str()) {
                continue;
            }
            let value = new.get_attribute(&name).unwrap_or_default();
            if old.get_attribute(&name).as_deref() != Some(value.as_str()) {
                let _ = old.set_attribute(&name, &value);
            }
        }
    }

    /// The islands in `node` (itself included), to hydrate once the page is in.
    fn collect_islands(node: &Node, fresh: &mut Vec<Element>) {
        let Some(el) = node.dyn_ref::<Element>() else {
            return;
        };
        if el.tag_name() == "LEPTOS-ISLAND" {
            fresh.push(el.clone());
            return;
        }
        if let Ok(found) = el.query_selector_all("leptos-island") {
            for i in 0..found.length() {
                if let Some(island) = found.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
                    // Only the outermost: an island hydrates the islands inside it.
                    let nested = island
                        .parent_element()
                        .and_then(|p| p.closest("leptos-island").ok().flatten())
                        .is_some_and(|outer| el.contains(Some(&outer)));
                    if !nested {
                        fresh.push(island);
                    }
                }
            }
        }
    }

    /// Follows same-origin links and `GET` forms in place, and Back and Forward (once per
    /// tab).
    pub fn install() {
        if INSTALLED.with(|i| i.replace(true)) {
            return;
        }
        let on_click: Closure<dyn FnMut(MouseEvent)> = Closure::new(on_click);
        let _ =
            document().add_event_listener_with_callback("click", on_click.as_ref().unchecked_ref());
        on_click.forget();
        let on_pop: Closure<dyn FnMut(web_sys::Event)> = Closure::new(|_| {
            read_in_place(here(), History::Keep);
        });
        let _ =
            window().add_event_listener_with_callback("popstate", on_pop.as_ref().unchecked_ref());
        on_pop.forget();
    }

    /// The address shown (path and query).
    pub fn here() -> String {
        let location = window().location();
        format!(
            "{}{}",
            location.pathname().unwrap_or_default(),
            location.search().unwrap_or_default()
        )
    }

    fn on_click(ev: MouseEvent) {
        if ev.default_prevented()
            || ev.button() != 0
            || ev.meta_key()
            || ev.ctrl_key()
            || ev.shift_key()
            || ev.alt_key()
        {
            return;
        }
        let Some(target) = ev.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
            return;
        };
        let Ok(Some(a)) = target.closest("a[href]") else {
            return;
        };
        let rel = a.get_attribute("rel").unwrap_or_default();
        if a.has_attribute("target")
            || a.has_attribute("download")
            || rel.split_whitespace().any(|r| r == "external")
        {
            return;
        }
        let Some(a) = a.dyn_ref::<web_sys::HtmlAnchorElement>() else {
            return;
        };
        let origin = window().location().origin().unwrap_or_default();
        if a.origin() != origin {
            return;
        }
        let url = format!("{}{}", a.pathname(), a.search());
        if !a.hash().is_empty() && url == here() {
            // A place on this page: the browser goes there.
            return;
        }
        ev.prevent_default();
        read_in_place(url, History::Push);
    }
}

#[cfg(feature = "hydrate")]
pub use browser::here;
