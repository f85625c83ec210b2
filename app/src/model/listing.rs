//! What the server-side lists share: the URL keys of their columns and filters, checked with
//! an error that names the field and the keys it takes, and one page of rows, filtered then
//! sorted (stable: rows equal in the sorted column keep the list's own order) and cut.

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};

use crate::error::AppError;

/// One page of a list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListPage<T> {
    /// Rows in all.
    pub total: u32,
    /// Those matching the search and the filters.
    pub matching: u32,
    /// This page, from 1.
    pub page: u32,
    /// Its rows, in the order asked.
    pub rows: Vec<T>,
}

/// The value that `key` names in `all` (URL key, value); `None` when no key is given. An
/// unknown key is refused, naming `field` and every key it takes.
pub fn keyed<T: Copy>(
    field: &str,
    all: &[(&'static str, T)],
    key: Option<&str>,
) -> Result<Option<T>, AppError> {
    let Some(key) = key else {
        return Ok(None);
    };
    all.iter()
        .find(|(k, _)| *k == key)
        .map(|(_, v)| Some(*v))
        .ok_or_else(|| {
            let keys: Vec<&str> = all.iter().map(|(k, _)| *k).collect();
            AppError::invalid(field, format!("must be one of {}", keys.join(", ")))
        })
}

/// The URL key of `value` in `all` (the first key when none matches).
pub fn key_of<T: PartialEq>(all: &[(&'static str, T)], value: &T) -> &'static str {
    all.iter()
        .find(|(_, v)| v == value)
        .or(all.first())
        .map_or("", |(k, _)| k)
}

/// Page `page` (from 1; 0 reads as 1) of `per_page` rows of `matching`, sorted by `order`
/// (reversed when `descending`); `total` counts the rows before the search and filters.
pub fn page_of<T>(
    total: usize,
    mut matching: Vec<T>,
    order: impl Fn(&T, &T) -> Ordering,
    descending: bool,
    page: u32,
    per_page: u32,
) -> ListPage<T> {
    if descending {
        matching.sort_by(|a, b| order(a, b).reverse());
    } else {
        matching.sort_by(order);
    }
    let page = page.max(1);
    let count = u32::try_from(matching.len()).unwrap_or(u32::MAX);
    let rows = matching
        .into_iter()
        .skip(((page - 1) as usize).saturating_mul(per_page as usize))
        .take(per_page as usize)
        .collect();
    ListPage {
        total: u32::try_from(total).unwrap_or(u32::MAX),
        matching: count,
        page,
        rows,
    }
}

/// Whether `name` contains `needle` (already lower-cased), ignoring case.
pub fn contains(name: &str, needle: &str) -> bool {
    name.to_lowercase().contains(needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLOURS: [(&str, u8); 3] = [("red", 1), ("green", 2), ("blue", 3)];

    #[test]
    fn a_key_names_its_value_and_an_unknown_key_names_the_field_and_the_keys() {
        assert_eq!(keyed("colour", &COLOURS, None).ok(), Some(None));
        assert_eq!(keyed("colour", &COLOURS, Some("green")).ok(), Some(Some(2)));
        let refused = keyed("colour", &COLOURS, Some("Green"))
            .err()
            .map(|e| e.to_string());
        let refused = refused.unwrap_or_default();
        assert!(refused.contains("colour"), "{refused}");
        assert!(refused.contains("red, green, blue"), "{refused}");
        assert_eq!(key_of(&COLOURS, &3), "blue");
        assert_eq!(key_of(&COLOURS, &9), "red");
    }

    #[test]
    fn a_page_is_sorted_stably_either_way_and_cut() {
        // (name, value): ties on the value keep the input order, whichever the direction.
        let rows = vec![("a", 2), ("b", 1), ("c", 2), ("d", 3), ("e", 1)];
        fn names(page: &ListPage<(&'static str, u32)>) -> Vec<&'static str> {
            page.rows.iter().map(|r| r.0).collect()
        }
        let by_value = |x: &(&str, u32), y: &(&str, u32)| x.1.cmp(&y.1);
        // (descending, page, per page, names shown)
        let cases: [(bool, u32, u32, &[&str]); 6] = [
            (false, 1, 10, &["b", "e", "a", "c", "d"]),
            (true, 1, 10, &["d", "a", "c", "b", "e"]),
            (false, 1, 2, &["b", "e"]),
            (false, 2, 2, &["a", "c"]),
            (true, 3, 2, &["e"]),
            (false, 4, 2, &[]),
        ];
        for (descending, page, per_page, shown) in cases {
            let out = page_of(7, rows.clone(), by_value, descending, page, per_page);
            assert_eq!(names(&out), shown, "{descending} {page} {per_page}");
            assert_eq!((out.total, out.matching, out.page), (7, 5, page));
        }
        assert_eq!(
            page_of(0, Vec::<(&str, u32)>::new(), by_value, false, 0, 5).page,
            1
        );
    }
}
