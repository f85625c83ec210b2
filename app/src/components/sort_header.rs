//! A sortable table's column header: a link that sorts by the column, and the arrow and
//! `aria-sort` of the column in force. The lists sort on the server; the link only changes
//! the page's URL (`sort`, `desc` or the table's own names for them).

use leptos::prelude::*;

use crate::erase::Erase;

/// How a table is sorted now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SortedBy<'a> {
    /// The column in force (the table's default when the URL names none).
    pub key: &'a str,
    /// Largest first.
    pub desc: bool,
}

impl SortedBy<'_> {
    /// Whether a click on column `key` should sort it largest first: the other way round when
    /// it is in force, else `desc_first` (the worst first, where that is what an operator looks
    /// for).
    pub fn next_desc(self, key: &str, desc_first: bool) -> bool {
        if self.key == key {
            !self.desc
        } else {
            desc_first
        }
    }
}

/// The header of column `key`, labelled `label`: its link, `href(key, desc)`, sorts by it
/// (see [`SortedBy::next_desc`]).
pub fn sort_header(
    key: &'static str,
    label: &'static str,
    now: SortedBy<'_>,
    desc_first: bool,
    href: impl Fn(&str, bool) -> String,
) -> AnyView {
    let (arrow, aria_sort) = match (now.key == key, now.desc) {
        (false, _) => ("", "none"),
        (true, false) => (" ▲", "ascending"),
        (true, true) => (" ▼", "descending"),
    };
    let link = href(key, now.next_desc(key, desc_first));
    view! { <th aria-sort=aria_sort><a href=link data-sort=key>{label}{arrow}</a></th> }.erase()
}

#[cfg(test)]
mod tests {
    use super::SortedBy;

    #[test]
    fn a_click_sorts_the_column_or_turns_it_round() {
        let now = |key, desc| SortedBy { key, desc };
        // (sorted by, column clicked, desc first, next desc)
        let cases = [
            (now("name", false), "name", false, true),
            (now("name", true), "name", false, false),
            (now("name", false), "load", false, false),
            (now("name", true), "load", false, false),
            (now("name", false), "unregistered", true, true),
            (now("unregistered", true), "unregistered", true, false),
        ];
        for (sorted, key, desc_first, want) in cases {
            assert_eq!(sorted.next_desc(key, desc_first), want, "{sorted:?} {key}");
        }
    }
}
