//! What the store suites share: the stores a test runs on.

use services::Store;

/// The stores a test runs on, each with what keeps it alive.
pub async fn stores() -> Vec<(Store, tempfile::TempDir)> {
    let dir = tempfile::tempdir().expect("dir");
    let url = format!("sqlite://{}", dir.path().join("store.db").display());
    let mut out = vec![(Store::connect(&url).await.expect("sqlite store"), dir)];
    match std::env::var("SWITCHYARD_TEST_POSTGRES_URL") {
        Ok(admin) => {
            let url = services::store::postgres::scratch_database(&admin, "store")
                .await
                .expect("scratch database");
            let store = Store::connect(&url).await.expect("postgres store");
            out.push((store, tempfile::tempdir().expect("dir")));
        }
        Err(_) => eprintln!(
            "PostgreSQL half skipped: SWITCHYARD_TEST_POSTGRES_URL is not set (make test sets it)"
        ),
    }
    out
}
