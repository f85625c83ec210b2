//! Events in PostgreSQL's binary `COPY` format: the server stores each field as sent, with no
//! text to parse (no CSV quoting of the JSON details, no digits to read for the numbers).
//!
//! The format: a signature and two 32-bit words (flags, header extension length); then per
//! row a 16-bit field count and, per field, a 32-bit length (−1 for NULL) and the bytes
//! (`bigint` as 8 big-endian bytes, `text` as its UTF-8); then a 16-bit −1.

use engine::Event;

/// The binary COPY signature, then flags (no OIDs) and an empty header extension.
const HEADER: &[u8] = b"PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0";
/// The columns of a row: run_id, seq, t_ms, engine, subject, kind, details, actor.
const FIELDS: i16 = 8;
/// The trailer: a field count of −1.
const TRAILER: [u8; 2] = (-1i16).to_be_bytes();

/// The `COPY` statement the payloads of [`binary_rows`] go with.
pub const STATEMENT: &str =
    "COPY events (run_id, seq, t_ms, engine, subject, kind, details, actor) \
     FROM STDIN (FORMAT binary)";

/// `events`, numbered from `first_seq`, as one binary `COPY` payload of the `events` table.
pub fn binary_rows(run_id: i64, first_seq: i64, events: &[Event]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER.len() + events.len() * 224 + TRAILER.len());
    out.extend_from_slice(HEADER);
    let mut details = Vec::with_capacity(256);
    for (i, e) in events.iter().enumerate() {
        out.extend_from_slice(&FIELDS.to_be_bytes());
        bigint(&mut out, run_id);
        bigint(&mut out, first_seq.saturating_add(i as i64));
        bigint(&mut out, super::super::to_i64(e.t_ms));
        text(&mut out, e.engine.as_str());
        text(&mut out, &e.subject);
        text(&mut out, &e.kind);
        details.clear();
        // Writing JSON into memory cannot fail; an empty object stands in if it ever did.
        if serde_json::to_writer(&mut details, &e.details).is_err() {
            details.clear();
            details.extend_from_slice(b"{}");
        }
        field(&mut out, &details);
        match e.actor.as_deref() {
            Some(actor) => text(&mut out, actor),
            None => out.extend_from_slice(&(-1i32).to_be_bytes()),
        }
    }
    out.extend_from_slice(&TRAILER);
    out
}

fn bigint(out: &mut Vec<u8>, value: i64) {
    out.extend_from_slice(&8i32.to_be_bytes());
    out.extend_from_slice(&value.to_be_bytes());
}

fn text(out: &mut Vec<u8>, value: &str) {
    field(out, value.as_bytes());
}

fn field(out: &mut Vec<u8>, bytes: &[u8]) {
    // A field is at most 1 GB in PostgreSQL; no event comes near i32::MAX bytes.
    let len = i32::try_from(bytes.len()).unwrap_or(i32::MAX);
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(bytes);
}
