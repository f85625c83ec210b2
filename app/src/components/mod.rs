//! Reusable pieces of pages.

pub mod charts;
pub mod clock_panel;
pub mod event_table;
pub mod layout;
pub mod live;
pub mod lms_charts;
pub mod pager;
pub mod topology;
