//! Rebuild when a migration changes, since `sqlx::migrate!` embeds them.
fn main() {
    for dir in ["../migrations/sqlite", "../migrations/postgres"] {
        println!("cargo:rerun-if-changed={dir}");
    }
}
