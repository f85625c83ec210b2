//! [`SnapshotError`]: why a snapshot cannot be restored.

/// Why [`Simulation::restore`](crate::Simulation::restore) refused its input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SnapshotError {
    /// A snapshot of another format version (written by another build).
    #[error("snapshot format {found}, this build reads {expected}")]
    Version {
        /// The version in the snapshot's header.
        found: u32,
        /// [`SNAPSHOT_VERSION`](super::SNAPSHOT_VERSION).
        expected: u32,
    },
    /// Not a snapshot, or a truncated or damaged one.
    #[error("snapshot cannot be read: {0}")]
    Decode(String),
}
