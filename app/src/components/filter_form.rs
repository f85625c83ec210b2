//! [`FilterForm`]: a `GET` form of filters whose submission leaves the fields left empty out
//! of the URL (`?engine=lhc`, not `?run=&engine=lhc&subject=&kind=`), so a filtered view's
//! address is short enough to read and share. In the browser it is read in place (no
//! reload); without the browser bundle the form submits as a plain `GET`.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

/// The query string of a form's fields without the empty ones (`a=1&b=&c=2` → `a=1&c=2`).
pub fn without_empty_fields(query: &str) -> String {
    query
        .split('&')
        .filter(|pair| !pair.is_empty() && !pair.ends_with('='))
        .collect::<Vec<_>>()
        .join("&")
}

/// The filters of the current URL named `keys` that are set, as `&key=value` pairs in that
/// order (`&q=par&state=extended_ha`): what a list's sort and page links keep.
pub fn kept_filters(query: &leptos_router::params::ParamsMap, keys: &[&str]) -> String {
    keys.iter()
        .filter_map(|k| {
            let v = query.get(k).unwrap_or_default();
            (!v.is_empty()).then(|| format!("&{k}={}", crate::model::encode(&v)))
        })
        .collect()
}

/// A filters form submitted by `GET` to the current page. In the browser the page's
/// behaviours ([`crate::components::behaviours`]) read the result in place, the empty fields
/// left out of the address; without the browser bundle it submits as a plain `GET`.
#[component]
pub fn FilterForm(
    #[prop(into)] id: String,
    #[prop(into)] class: String,
    /// Whether the page's other parameters stay in the address (a form of one card of a page
    /// that has other filters).
    #[prop(optional)]
    merge: bool,
    /// Whether a change of a field submits the form (no button to press).
    #[prop(optional)]
    auto: bool,
    children: Children,
) -> impl IntoView {
    view! {
        <form method="get" action="" id=id class=class data-in-place=if merge { "merge" } else { "" } data-auto-submit=auto.then_some("")>
            {children()}
        </form>
    }
}

#[component]
pub fn KeptSort() -> impl IntoView {
    let query = use_query_map();
    let current = move |k: &str| query.read().get(k).unwrap_or_default();
    view! {
        <input type="hidden" name="sort" value=move || current("sort")/>
        <input type="hidden" name="desc" value=move || current("desc")/>
    }
}

/// A filter's drop-down in a filters form: `any` (no filter; its wording given), then each
/// choice as (value in the URL, label), the URL's value of `name` selected.
#[component]
pub fn ChoiceFilter(
    /// The label before the drop-down.
    label: &'static str,
    /// The URL parameter.
    name: &'static str,
    /// The choices: value, label.
    choices: Vec<(String, String)>,
    /// What the empty choice reads.
    #[prop(default = "any")]
    any: &'static str,
) -> impl IntoView {
    let query = use_query_map();
    let current = move || query.read().get(name).unwrap_or_default();
    view! {
        <label>{label} " " <select name=name>
            <option value="" selected=move || current().is_empty()>{any}</option>
            {choices.into_iter().map(|(value, text)| {
                let key = value.clone();
                view! { <option value=value selected=move || current() == key>{text}</option> }
            }).collect_view()}
        </select></label>
    }
}

/// A choice of a [`ChoiceFilter`]: its value in the URL and its label.
pub fn choice(value: impl Into<String>, label: impl Into<String>) -> (String, String) {
    (value.into(), label.into())
}

#[cfg(test)]
mod tests {
    use super::{kept_filters, without_empty_fields};

    #[test]
    fn empty_fields_leave_the_query() {
        let cases = [
            ("run=&engine=lhc&subject=&kind=", "engine=lhc"),
            ("engine=&kind=", ""),
            (
                "broker=cloud&maintenance=&kind=static",
                "broker=cloud&kind=static",
            ),
            ("subject=a%3D&kind=b", "subject=a%3D&kind=b"),
            ("", ""),
        ];
        for (query, want) in cases {
            assert_eq!(without_empty_fields(query), want, "{query}");
        }
    }

    #[test]
    fn the_filters_set_are_kept_encoded_in_the_order_asked() {
        let mut query = leptos_router::params::ParamsMap::new();
        query.insert("state", "extended_ha".to_owned());
        query.insert("q", "par is".to_owned());
        query.insert("page", "3".to_owned());
        query.insert("role", String::new());
        assert_eq!(
            kept_filters(&query, &["q", "role", "state"]),
            "&q=par%20is&state=extended_ha"
        );
        assert_eq!(kept_filters(&query, &["zone"]), "");
    }
}
