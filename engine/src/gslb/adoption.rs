//! Backup parents and adoption [seed 003]:
//!
//! * A parent that sees another parent DOWN looks up its backup list: if it is the
//!   highest-preference backup it sees up (it counts itself up), it **adopts**: it opens a
//!   connection to each of the down parent's children and sends the list
//!   (`adoption.offered`, reaching the child `adoption_delay` later); otherwise it **defers**
//!   to the preferred backup (`adoption.deferred`: "SiteP3 assumes the child is now SiteP2's").
//! * A child judges a request from its own view and the list: its original parent always
//!   wins (priority); a site not in the list is refused; it refuses a backup while its parent
//!   is up from its view; an orphan accepts; an adopted child migrates to a backup preferred
//!   over its adoptive parent.
//! * A parent retries a child it wants only when that can change something: when the child
//!   lost its parent, came back, or the link to it was restored.

use serde_json::{json, Map, Value};

use super::engine::{ev, GslbEngine};
use super::model::{Decision, Dir, Seen, Timer};
use crate::event::Event;

/// A child's answer to a request.
enum Verdict {
    Accept(String),
    Reject(String),
}

impl GslbEngine {
    /// Parent names of `list`.
    pub(crate) fn names_of(&self, list: &[u16]) -> Vec<String> {
        list.iter().map(|&p| self.name(p).to_owned()).collect()
    }

    /// Parent `x`'s decision about the children of parent `p` (which it sees DOWN): walk
    /// `p`'s backup list in order, skipping sites older than 11.1 build 51; the first that is
    /// `x` itself or up from `x`'s view wins.
    pub(crate) fn decide(&self, x: u16, p: u16) -> Decision {
        for &b in self
            .backups
            .get(usize::from(p))
            .map_or(&[][..], Vec::as_slice)
        {
            if !self.sites[usize::from(b)].version.has_backup_parents() {
                continue;
            }
            if b == x {
                return Decision::Adopt;
            }
            if self.sees(x, b) == Seen::Up {
                return Decision::Defer(b);
            }
        }
        Decision::Nobody
    }

    /// `x`'s view of `p` changed (or `p`'s list did): re-decides about `p`'s children and
    /// about the children of every parent whose list names `y`.
    pub(crate) fn reevaluate(&mut self, x: u16, y: u16, t: u64, out: &mut Vec<Event>) {
        let mut cands = vec![y];
        cands.extend(
            self.backup_of
                .get(usize::from(y))
                .into_iter()
                .flatten()
                .copied(),
        );
        cands.sort_unstable();
        cands.dedup();
        for p in cands {
            if p != x {
                self.evaluate(x, p, t, out);
            }
        }
    }

    /// Re-decides (x about p's children); acts and emits only when the decision changes.
    pub(crate) fn evaluate(&mut self, x: u16, p: u16, t: u64, out: &mut Vec<Event>) {
        let relevant = self.is_up(x)
            && self.sees(x, p) == Seen::Down
            && !self.kids[usize::from(p)].is_empty()
            && self.backups[usize::from(p)].contains(&x);
        let new = relevant.then(|| self.decide(x, p));
        let old = self.decisions.get(&(x, p)).copied();
        if new == old {
            return;
        }
        let Some(decision) = new else {
            self.decisions.remove(&(x, p));
            return;
        };
        self.decisions.insert((x, p), decision);
        let list = self.backups[usize::from(p)].clone();
        let (xn, pn) = (self.name(x).to_owned(), self.name(p).to_owned());
        let ahead: Vec<String> = list
            .iter()
            .take_while(|&&b| b != x)
            .map(|&b| {
                let why = if self.sites[usize::from(b)].version.has_backup_parents() {
                    self.sees(x, b).as_str().to_uppercase()
                } else {
                    format!(
                        "on {} (no backup parents)",
                        self.sites[usize::from(b)].version_text
                    )
                };
                format!("{} {why}", self.name(b))
            })
            .collect();
        let list_text = self.names_of(&list).join(", ");
        match decision {
            Decision::Adopt => {
                let before = if ahead.is_empty() {
                    "it is first in the list".to_owned()
                } else {
                    format!(
                        "the backups ahead of it are not up from its view ({})",
                        ahead.join(", ")
                    )
                };
                let reason = format!(
                    "{xn} sees {pn} DOWN; {pn}'s backup list is [{list_text}] and {before}: {xn} is the highest-preference backup that is up, so it adopts {pn}'s children (connects to each and sends the list)"
                );
                let targets: Vec<u16> = self.kids[usize::from(p)]
                    .iter()
                    .copied()
                    .filter(|&c| self.children[usize::from(c)].current != Some(x))
                    .collect();
                self.offer_to(x, &targets, t, &reason, Some(p), out);
            }
            Decision::Defer(b) => {
                let bn = self.name(b).to_owned();
                let reason = format!(
                    "{xn} sees {pn} DOWN; {pn}'s backup list is [{list_text}] and {bn} is ahead of {xn} and up from its view: {xn} assumes {pn}'s children are now {bn}'s"
                );
                let details = json!({
                    "backups": self.names_of(&list),
                    "children": self.child_names(&self.kids[usize::from(p)]),
                    "down_parent": pn,
                    "preferred": bn,
                    "reason": reason,
                    "view": self.view_of(x, p),
                });
                out.push(ev(t, &xn, "adoption.deferred", details));
            }
            Decision::Nobody => {
                let reason = format!(
                    "{xn} sees {pn} DOWN but no backup in [{list_text}] can adopt from its view ({}): {pn}'s children stay as they are",
                    ahead.join(", ")
                );
                let details = json!({
                    "backups": self.names_of(&list),
                    "children": self.child_names(&self.kids[usize::from(p)]),
                    "down_parent": pn,
                    "preferred": Value::Null,
                    "reason": reason,
                    "view": self.view_of(x, p),
                });
                out.push(ev(t, &xn, "adoption.deferred", details));
            }
        }
    }

    /// Names of children.
    pub(crate) fn child_names(&self, list: &[u16]) -> Vec<String> {
        list.iter()
            .map(|&c| self.name(self.child_site(c)).to_owned())
            .collect()
    }

    /// `x`'s view of `p` and of each of `p`'s backups (`self` for itself).
    fn view_of(&self, x: u16, p: u16) -> Value {
        let mut m = Map::new();
        let list = &self.backups[usize::from(p)];
        for &s in core::iter::once(&p).chain(list) {
            let v = if s == x {
                "self"
            } else {
                self.sees(x, s).as_str()
            };
            m.insert(self.name(s).to_owned(), Value::from(v));
        }
        Value::Object(m)
    }

    /// Whether `x` and child `c` can open a connection now (both up, both directions
    /// delivering).
    pub(crate) fn reachable(&self, x: u16, c: u16) -> bool {
        let cs = self.child_site(c);
        self.delivers(x, cs) && self.delivers(cs, x)
    }

    /// Whether parent `x` wants child `c`: its own child, or a child of a parent it adopts.
    pub(crate) fn wants(&self, x: u16, c: u16) -> bool {
        let orig = self.children[usize::from(c)].original;
        self.is_up(x) && (orig == x || self.decisions.get(&(x, orig)) == Some(&Decision::Adopt))
    }

    /// `x` opens connections to `targets` (those it can reach and has no request in flight
    /// to) and emits `adoption.offered`. For a decision (`down` set) the event is emitted
    /// even when nothing is sent; for a retry only when something is.
    pub(crate) fn offer_to(
        &mut self,
        x: u16,
        targets: &[u16],
        t: u64,
        reason: &str,
        down: Option<u16>,
        out: &mut Vec<Event>,
    ) {
        let at = t + self.cfg.adoption_delay.as_millis();
        let mut sent = Vec::new();
        let mut unreachable = Vec::new();
        for &c in targets {
            if self.pending.contains(&(x, c)) {
                continue;
            }
            if self.reachable(x, c) {
                self.pending.insert((x, c));
                self.timers.insert((
                    at,
                    Timer::Offer {
                        parent: x,
                        child: c,
                    },
                ));
                sent.push(c);
            } else {
                unreachable.push(c);
            }
        }
        if sent.is_empty() && down.is_none() {
            return;
        }
        let list_of = |c: u16| self.children[usize::from(c)].original;
        let list_parent = down.or_else(|| targets.first().map(|&c| list_of(c)));
        let backups = list_parent
            .map(|p| self.names_of(&self.backups[usize::from(p)]))
            .unwrap_or_default();
        let details = json!({
            "arrives_ms": at,
            "backups": backups,
            "children": self.child_names(&sent),
            "down_parent": down.map(|p| self.name(p).to_owned()),
            "reason": reason,
            "unreachable": self.child_names(&unreachable),
            "view": down.map_or(Value::Null, |p| self.view_of(x, p)),
        });
        out.push(ev(t, self.name(x), "adoption.offered", details));
    }

    /// Every parent that wants one of `children`, has no request in flight and can reach it,
    /// sends one (a retry that can change something).
    pub(crate) fn retry_for(&mut self, children: &[u16], t: u64, why: &str, out: &mut Vec<Event>) {
        for x in 0..self.np {
            let x = super::engine::idx(x);
            let list: Vec<u16> = children
                .iter()
                .copied()
                .filter(|&c| {
                    self.wants(x, c)
                        && self.children[usize::from(c)].current != Some(x)
                        && !self.pending.contains(&(x, c))
                        && self.reachable(x, c)
                })
                .collect();
            if !list.is_empty() {
                let reason = format!(
                    "{} wants {} and retries its connection: {why}",
                    self.name(x),
                    self.child_names(&list).join(", ")
                );
                self.offer_to(x, &list, t, &reason, None, out);
            }
        }
    }

    /// Parent `x` retries child `c` if it wants it and can now reach it.
    pub(crate) fn retry_pair(&mut self, x: u16, c: u16, t: u64, why: &str, out: &mut Vec<Event>) {
        if self.wants(x, c)
            && self.children[usize::from(c)].current != Some(x)
            && !self.pending.contains(&(x, c))
            && self.reachable(x, c)
        {
            let reason = format!(
                "{} wants {} and retries its connection: {why}",
                self.name(x),
                self.name(self.child_site(c))
            );
            self.offer_to(x, &[c], t, &reason, None, out);
        }
    }

    /// A child sees its current parent DOWN: it closes the connection and has no parent.
    pub(crate) fn orphan(&mut self, c: u16, t: u64, out: &mut Vec<Event>) {
        let Some(p) = self.children[usize::from(c)].current else {
            return;
        };
        self.reset_unknown(Timer::ChildSees { child: c }, t);
        self.reset_unknown(Timer::ParentSees { child: c }, t);
        let cs = self.child_site(c);
        self.cancel_learning(c);
        let child = &mut self.children[usize::from(c)];
        child.current = None;
        if let Some(site) = self.sites.get_mut(usize::from(cs)) {
            site.since = t;
        }
        let child = &self.children[usize::from(c)];
        let (cn, pn) = (self.name(cs).to_owned(), self.name(p).to_owned());
        let reason = format!(
            "{cn} sees its parent {pn} DOWN (no MEP packet for {}): it closes the connection and waits for its original parent or a backup from the list it holds",
            self.cfg.mep_keepalive_timeout
        );
        let details = json!({
            "backups": self.names_of(&child.backups),
            "original_parent": self.name(child.original),
            "parent": pn,
            "reason": reason,
        });
        out.push(ev(t, &cn, "child.orphaned", details));
    }

    /// A request of `x` reaches child `c` at `t`: the child decides.
    pub(crate) fn arrive(&mut self, x: u16, c: u16, t: u64, out: &mut Vec<Event>) {
        self.pending.remove(&(x, c));
        let cs = self.child_site(c);
        let child = &self.children[usize::from(c)];
        if child.current == Some(x) {
            return;
        }
        let (xn, cn) = (self.name(x).to_owned(), self.name(cs).to_owned());
        let orig = child.original;
        let on = self.name(orig).to_owned();
        if !self.reachable(x, c) || !self.wants(x, c) {
            let reason = if !self.is_up(x) {
                format!("{xn} went down before its connection to {cn} was open")
            } else if !self.is_up(cs) {
                format!("{cn} is down: {xn}'s connection fails")
            } else if !self.reachable(x, c) {
                format!("MEP packets between {xn} and {cn} are lost: the connection fails")
            } else {
                format!("{xn} withdrew: it no longer adopts {on}'s children")
            };
            let details = json!({"original_parent": on, "parent": xn, "reason": reason});
            out.push(ev(t, &cn, "adoption.failed", details));
            return;
        }
        let list = self.backups[usize::from(orig)].clone();
        let list_text = self.names_of(&list).join(", ");
        let rank = |p: u16| list.iter().position(|&b| b == p).unwrap_or(usize::MAX);
        let current = child.current;
        let view = current.map(|p| (p, child.sees_parent.seen));
        let verdict = if x == orig {
            Verdict::Accept(format!(
                "{xn} is {cn}'s original parent: its request has priority"
            ))
        } else if !list.contains(&x) {
            Verdict::Reject(format!("{xn} is not in {on}'s backup list [{list_text}]"))
        } else if !self.sites[usize::from(cs)].version.has_backup_parents() {
            Verdict::Reject(format!(
                "{cn} runs {}: backup parents need 11.1 build 51 or later",
                self.sites[usize::from(cs)].version_text
            ))
        } else {
            match current {
                None => Verdict::Accept(format!(
                    "{cn} has no parent ({on} is DOWN from its view) and {xn} is in {on}'s backup list [{list_text}]"
                )),
                Some(b) if b == orig => Verdict::Reject(format!(
                    "its parent {on} is still up from {cn}'s point of view"
                )),
                Some(b) if rank(x) < rank(b) => Verdict::Accept(format!(
                    "{xn} is preferred over {} in {on}'s backup list [{list_text}]",
                    self.name(b)
                )),
                Some(b) => Verdict::Reject(format!(
                    "its adoptive parent {} is up from its view and preferred over {xn} in {on}'s backup list [{list_text}]",
                    self.name(b)
                )),
            }
        };
        let mut view_map = Map::new();
        if let Some((p, seen)) = view {
            view_map.insert(self.name(p).to_owned(), Value::from(seen.as_str()));
        }
        match verdict {
            Verdict::Reject(reason) => {
                self.rejections += 1;
                let details = json!({
                    "backups": self.names_of(&list),
                    "current": current.map(|p| self.name(p).to_owned()),
                    "offered_by": xn,
                    "original_parent": on,
                    "reason": reason,
                    "view": Value::Object(view_map),
                });
                out.push(ev(t, &cn, "adoption.rejected", details));
            }
            Verdict::Accept(reason) => {
                if x != orig {
                    self.adoptions += 1;
                }
                self.connect(x, c, t);
                let learning = self.children[usize::from(c)].learning_until;
                match current {
                    None => {
                        let details = json!({
                            "backups": self.names_of(&list),
                            "learning_until_ms": learning,
                            "original_parent": on,
                            "parent": xn,
                            "reason": reason,
                        });
                        out.push(ev(t, &cn, "adoption.accepted", details));
                    }
                    Some(b) => {
                        let details = json!({
                            "back_to_original": x == orig,
                            "backups": self.names_of(&list),
                            "from": self.name(b),
                            "learning_until_ms": learning,
                            "original_parent": on,
                            "reason": reason,
                            "to": xn,
                            "view": Value::Object(view_map),
                        });
                        out.push(ev(t, &cn, "child.migrated", details));
                    }
                }
            }
        }
    }

    /// Child `c` now belongs to `x`: a fresh connection, seen up both ways, the list.
    fn connect(&mut self, x: u16, c: u16, t: u64) {
        self.cancel_child(c);
        self.cancel_learning(c);
        let learning = self.cfg.learning_time.as_millis();
        let cs = self.child_site(c);
        let list = self.backups[usize::from(self.children[usize::from(c)].original)].clone();
        let child = &mut self.children[usize::from(c)];
        child.current = Some(x);
        child.sees_parent = Dir::up(t);
        child.parent_sees = Dir::up(t);
        child.backups = list;
        child.learning_until = (x != child.original && learning > 0).then_some(t + learning);
        if let Some(until) = child.learning_until {
            self.timers
                .insert((until, Timer::LearningEnds { child: c }));
        }
        if let Some(site) = self.sites.get_mut(usize::from(cs)) {
            site.since = t;
        }
    }

    /// Ends child `c`'s learning early (it left its adoptive parent).
    fn cancel_learning(&mut self, c: u16) {
        if let Some(until) = self.children[usize::from(c)].learning_until.take() {
            self.timers
                .remove(&(until, Timer::LearningEnds { child: c }));
        }
    }

    /// Child `c`'s learning time is over at `t`: its MEP state and metrics count again.
    pub(crate) fn learning_ends(&mut self, c: u16, t: u64, out: &mut Vec<Event>) {
        let child = &mut self.children[usize::from(c)];
        if child.learning_until != Some(t) {
            return;
        }
        child.learning_until = None;
        let parent = child.current.map(|p| self.name(p).to_owned());
        let cn = self.name(self.child_site(c)).to_owned();
        let reason = format!(
            "the learning time ({}) of {cn}'s services is over: their MEP state and metrics count again",
            self.cfg.learning_time
        );
        out.push(ev(
            t,
            &cn,
            "child.learning_ended",
            json!({"parent": parent, "reason": reason}),
        ));
    }

    /// Drops the pending flips of child `c`'s connection.
    fn cancel_child(&mut self, c: u16) {
        for key in [
            Timer::ChildSees { child: c },
            Timer::ParentSees { child: c },
        ] {
            if let Some(d) = self.dir(key).copied() {
                if let Some((at, _)) = d.pending {
                    self.timers.remove(&(at, key));
                }
            }
        }
    }
}
