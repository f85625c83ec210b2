//! The dynamic store's load table (`LMS_ServerLoadTable`) in the order its header asks for:
//! any column, either way. Hex columns sort by their value, not their text.

use std::cmp::{Ordering, Reverse};

use engine::lms::views::LoadTableRow;

/// A column of the load table to sort by (`lsort=` in the dynamic store's URL).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LoadTableSort {
    /// `name`: the host id (the table's own order).
    #[default]
    Name,
    /// `Host`.
    Host,
    /// `Zone`.
    Zone,
    /// `Load` (hex, by value; servers whose load the collector does not know come last).
    Load,
    /// `RealTimeRules`.
    RealTimeRules,
    /// `LoadBias`.
    LoadBias,
    /// `LTLoad` (hex, by value).
    LtLoad,
    /// `LTMultiplier`.
    LtMultiplier,
    /// `RuleLoads` (as text).
    RuleLoads,
    /// `ProtocolMask` (hex, by value).
    ProtocolMask,
}

impl LoadTableSort {
    /// Every column with its URL key and header, in the table's order.
    pub const ALL: [(LoadTableSort, &'static str, &'static str); 10] = [
        (LoadTableSort::Name, "name", "name"),
        (LoadTableSort::Host, "host", "Host"),
        (LoadTableSort::Zone, "zone", "Zone"),
        (LoadTableSort::Load, "load", "Load"),
        (LoadTableSort::RealTimeRules, "rtr", "RealTimeRules"),
        (LoadTableSort::LoadBias, "bias", "LoadBias"),
        (LoadTableSort::LtLoad, "ltload", "LTLoad"),
        (LoadTableSort::LtMultiplier, "ltmult", "LTMultiplier"),
        (LoadTableSort::RuleLoads, "rules", "RuleLoads"),
        (LoadTableSort::ProtocolMask, "mask", "ProtocolMask"),
    ];

    /// Every column by its URL key (for [`crate::model::listing::keyed`]).
    pub fn by_key() -> [(&'static str, LoadTableSort); 10] {
        Self::ALL.map(|(sort, key, _)| (key, sort))
    }

    /// Whether a first click on the column sorts it largest first (the loads: an operator
    /// looks for the busiest servers).
    pub fn desc_first(self) -> bool {
        matches!(self, LoadTableSort::Load | LoadTableSort::LtLoad)
    }
}

/// A hex column's value (`None` when blank or not hex).
fn hex(text: &str) -> Option<u64> {
    u64::from_str_radix(text, 16).ok()
}

/// Sorts `rows` by `sort`, largest first when `desc`; rows equal on the column keep the host
/// id order, so a page boundary never moves between two requests of the same table. A hex
/// column's value is read once per row; a blank one comes last whichever way the table runs.
pub fn sort_rows(rows: &mut [LoadTableRow], sort: LoadTableSort, desc: bool) {
    let hex_column: Option<fn(&LoadTableRow) -> Option<u64>> = match sort {
        LoadTableSort::Load => Some(|r: &LoadTableRow| hex(&r.load)),
        LoadTableSort::LtLoad => Some(|r: &LoadTableRow| hex(&r.lt_load)),
        LoadTableSort::ProtocolMask => Some(|r: &LoadTableRow| hex(&r.protocol_mask)),
        _ => None,
    };
    if let Some(value) = hex_column {
        if desc {
            rows.sort_by_cached_key(|r| {
                let v = value(r);
                (v.is_none(), Reverse(v), r.name)
            });
        } else {
            rows.sort_by_cached_key(|r| {
                let v = value(r);
                (v.is_none(), v, r.name)
            });
        }
        return;
    }
    let flip = |o: Ordering| if desc { o.reverse() } else { o };
    rows.sort_by(|a, b| {
        let by_column = match sort {
            LoadTableSort::Name => flip(a.name.cmp(&b.name)),
            LoadTableSort::Host => flip(a.host.cmp(&b.host)),
            LoadTableSort::Zone => flip(a.zone.cmp(&b.zone)),
            LoadTableSort::RealTimeRules => flip(a.real_time_rules.cmp(&b.real_time_rules)),
            LoadTableSort::LoadBias => flip(a.load_bias.cmp(&b.load_bias)),
            LoadTableSort::LtMultiplier => flip(a.lt_multiplier.cmp(&b.lt_multiplier)),
            LoadTableSort::RuleLoads => flip(a.rule_loads.cmp(&b.rule_loads)),
            // Sorted above by their values.
            LoadTableSort::Load | LoadTableSort::LtLoad | LoadTableSort::ProtocolMask => {
                Ordering::Equal
            }
        };
        by_column.then(a.name.cmp(&b.name))
    });
}

#[cfg(test)]
mod tests {
    use super::{sort_rows, LoadTableSort};
    use crate::model::listing::keyed;
    use engine::lms::views::LoadTableRow;

    fn row(name: u32, zone: &str, load: &str, bias: i32) -> LoadTableRow {
        LoadTableRow {
            name,
            host: format!("XA-{name:02}"),
            zone: zone.to_owned(),
            load: load.to_owned(),
            real_time_rules: String::new(),
            load_bias: bias,
            lt_load: "0".to_owned(),
            lt_multiplier: 1,
            rule_loads: String::new(),
            protocol_mask: "3".to_owned(),
        }
    }

    fn names(rows: &[LoadTableRow]) -> Vec<u32> {
        rows.iter().map(|r| r.name).collect()
    }

    #[test]
    fn every_column_key_reads_back_as_its_column_and_another_is_named() {
        for (sort, key, _) in LoadTableSort::ALL {
            assert_eq!(
                keyed("lsort", &LoadTableSort::by_key(), Some(key)),
                Ok(Some(sort))
            );
        }
        let refused = keyed("lsort", &LoadTableSort::by_key(), Some("Load"));
        let text = format!("{refused:?}");
        assert!(text.contains("lsort") && text.contains("ltload"), "{text}");
    }

    #[test]
    fn the_table_sorts_by_each_column_either_way() {
        // Loads in hex: "ff" (255) is above "64" (100) and "9" although its text sorts
        // before them; "" is a server whose load the collector does not know.
        let table = || {
            vec![
                row(1, "z2", "64", 0),
                row(2, "z1", "ff", -5),
                row(3, "z2", "", 5),
                row(4, "z1", "9", 0),
            ]
        };
        // (column, largest first, host ids in order)
        let cases = [
            (LoadTableSort::Name, false, [1, 2, 3, 4]),
            (LoadTableSort::Name, true, [4, 3, 2, 1]),
            (LoadTableSort::Load, true, [2, 1, 4, 3]),
            (LoadTableSort::Load, false, [4, 1, 2, 3]),
            (LoadTableSort::Zone, false, [2, 4, 1, 3]),
            (LoadTableSort::Zone, true, [1, 3, 2, 4]),
            (LoadTableSort::LoadBias, false, [2, 1, 4, 3]),
            (LoadTableSort::LoadBias, true, [3, 1, 4, 2]),
            (LoadTableSort::Host, true, [4, 3, 2, 1]),
            // Equal on the column: the host id order, whichever way.
            (LoadTableSort::ProtocolMask, true, [1, 2, 3, 4]),
        ];
        for (sort, desc, want) in cases {
            let mut rows = table();
            sort_rows(&mut rows, sort, desc);
            assert_eq!(names(&rows), want, "{sort:?} desc={desc}");
        }
    }
}
