//! The address of a list sorted and paged on the server: its path, the column and direction
//! in force, and the filters a sort or a page keeps (with the instant shown, for the past).
//! The column headers and the pager build their links from it.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::components::filter_form::kept_filters;
use crate::components::sort_header::{sort_header, SortedBy};
use crate::model::encode;
use crate::time_travel::use_as_of;

/// A list's address now (read once, when its table is built).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListUrl {
    path: String,
    sort: String,
    desc: bool,
    filters: String,
}

impl ListUrl {
    /// The list at `path` as the page's URL has it, keeping the filters named `filters`.
    pub fn current(path: impl Into<String>, filters: &[&str]) -> ListUrl {
        let query = use_query_map().read_untracked();
        let as_of = use_as_of().get_untracked();
        ListUrl {
            path: path.into(),
            sort: query.get("sort").unwrap_or_default(),
            desc: query.get("desc").as_deref() == Some("1"),
            filters: kept_filters(&query, filters) + &as_of.and_params(),
        }
    }

    /// The same list with column `key` in force when the URL names none (the list's own
    /// order is by that column).
    pub fn sorted_by_default(mut self, key: &str) -> ListUrl {
        if self.sort.is_empty() {
            key.clone_into(&mut self.sort);
        }
        self
    }

    /// The header of column `key`: a link that sorts by it (the first click sorts largest
    /// first when `desc_first`).
    pub fn header(&self, key: &'static str, label: &'static str, desc_first: bool) -> AnyView {
        let now = SortedBy {
            key: &self.sort,
            desc: self.desc,
        };
        sort_header(key, label, now, desc_first, |key, desc| {
            format!(
                "{}?sort={key}&desc={}{}",
                self.path,
                u8::from(desc),
                self.filters
            )
        })
    }

    /// The link to page `n` of the list, sorted and filtered as now.
    pub fn page_href(&self) -> impl Fn(u32) -> String + 'static {
        let sort = if self.sort.is_empty() {
            String::new()
        } else {
            format!("&sort={}&desc={}", encode(&self.sort), u8::from(self.desc))
        };
        let (path, rest) = (self.path.clone(), format!("{sort}{}", self.filters));
        move |n| format!("{path}?page={n}{rest}")
    }
}

/// "12 MEP links", or "3 of 12 MEP links match" when a search or filter leaves some out.
pub fn matching_summary(matching: u32, total: u32, noun: &str) -> String {
    if matching == total {
        format!("{total} {noun}")
    } else {
        format!("{matching} of {total} {noun} match")
    }
}

#[cfg(test)]
mod tests {
    use super::{matching_summary, ListUrl};

    #[test]
    fn a_page_link_keeps_the_sort_encoded_and_the_filters() {
        let url = |sort: &str| ListUrl {
            path: "/gslb/links".into(),
            sort: sort.into(),
            desc: true,
            filters: "&q=P1".into(),
        };
        assert_eq!(
            url("rtt").page_href()(3),
            "/gslb/links?page=3&sort=rtt&desc=1&q=P1"
        );
        assert_eq!(
            url("rtt&q=x").page_href()(2),
            "/gslb/links?page=2&sort=rtt%26q%3Dx&desc=1&q=P1"
        );
        assert_eq!(url("").page_href()(1), "/gslb/links?page=1&q=P1");
    }

    #[test]
    fn the_summary_says_how_many_match() {
        assert_eq!(matching_summary(7, 7, "MEP links"), "7 MEP links");
        assert_eq!(matching_summary(0, 7, "nodes"), "0 of 7 nodes match");
    }
}
