//! The placement index of one published application: a min segment tree over the data
//! collectors' view of the servers without IP-range rules (packed `(load << 32) | host_id`,
//! so the minimum is the least-loaded server with ties to the lowest host id), plus the few
//! IP-restricted servers, scanned linearly for each client address.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use serde::{Deserialize, Serialize};

/// No candidate.
pub(crate) const INF: u64 = u64::MAX;

/// Why a server publishing the application is (not) a candidate.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Status {
    /// Up or starting, known to its zone's collector, below 10000.
    Candidate = 0,
    /// Down, or unknown to the collector (unreachable).
    Down = 1,
    /// Its zone has no data collector.
    NoCollector = 2,
    /// The collector holds 10000 for it.
    Full = 3,
}

/// Packs a load and a host id into one comparable key.
pub(crate) fn key(load: u32, host_id: u32) -> u64 {
    (u64::from(load) << 32) | u64::from(host_id)
}

/// The load of a packed key.
pub(crate) fn key_load(k: u64) -> u32 {
    // The high half is a load index, at most 10000.
    (k >> 32) as u32
}

/// A complete binary tree of minimums over `n` leaves.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct MinTree {
    cap: usize,
    nodes: Vec<u64>,
}

impl MinTree {
    pub(crate) fn new(n: usize) -> MinTree {
        let cap = n.max(1).next_power_of_two();
        MinTree {
            cap,
            nodes: vec![INF; 2 * cap],
        }
    }

    pub(crate) fn set(&mut self, i: usize, v: u64) {
        let mut p = self.cap + i;
        if p >= self.nodes.len() || self.nodes[p] == v {
            return;
        }
        self.nodes[p] = v;
        while p > 1 {
            p /= 2;
            let m = self.nodes[2 * p].min(self.nodes[2 * p + 1]);
            if self.nodes[p] == m {
                break;
            }
            self.nodes[p] = m;
        }
    }

    pub(crate) fn min(&self) -> (usize, u64) {
        let v = self.nodes[1];
        if v == INF {
            return (usize::MAX, INF);
        }
        let mut p = 1;
        while p < self.cap {
            p = if self.nodes[2 * p] == v {
                2 * p
            } else {
                2 * p + 1
            };
        }
        (p - self.cap, v)
    }

    /// The `k` smallest finite leaves, smallest first.
    pub(crate) fn smallest(&self, k: usize) -> Vec<(usize, u64)> {
        let mut out = Vec::with_capacity(k);
        let mut heap = BinaryHeap::new();
        if self.nodes[1] != INF {
            heap.push(Reverse((self.nodes[1], 1usize)));
        }
        while let Some(Reverse((v, p))) = heap.pop() {
            if out.len() >= k {
                break;
            }
            if p >= self.cap {
                out.push((p - self.cap, v));
                continue;
            }
            for c in [2 * p, 2 * p + 1] {
                if self.nodes[c] != INF {
                    heap.push(Reverse((self.nodes[c], c)));
                }
            }
        }
        out
    }
}

/// The placement index of one application.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct AppIndex {
    /// Servers publishing the application (indexes), by position.
    pub servers: Vec<u32>,
    /// Positions whose server or application evaluator has an IP-range rule.
    pub restricted: Vec<u32>,
    is_restricted: Vec<bool>,
    status: Vec<Status>,
    keys: Vec<u64>,
    /// Servers per [`Status`].
    pub counts: [u32; 4],
    tree: MinTree,
}

/// The outcome of a search for the event: the lowest candidates and the exclusions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Survey {
    /// Up to five (position, key), lowest first.
    pub top: Vec<(usize, u64)>,
    /// Candidates for this client.
    pub considered: u32,
    /// Excluded: down, no collector, full, outside the IP ranges.
    pub down: u32,
    pub no_collector: u32,
    pub full: u32,
    pub ip_range: u32,
}

impl AppIndex {
    pub(crate) fn new(servers: Vec<u32>, restricted: Vec<bool>) -> AppIndex {
        let n = servers.len();
        let list = (0..n)
            .filter(|i| restricted[*i])
            .filter_map(|i| u32::try_from(i).ok())
            .collect();
        AppIndex {
            servers,
            restricted: list,
            is_restricted: restricted,
            status: vec![Status::Down; n],
            keys: vec![INF; n],
            counts: [0, u32::try_from(n).unwrap_or(u32::MAX), 0, 0],
            tree: MinTree::new(n),
        }
    }

    /// Sets position `pos`: its status and (for a candidate) its key.
    pub(crate) fn set(&mut self, pos: usize, status: Status, k: u64) {
        let Some(old) = self.status.get(pos).copied() else {
            return;
        };
        let k = if status == Status::Candidate { k } else { INF };
        if old == status && self.keys[pos] == k {
            // Nothing changes: the counts and the tree stay as they are.
            return;
        }
        self.counts[old as usize] -= 1;
        self.counts[status as usize] += 1;
        self.status[pos] = status;
        self.keys[pos] = k;
        let leaf = if self.is_restricted[pos] { INF } else { k };
        self.tree.set(pos, leaf);
    }

    /// The lowest candidate for a client that `admits` lets through (IP ranges of the
    /// restricted positions): (position, key).
    pub(crate) fn choose(&self, admits: impl Fn(usize) -> bool) -> Option<(usize, u64)> {
        let (mut best_pos, mut best) = self.tree.min();
        for &p in &self.restricted {
            let p = p as usize;
            let k = self.keys[p];
            if k < best && admits(p) {
                best = k;
                best_pos = p;
            }
        }
        (best != INF).then_some((best_pos, best))
    }

    /// The five lowest candidates and the exclusion counts, for the placement event.
    pub(crate) fn survey(&self, admits: impl Fn(usize) -> bool) -> Survey {
        let mut top = self.tree.smallest(5);
        let mut ip_range = 0;
        for &p in &self.restricted {
            let p = p as usize;
            if self.status[p] != Status::Candidate {
                continue;
            }
            if admits(p) {
                top.push((p, self.keys[p]));
            } else {
                ip_range += 1;
            }
        }
        top.sort_unstable_by_key(|(_, k)| *k);
        top.truncate(5);
        Survey {
            top,
            // Every candidate but those the client's address keeps out.
            considered: self.counts[Status::Candidate as usize] - ip_range,
            down: self.counts[Status::Down as usize],
            no_collector: self.counts[Status::NoCollector as usize],
            full: self.counts[Status::Full as usize],
            ip_range,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_min_and_smallest() {
        let mut t = MinTree::new(5);
        assert_eq!(t.min().1, INF);
        for (i, v) in [(0, 50), (1, 20), (2, 90), (3, 20), (4, 10)] {
            t.set(i, key(v, i as u32 + 1));
        }
        assert_eq!(t.min(), (4, key(10, 5)));
        let s: Vec<usize> = t.smallest(3).into_iter().map(|(i, _)| i).collect();
        assert_eq!(s, [4, 1, 3]);
        t.set(4, INF);
        assert_eq!(t.min(), (1, key(20, 2)));
    }

    /// A small deterministic sequence (no RNG crate needed): xorshift.
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn keys_order_by_load_then_host_id() {
        assert_eq!(key(0x64, 7), 0x0000_0064_0000_0007);
        assert_eq!(key_load(key(10_000, u32::MAX)), 10_000);
        assert_eq!(key_load(key(1, 0)), 1);
        assert!(key(100, 9) < key(101, 1), "the lower load first");
        assert!(key(100, 1) < key(100, 2), "ties to the lower host id");
    }

    #[test]
    fn the_tree_agrees_with_a_sort_under_updates() {
        // Sizes around powers of two; every update (new key, back to INF, unchanged) is
        // followed by a comparison with the naive answer.
        let mut state = 0x9e37_79b9_7f4a_7c15;
        for n in 1..=9usize {
            let mut tree = MinTree::new(n);
            let mut naive = vec![INF; n];
            for _ in 0..60 {
                let i = (next(&mut state) % n as u64) as usize;
                let v = match next(&mut state) % 4 {
                    0 => INF,
                    1 => naive[i],
                    _ => key((next(&mut state) % 50) as u32, i as u32 + 1),
                };
                tree.set(i, v);
                naive[i] = v;
                let mut sorted: Vec<(usize, u64)> = naive
                    .iter()
                    .copied()
                    .enumerate()
                    .filter(|(_, v)| *v != INF)
                    .collect();
                sorted.sort_by_key(|(i, v)| (*v, *i));
                let want_min = sorted.first().copied().unwrap_or((usize::MAX, INF));
                assert_eq!(tree.min(), want_min, "n = {n}, {naive:?}");
                for k in [0, 1, 2, 5, n + 1] {
                    let want: Vec<(usize, u64)> = sorted.iter().copied().take(k).collect();
                    assert_eq!(tree.smallest(k), want, "n = {n}, k = {k}, {naive:?}");
                }
            }
        }
    }

    #[test]
    fn the_minimum_at_either_end_and_a_leaf_beyond_the_tree() {
        let mut t = MinTree::new(4);
        t.set(0, key(1, 1));
        t.set(3, key(2, 4));
        assert_eq!(t.min(), (0, key(1, 1)));
        t.set(0, INF);
        assert_eq!(t.min(), (3, key(2, 4)));
        // A position beyond the tree changes nothing.
        t.set(4, key(0, 9));
        t.set(1_000, key(0, 9));
        assert_eq!(t.min(), (3, key(2, 4)));
        assert_eq!(t.smallest(9), vec![(3, key(2, 4))]);
        let one = MinTree::new(0);
        assert_eq!(one.min(), (usize::MAX, INF));
        assert!(one.smallest(3).is_empty());
    }

    #[test]
    fn survey_counts_every_exclusion_and_lists_the_lowest() {
        // Positions 0..=7; 1, 4, 6 and 7 are IP-restricted.
        let restricted = vec![false, true, false, false, true, false, true, true];
        let mut a = AppIndex::new((0..8).collect(), restricted);
        assert_eq!(a.counts, [0, 8, 0, 0]);
        a.set(0, Status::Candidate, key(300, 1));
        a.set(1, Status::Candidate, key(100, 2)); // restricted, admitted below
        a.set(2, Status::Candidate, key(200, 3));
        a.set(3, Status::Full, key(10_000, 4));
        a.set(4, Status::Candidate, key(50, 5)); // restricted, refused below
        a.set(5, Status::NoCollector, key(0, 6));
        a.set(6, Status::Down, key(0, 7)); // restricted, not a candidate
        a.set(7, Status::Candidate, key(400, 8)); // restricted, admitted below
        assert_eq!(a.counts, [5, 1, 1, 1]);
        let admits = |p: usize| p != 4;
        let s = a.survey(admits);
        assert_eq!(
            s,
            Survey {
                top: vec![
                    (1, key(100, 2)),
                    (2, key(200, 3)),
                    (0, key(300, 1)),
                    (7, key(400, 8))
                ],
                considered: 4,
                down: 1,
                no_collector: 1,
                full: 1,
                ip_range: 1,
            }
        );
        assert_eq!(a.choose(admits), Some((1, key(100, 2))));
        assert_eq!(a.choose(|_| true), Some((4, key(50, 5))));
        assert_eq!(a.choose(|_| false), Some((2, key(200, 3))));
        // A candidate that turns full leaves the tree; one that comes back returns.
        a.set(2, Status::Full, key(10_000, 3));
        assert_eq!(a.counts, [4, 1, 1, 2]);
        assert_eq!(a.choose(|_| false), Some((0, key(300, 1))));
        a.set(0, Status::Down, INF);
        assert_eq!(a.choose(|_| false), None);
        let s = a.survey(|_| false);
        assert_eq!((s.considered, s.ip_range, s.down, s.full), (0, 3, 2, 2));
        assert!(s.top.is_empty());
        a.set(2, Status::Candidate, key(150, 3));
        assert_eq!(a.choose(|_| false), Some((2, key(150, 3))));
        // Beyond the index: ignored.
        a.set(8, Status::Candidate, key(1, 99));
        assert_eq!(a.counts, [4, 2, 1, 1]);
    }

    #[test]
    fn survey_keeps_the_five_lowest() {
        let mut a = AppIndex::new(
            (0..7).collect(),
            vec![false, false, false, true, false, false, true],
        );
        for p in 0..7u32 {
            a.set(p as usize, Status::Candidate, key(100 * (7 - p), p + 1));
        }
        let s = a.survey(|_| true);
        let order: Vec<usize> = s.top.iter().map(|(p, _)| *p).collect();
        assert_eq!(order, [6, 5, 4, 3, 2]);
        assert_eq!((s.considered, s.ip_range), (7, 0));
    }

    #[test]
    fn restricted_positions_are_scanned() {
        let mut a = AppIndex::new(vec![0, 1, 2], vec![false, true, false]);
        a.set(0, Status::Candidate, key(500, 1));
        a.set(1, Status::Candidate, key(100, 2));
        a.set(2, Status::Full, key(10_000, 3));
        assert_eq!(a.choose(|_| true).map(|c| c.0), Some(1));
        assert_eq!(a.choose(|_| false).map(|c| c.0), Some(0));
        let s = a.survey(|_| false);
        assert_eq!((s.considered, s.ip_range, s.full), (1, 1, 1));
        assert_eq!(a.counts, [2, 0, 0, 1]);
    }
}
