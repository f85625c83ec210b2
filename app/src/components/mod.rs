//! Reusable pieces of pages.

pub mod autoscale_charts;
pub mod built_once;
pub mod chart_frame;
pub mod charts;
pub mod clock_panel;
pub mod confirm;
pub mod event_table;
pub mod event_words;
pub mod facts;
pub mod feed;
pub mod filter_form;
pub mod header_alerts;
pub mod header_clock;
pub mod layout;
pub mod list_url;
pub mod live;
pub mod lms_charts;
pub mod page_help;
pub mod pager;
pub mod section_tabs;
pub mod sort_header;
pub mod sparkline;
pub mod tiles;
pub mod time_bar;
pub mod time_range;
pub mod topology;
