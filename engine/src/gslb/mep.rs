//! MEP, event-driven: a direction delivers while its sender is up and it is not cut; the
//! receiver's view flips only at computed instants, never by a per-second loop.
//!
//! * A direction stops delivering at `t`: the last packet was the last health tick ≤ `t`;
//!   the receiver sees the sender DOWN one keep-alive timeout after it, unless delivery
//!   resumes first.
//! * A direction delivers again at `t`: the receiver sees the sender UP at the next health
//!   tick after `t`.
//! * A site that starts has heard nobody (`unknown`): each sender it hears becomes UP at the
//!   next tick; one it does not hear is DOWN one timeout later.
//!
//! Site up/down and link cuts/restores live here; they emit `site.*` and `mep.link` events.

use serde_json::{json, Map, Value};

use super::engine::{ev, pair, GslbEngine};
use super::model::{Dir, Seen, Timer};
use crate::event::Event;
use crate::gslb::config::SiteRole;

impl GslbEngine {
    /// The direction of a timer key (`None` for offers).
    pub(crate) fn dir(&self, key: Timer) -> Option<&Dir> {
        match key {
            Timer::Peer { receiver, sender } => self
                .pp
                .get(usize::from(receiver) * self.np + usize::from(sender)),
            Timer::ChildSees { child } => self
                .children
                .get(usize::from(child))
                .map(|c| &c.sees_parent),
            Timer::ParentSees { child } => self
                .children
                .get(usize::from(child))
                .map(|c| &c.parent_sees),
            Timer::Offer { .. } | Timer::LearningEnds { .. } => None,
        }
    }

    fn dir_mut(&mut self, key: Timer) -> Option<&mut Dir> {
        match key {
            Timer::Peer { receiver, sender } => self
                .pp
                .get_mut(usize::from(receiver) * self.np + usize::from(sender)),
            Timer::ChildSees { child } => self
                .children
                .get_mut(usize::from(child))
                .map(|c| &mut c.sees_parent),
            Timer::ParentSees { child } => self
                .children
                .get_mut(usize::from(child))
                .map(|c| &mut c.parent_sees),
            Timer::Offer { .. } | Timer::LearningEnds { .. } => None,
        }
    }

    /// (sender, receiver) site indexes of a direction key, if it is connected.
    pub(crate) fn ends(&self, key: Timer) -> Option<(u16, u16)> {
        match key {
            Timer::Peer { receiver, sender } => Some((sender, receiver)),
            Timer::ChildSees { child } => {
                let p = self.children.get(usize::from(child))?.current?;
                Some((p, self.child_site(child)))
            }
            Timer::ParentSees { child } => {
                let p = self.children.get(usize::from(child))?.current?;
                Some((self.child_site(child), p))
            }
            Timer::Offer { .. } | Timer::LearningEnds { .. } => None,
        }
    }

    /// Whether packets from site `from` reach site `to` now.
    pub(crate) fn delivers(&self, from: u16, to: u16) -> bool {
        self.is_up(from) && !self.cuts.contains(&(from, to))
    }

    /// The direction key from `sender` to `receiver`, if those sites have a MEP connection.
    pub(crate) fn key_of(&self, sender: u16, receiver: u16) -> Option<Timer> {
        let np = self.np;
        let (s, r) = (usize::from(sender), usize::from(receiver));
        match (s < np, r < np) {
            (true, true) if s != r => Some(Timer::Peer { receiver, sender }),
            (true, false) => {
                let c = super::engine::idx(r - np);
                (self.children.get(r - np)?.current == Some(sender))
                    .then_some(Timer::ChildSees { child: c })
            }
            (false, true) => {
                let c = super::engine::idx(s - np);
                (self.children.get(s - np)?.current == Some(receiver))
                    .then_some(Timer::ParentSees { child: c })
            }
            _ => None,
        }
    }

    fn cancel(&mut self, key: Timer) {
        if let Some(d) = self.dir_mut(key) {
            if let Some((at, _)) = d.pending.take() {
                self.timers.remove(&(at, key));
            }
        }
    }

    /// The receiver has heard nobody on this direction since `t`.
    pub(crate) fn reset_unknown(&mut self, key: Timer, t: u64) {
        self.cancel(key);
        if let Some(d) = self.dir_mut(key) {
            *d = Dir::unknown(t);
        }
    }

    /// Re-plans a direction after what it delivers may have changed at `t` (idempotent).
    pub(crate) fn refresh(&mut self, key: Timer, t: u64) {
        let Some((from, to)) = self.ends(key) else {
            return;
        };
        if !self.is_up(to) {
            return;
        }
        let deliver = self.delivers(from, to);
        let Some(d) = self.dir(key).copied() else {
            return;
        };
        let target = if deliver { Seen::Up } else { Seen::Down };
        if d.seen == target {
            self.cancel(key);
            return;
        }
        if d.pending.is_some_and(|(_, up)| up == deliver) {
            return;
        }
        let h = self.health_ms();
        let at = if deliver {
            (t / h + 1) * h
        } else {
            // Validation keeps the timeout above a tick; the floor guards any other config.
            ((t / h) * h + self.cfg.mep_keepalive_timeout.as_millis()).max(t + 1)
        };
        self.cancel(key);
        if let Some(d) = self.dir_mut(key) {
            d.pending = Some((at, deliver));
        }
        self.timers.insert((at, key));
    }

    /// Applies a due flip; `false` if the timer was stale.
    pub(crate) fn fire(&mut self, key: Timer, at: u64) -> bool {
        let Some(d) = self.dir_mut(key) else {
            return false;
        };
        match d.pending {
            Some((t, up)) if t == at => {
                d.seen = if up { Seen::Up } else { Seen::Down };
                d.since = at;
                d.pending = None;
                true
            }
            _ => false,
        }
    }

    /// Children whose current parent is `p`.
    pub(crate) fn hosted(&self, p: u16) -> Vec<u16> {
        (0..self.children.len())
            .filter(|&c| self.children[c].current == Some(p))
            .map(super::engine::idx)
            .collect()
    }

    /// A site goes down at `t`: its directions stop delivering, it hears nothing.
    pub(crate) fn site_down(&mut self, s: u16, t: u64, out: &mut Vec<Event>) {
        let np = self.np;
        // A child hosts nobody: empty for a child.
        let hosted = self.hosted(s);
        if let Some(site) = self.sites.get_mut(usize::from(s)) {
            site.up = false;
            site.since = t;
        }
        if usize::from(s) < np {
            for q in 0..np {
                let q = super::engine::idx(q);
                if q == s {
                    continue;
                }
                self.refresh(
                    Timer::Peer {
                        receiver: q,
                        sender: s,
                    },
                    t,
                );
                self.reset_unknown(
                    Timer::Peer {
                        receiver: s,
                        sender: q,
                    },
                    t,
                );
            }
            for &c in &hosted {
                self.refresh(Timer::ChildSees { child: c }, t);
                self.reset_unknown(Timer::ParentSees { child: c }, t);
            }
            self.decisions.retain(|(x, _), _| *x != s);
        } else {
            let c = super::engine::idx(usize::from(s) - np);
            self.refresh(Timer::ParentSees { child: c }, t);
            self.reset_unknown(Timer::ChildSees { child: c }, t);
        }
        let names: Vec<&str> = hosted
            .iter()
            .map(|&c| self.name(self.child_site(c)))
            .collect();
        let reason = match self.sites[usize::from(s)].role {
            SiteRole::Parent => "the site stops: it sends no MEP packet and answers no DNS query; its peers and children see it DOWN after the keep-alive timeout",
            SiteRole::Child => "the site stops: it sends no MEP packet; its parent sees it DOWN after the keep-alive timeout",
        };
        let details = json!({
            "children": names,
            "reason": reason,
            "role": role_str(self.sites[usize::from(s)].role),
        });
        out.push(ev(t, self.name(s), "site.down", details));
    }

    /// A site comes back at `t`: its directions deliver again, it starts hearing; a parent
    /// connects to its children, a child is offered to the parents that want it.
    pub(crate) fn site_up(&mut self, s: u16, t: u64, out: &mut Vec<Event>) {
        let np = self.np;
        if let Some(site) = self.sites.get_mut(usize::from(s)) {
            site.up = true;
            site.since = t;
        }
        let role = self.sites[usize::from(s)].role;
        let details = json!({
            "reason": match role {
                SiteRole::Parent => "the site starts: it hears its peers at their next health packet and sees a silent one DOWN after the keep-alive timeout; it connects to its children",
                SiteRole::Child => "the site starts: its parent hears it at its next health packet",
            },
            "role": role_str(role),
        });
        out.push(ev(t, self.name(s), "site.up", details));
        if usize::from(s) < np {
            for q in 0..np {
                let q = super::engine::idx(q);
                if q == s {
                    continue;
                }
                self.refresh(
                    Timer::Peer {
                        receiver: q,
                        sender: s,
                    },
                    t,
                );
                let own = Timer::Peer {
                    receiver: s,
                    sender: q,
                };
                self.reset_unknown(own, t);
                self.refresh(own, t);
            }
            for c in self.hosted(s) {
                self.refresh(Timer::ChildSees { child: c }, t);
                let own = Timer::ParentSees { child: c };
                self.reset_unknown(own, t);
                self.refresh(own, t);
            }
            let away: Vec<u16> = self.kids[usize::from(s)]
                .iter()
                .copied()
                .filter(|&c| self.children[usize::from(c)].current != Some(s))
                .collect();
            if !away.is_empty() {
                let reason = format!(
                    "{} is back: it connects to its children (the request of the original parent has priority)",
                    self.name(s)
                );
                self.offer_to(s, &away, t, &reason, None, out);
            }
        } else {
            let c = super::engine::idx(usize::from(s) - np);
            let own = Timer::ChildSees { child: c };
            self.reset_unknown(own, t);
            self.refresh(own, t);
            self.refresh(Timer::ParentSees { child: c }, t);
            self.retry_for(&[c], t, "the child is back", out);
        }
    }

    /// Cuts (`cut`) or restores MEP packets from `from` to `to` (and back unless `one_way`).
    pub(crate) fn set_cut(
        &mut self,
        from: u16,
        to: u16,
        one_way: bool,
        cut: bool,
        t: u64,
        out: &mut Vec<Event>,
    ) {
        let mut dirs = vec![(from, to)];
        if !one_way {
            dirs.push((to, from));
        }
        for &(s, r) in &dirs {
            if cut {
                self.cuts.insert((s, r));
            } else {
                self.cuts.remove(&(s, r));
            }
            if let Some(key) = self.key_of(s, r) {
                self.refresh(key, t);
            }
        }
        let what = if one_way {
            format!("{} → {}", self.name(from), self.name(to))
        } else {
            format!("{} ↔ {}", self.name(from), self.name(to))
        };
        let reason = if cut {
            format!("MEP packets {what} are lost from now on (cut by an operator)")
        } else {
            format!("MEP packets {what} are delivered again (restored by an operator)")
        };
        let (a, b) = self.link_ends(from, to);
        let e = self.link_event(
            t,
            a,
            b,
            Some((if cut { "cut" } else { "restored" }, reason)),
        );
        out.push(e);
        if !cut {
            let np = self.np;
            let (p, c) = match (usize::from(from) < np, usize::from(to) < np) {
                (true, false) => (from, to),
                (false, true) => (to, from),
                _ => return,
            };
            let child = super::engine::idx(usize::from(c) - np);
            self.retry_pair(p, child, t, "the MEP link to the child is restored", out);
        }
    }

    /// The (a, b) order of a link: a parent before a child; two parents by index.
    pub(crate) fn link_ends(&self, x: u16, y: u16) -> (u16, u16) {
        let np = self.np;
        match (usize::from(x) < np, usize::from(y) < np) {
            (true, true) => pair(x, y),
            (false, true) => (y, x),
            _ => (x, y),
        }
    }

    /// The view of one direction (sender → receiver) for events and views: (delivering,
    /// receiver's view, since).
    pub(crate) fn direction(&self, sender: u16, receiver: u16) -> (bool, Seen, u64) {
        let delivering = self.delivers(sender, receiver);
        match self.key_of(sender, receiver).and_then(|k| self.dir(k)) {
            Some(d) if self.is_up(receiver) => (delivering, d.seen, d.since),
            Some(d) => (delivering, Seen::Unknown, d.since),
            None => (delivering, Seen::Unknown, 0),
        }
    }

    /// A `mep.link` event for the link a-b now.
    pub(crate) fn link_event(
        &self,
        t: u64,
        a: u16,
        b: u16,
        change: Option<(&str, String)>,
    ) -> Event {
        let (ab_del, b_sees, b_since) = self.direction(a, b);
        let (ba_del, a_sees, a_since) = self.direction(b, a);
        let (an, bn) = (self.name(a), self.name(b));
        let timeout = self.cfg.mep_keepalive_timeout;
        let change_kind = change.as_ref().map(|(c, _)| *c);
        let reason = match change {
            Some((_, r)) => r,
            None => {
                let mut parts = Vec::new();
                for (who, whom, seen, since) in
                    [(bn, an, b_sees, b_since), (an, bn, a_sees, a_since)]
                {
                    if since != t {
                        continue;
                    }
                    match seen {
                        Seen::Down => parts.push(format!(
                            "{who} sees {whom} DOWN: no MEP packet for {timeout}"
                        )),
                        Seen::Up => {
                            parts.push(format!("{who} sees {whom} UP: its health packets arrive"))
                        }
                        Seen::Unknown => {}
                    }
                }
                parts.join("; ")
            }
        };
        let mut d = Map::new();
        d.insert("a".into(), Value::from(an));
        d.insert("a_sees_b".into(), Value::from(a_sees.as_str()));
        d.insert("a_to_b".into(), Value::from(ab_del));
        d.insert("b".into(), Value::from(bn));
        d.insert("b_sees_a".into(), Value::from(b_sees.as_str()));
        d.insert("b_to_a".into(), Value::from(ba_del));
        if let Some(c) = change_kind {
            d.insert("change".into(), Value::from(c));
        }
        let kind = if usize::from(b) < self.np {
            "parent_parent"
        } else {
            "parent_child"
        };
        d.insert("kind".into(), Value::from(kind));
        d.insert("reason".into(), Value::from(reason));
        d.insert(
            "status".into(),
            Value::from(status_of(a_sees, b_sees).as_str()),
        );
        ev(t, &format!("{an}-{bn}"), "mep.link", Value::Object(d))
    }
}

/// `"parent"` or `"child"`.
pub(crate) fn role_str(role: SiteRole) -> &'static str {
    match role {
        SiteRole::Parent => "parent",
        SiteRole::Child => "child",
    }
}

/// Link status from the two views: ACTIVE both ways, DOWN both ways, else INACTIVE.
pub(crate) fn status_of(a: Seen, b: Seen) -> super::views::MepStatus {
    use super::views::MepStatus;
    match (a == Seen::Up, b == Seen::Up) {
        (true, true) => MepStatus::Active,
        (false, false) => MepStatus::Down,
        _ => MepStatus::Inactive,
    }
}

impl super::views::MepStatus {
    /// `"ACTIVE"`, `"INACTIVE"` or `"DOWN"`.
    pub fn as_str(self) -> &'static str {
        match self {
            super::views::MepStatus::Active => "ACTIVE",
            super::views::MepStatus::Inactive => "INACTIVE",
            super::views::MepStatus::Down => "DOWN",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::cli::parse_cli;
    use super::*;
    use crate::clock::SimTime;
    use crate::gslb::actions::GslbAction;
    use crate::rng::Rng;
    use crate::step::{Apply, Engine};

    const TOPO: &str = "\
add gslb site P1 10.0.0.1
add gslb site P2 10.0.0.2
add gslb site C1 10.0.1.1 -parentSite P1
set gslb site P1 -backupParentlist P2
";

    fn engine(extra: &str) -> GslbEngine {
        let cfg = parse_cli(&format!("{TOPO}{extra}")).unwrap_or_else(|e| panic!("{e}"));
        GslbEngine::new(&cfg, &Rng::new(1))
    }

    fn cut(from: &str, to: &str, one_way: bool) -> GslbAction {
        GslbAction::MepCut {
            from: from.into(),
            to: to.into(),
            one_way,
        }
    }

    fn restore(from: &str, to: &str, one_way: bool) -> GslbAction {
        GslbAction::MepRestore {
            from: from.into(),
            to: to.into(),
            one_way,
        }
    }

    /// Runs `actions` (at ms) until `until` ms; returns the view flips of the P1-P2 link as
    /// (t, P1 sees P2, P2 sees P1).
    fn flips(extra: &str, actions: &[(u64, GslbAction)], until: u64) -> Vec<(u64, String, String)> {
        let mut e = engine(extra);
        let mut out = Vec::new();
        for (at, a) in actions {
            e.advance(SimTime(*at), &mut out);
            assert!(e.apply(SimTime(*at), a, None, &mut out).is_ok(), "{a:?}");
        }
        e.advance(SimTime(until), &mut out);
        out.iter()
            .filter(|x| {
                x.kind == "mep.link" && x.subject == "P1-P2" && x.details.get("change").is_none()
            })
            .map(|x| {
                (
                    x.t_ms,
                    x.details["a_sees_b"].as_str().unwrap_or("").to_owned(),
                    x.details["b_sees_a"].as_str().unwrap_or("").to_owned(),
                )
            })
            .collect()
    }

    fn f(t: u64, a: &str, b: &str) -> (u64, String, String) {
        (t, a.to_owned(), b.to_owned())
    }

    /// (name, extra CLI, actions at ms, expected flips).
    type Case = (
        &'static str,
        &'static str,
        Vec<(u64, GslbAction)>,
        Vec<(u64, String, String)>,
    );

    #[test]
    fn detection_timing_table() {
        let cases: Vec<Case> = vec![
            (
                "cut on a health tick: DOWN one timeout after that tick",
                "",
                vec![(10_000, cut("P1", "P2", false))],
                vec![f(20_000, "down", "down")],
            ),
            (
                "cut between ticks: the last packet was the tick before",
                "",
                vec![(10_999, cut("P1", "P2", false))],
                vec![f(20_000, "down", "down")],
            ),
            (
                "restored before the timeout: nobody notices",
                "",
                vec![
                    (10_000, cut("P1", "P2", false)),
                    (19_999, restore("P1", "P2", false)),
                ],
                vec![],
            ),
            (
                "restored after DOWN: UP at the next health tick",
                "",
                vec![
                    (10_000, cut("P1", "P2", false)),
                    (25_400, restore("P1", "P2", false)),
                ],
                vec![f(20_000, "down", "down"), f(26_000, "up", "up")],
            ),
            (
                "one way: only the receiver of the cut direction sees DOWN",
                "",
                vec![(10_000, cut("P1", "P2", true))],
                vec![f(20_000, "up", "down")],
            ),
            (
                "a longer keep-alive timeout",
                "set gslb parameter -mepKeepAliveTimeout 20\n",
                vec![(10_500, cut("P2", "P1", false))],
                vec![f(30_000, "down", "down")],
            ),
            (
                "a slower health interval moves the ticks",
                "# switchyard: parameter -healthInterval 3\n",
                vec![
                    (10_000, cut("P1", "P2", false)),
                    (25_000, restore("P1", "P2", false)),
                ],
                vec![f(19_000, "down", "down"), f(27_000, "up", "up")],
            ),
            (
                "a site that starts hears the up peers at the next tick",
                "",
                vec![
                    (10_000, GslbAction::SiteDown { site: "P1".into() }),
                    (30_500, GslbAction::SiteUp { site: "P1".into() }),
                ],
                vec![f(20_000, "unknown", "down"), f(31_000, "up", "up")],
            ),
            (
                "a site that starts sees a silent peer DOWN one timeout later",
                "",
                vec![
                    (5_000, cut("P2", "P1", true)),
                    (6_000, GslbAction::SiteDown { site: "P1".into() }),
                    (30_000, GslbAction::SiteUp { site: "P1".into() }),
                ],
                vec![
                    f(16_000, "unknown", "down"),
                    f(31_000, "unknown", "up"),
                    f(40_000, "down", "up"),
                ],
            ),
            (
                "the sender goes down after a cut: still DOWN one timeout after the cut's tick",
                "",
                vec![
                    (10_000, cut("P1", "P2", true)),
                    (15_500, GslbAction::SiteDown { site: "P1".into() }),
                ],
                vec![f(20_000, "unknown", "down")],
            ),
            (
                "cut again while the restore is pending: nobody sees it UP",
                "",
                vec![
                    (10_000, cut("P1", "P2", false)),
                    (25_400, restore("P1", "P2", false)),
                    (25_700, cut("P1", "P2", false)),
                ],
                vec![f(20_000, "down", "down")],
            ),
        ];
        for (name, extra, actions, want) in cases {
            assert_eq!(flips(extra, &actions, 120_000), want, "{name}");
        }
    }

    #[test]
    fn a_view_never_flips_at_or_before_the_change() {
        // A configuration that validation would refuse (timeout shorter than a tick), built
        // directly: the flip still comes after the cut.
        let mut cfg = parse_cli(TOPO).unwrap_or_else(|e| panic!("{e}"));
        cfg.mep_health_interval = crate::clock::SimDuration::from_secs(5);
        cfg.mep_keepalive_timeout = crate::clock::SimDuration::from_secs(2);
        let mut e = GslbEngine::new(&cfg, &Rng::new(1));
        let mut out = Vec::new();
        e.advance(SimTime(12_000), &mut out);
        assert!(e
            .apply(SimTime(12_000), &cut("P1", "P2", false), None, &mut out)
            .is_ok());
        assert_eq!(e.next_wakeup(), Some(SimTime(12_001)));
        e.advance(SimTime(20_000), &mut out);
        let flips: Vec<(u64, &str)> = out
            .iter()
            .filter(|x| x.kind == "mep.link" && x.details.get("change").is_none())
            .map(|x| (x.t_ms, x.details["a_sees_b"].as_str().unwrap_or("")))
            .collect();
        assert_eq!(flips, [(12_001, "down")]);
    }

    #[test]
    fn a_steady_topology_has_no_pending_work() {
        let mut e = engine("");
        assert_eq!(e.next_wakeup(), None);
        let mut out = Vec::new();
        assert!(e
            .apply(SimTime(1_000), &cut("P1", "P2", false), None, &mut out)
            .is_ok());
        assert_eq!(e.timers.len(), 2, "one flip per direction");
        e.advance(SimTime(60_000), &mut out);
        assert_eq!(e.next_wakeup(), None, "nothing left once both sides know");
    }
}
