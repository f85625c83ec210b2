//! A row of count tiles ("3 Extended HA"), each linking to the list filtered to what it counts.

use leptos::prelude::*;

use crate::format::thousands;
use crate::model::overview::Tile;

/// The tiles of one card; `class_prefix` + a tile's key is its state's CSS class
/// (`state-extended_ha`). A tile counting nothing is drawn muted.
#[component]
pub fn Tiles(
    /// The list's id.
    id: &'static str,
    /// Its accessible name ("Resource locations per HA state").
    label: &'static str,
    /// The tiles.
    tiles: Vec<Tile>,
    /// Prefix of each tile's state class.
    class_prefix: &'static str,
) -> impl IntoView {
    view! {
        <ul class="tiles" id=id aria-label=label>
            {tiles.into_iter().map(|t| {
                let class = if t.count == 0 {
                    "tile zero".to_owned()
                } else {
                    format!("tile {class_prefix}{}", t.key)
                };
                view! {
                    <li class=class data-key=t.key.clone() data-count=t.count.to_string()>
                        <a href=t.href>
                            <span class="tile-count">{thousands(t.count)}</span>
                            <span class="tile-label">{t.label}</span>
                        </a>
                    </li>
                }
            }).collect_view()}
        </ul>
    }
}
