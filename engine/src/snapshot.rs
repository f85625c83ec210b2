//! Snapshots of a [`Simulation`]: its whole state as bytes, and back.
//!
//! A snapshot taken at instant `t` and restored gives a simulation whose future is the one
//! the original would have had: the same events, byte for byte, for the same later advances
//! and actions. Every piece of state is in it (the engines, their seeded random streams,
//! pending timers and queues, the action timeline, the configurations they hold), including
//! the derived indexes that are costly to rebuild (placement trees, phase orders), so a
//! restore is a decode and nothing else.
//!
//! # Layout
//!
//! | bytes | what |
//! |---|---|
//! | 0..8 | [`SNAPSHOT_MAGIC`], `SWYDSNAP` |
//! | 8..12 | [`SNAPSHOT_VERSION`], little-endian `u32` |
//! | 12..20 | checksum of the body, little-endian `u64` (see [`checksum`]) |
//! | 20.. | the body: the [`Simulation`] in MessagePack, structs as maps, human-readable |
//!
//! A restore checks the magic, then the version (another one is refused with
//! [`SnapshotError::Version`], never guessed at), then the checksum (a truncated or damaged
//! file is refused before decoding: a flipped bit in a number would otherwise decode to a
//! different but well-formed state), then decodes. No input makes it panic.
//!
//! # Why MessagePack (`rmp-serde`)
//!
//! * **Self-describing.** Every value carries its type, so `deserialize_any` works: the
//!   pending [`TimedAction`](crate::TimedAction)s decode through the same buffered, flat
//!   `kind = "..."` form as files and the wire (`action/wire.rs`), and internally tagged
//!   configuration enums decode as they do from TOML. Formats without it (bincode,
//!   postcard) cannot read those.
//! * **Compact and fast.** Integers take one to nine bytes by value, floats are stored
//!   bit-exact, and there is no intermediate value tree: the million-VDA LHC estate
//!   snapshots to 7.5 MiB in about 20 ms and restores in about 30 ms (`bench/snapshot.sh`,
//!   docs/PERFORMANCE.md).
//! * **Already locked.** CBOR (`ciborium`) would do as well on these points; `rmp-serde`
//!   is already in the workspace's lock file, so the engine gains no new crate.
//! * **Field names, not positions.** Structs are written as maps (`with_struct_map`):
//!   several types skip empty fields when serialized (`skip_serializing_if`), which a
//!   positional encoding cannot round-trip, and a field that is renamed or removed is
//!   reported by name instead of shifting its neighbours.
//! * **Human-readable forms.** The body uses the forms the scenario files use (addresses
//!   and durations as text): the buffered action form is human-readable, so an address
//!   written as four bytes would not read back through it.
//! * Pure Rust, no IO: it builds for wasm32 like the rest of the crate.
//!
//! Bump [`SNAPSHOT_VERSION`] whenever a serialized type of the state changes shape.

mod checksum;
mod error;

use serde::{Deserialize, Serialize};

pub use checksum::checksum;
pub use error::SnapshotError;

use crate::sim::Simulation;

/// The first bytes of every snapshot.
pub const SNAPSHOT_MAGIC: [u8; 8] = *b"SWYDSNAP";

/// The snapshot format this build writes and reads.
pub const SNAPSHOT_VERSION: u32 = 2;

/// Magic, version and checksum.
const HEADER_LEN: usize = 20;

/// The encoded state of a [`Simulation`] at one instant (see the [module doc](self)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    bytes: Vec<u8>,
}

impl Snapshot {
    /// The bytes, header included, as written to a file.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The bytes, header included.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// Size in bytes, header included.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Never true: a snapshot holds at least its header.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

impl AsRef<[u8]> for Snapshot {
    fn as_ref(&self) -> &[u8] {
        &self.bytes
    }
}

impl From<Snapshot> for Vec<u8> {
    fn from(s: Snapshot) -> Vec<u8> {
        s.bytes
    }
}

impl Simulation {
    /// The whole state of this simulation now. Pure: it neither changes the simulation nor
    /// does IO. [`restore`](Self::restore) gives back a simulation with the same future.
    pub fn snapshot(&self) -> Snapshot {
        let mut bytes = Vec::with_capacity(64 * 1024);
        bytes.extend_from_slice(&SNAPSHOT_MAGIC);
        bytes.extend_from_slice(&SNAPSHOT_VERSION.to_le_bytes());
        bytes.extend_from_slice(&[0; 8]);
        let mut body = rmp_serde::Serializer::new(&mut bytes)
            .with_struct_map()
            .with_human_readable();
        if let Err(err) = self.serialize(&mut body) {
            // Writing to memory cannot fail, and every type of the state has a plain
            // MessagePack form (tests snapshot every shipped scenario).
            unreachable!("a simulation always encodes: {err}");
        }
        let sum = checksum(&bytes[HEADER_LEN..]);
        bytes[12..HEADER_LEN].copy_from_slice(&sum.to_le_bytes());
        Snapshot { bytes }
    }

    /// The simulation a [`snapshot`](Self::snapshot) was taken of, as it was then.
    ///
    /// Refuses, without panicking, anything that is not a complete snapshot of this
    /// [`SNAPSHOT_VERSION`]: [`SnapshotError::Version`] for another format,
    /// [`SnapshotError::Decode`] for anything else (not a snapshot, truncated, damaged).
    pub fn restore(bytes: &[u8]) -> Result<Simulation, SnapshotError> {
        let magic = bytes.get(..SNAPSHOT_MAGIC.len());
        if magic != Some(&SNAPSHOT_MAGIC[..]) {
            return Err(SnapshotError::Decode(
                "not a Switchyard snapshot (wrong magic bytes)".into(),
            ));
        }
        let field = |range: core::ops::Range<usize>| {
            bytes
                .get(range)
                .ok_or_else(|| SnapshotError::Decode("truncated header".into()))
        };
        let mut version = [0; 4];
        version.copy_from_slice(field(8..12)?);
        let found = u32::from_le_bytes(version);
        if found != SNAPSHOT_VERSION {
            return Err(SnapshotError::Version {
                found,
                expected: SNAPSHOT_VERSION,
            });
        }
        let mut sum = [0; 8];
        sum.copy_from_slice(field(12..HEADER_LEN)?);
        let body = &bytes[HEADER_LEN..];
        if checksum(body) != u64::from_le_bytes(sum) {
            return Err(SnapshotError::Decode(format!(
                "checksum mismatch: the snapshot is truncated or damaged ({} bytes)",
                bytes.len()
            )));
        }
        let mut de = rmp_serde::Deserializer::from_read_ref(body).with_human_readable();
        Simulation::deserialize(&mut de).map_err(|e| SnapshotError::Decode(e.to_string()))
    }
}

#[cfg(test)]
mod tests;
