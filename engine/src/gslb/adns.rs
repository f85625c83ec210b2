//! ADNS: only parents that are up answer. The answering parent is the up parent nearest the
//! client's location (the first up parent when the client is in none); it applies the
//! domain's method over the services that are up from its own MEP view:
//!
//! * a service is known over MEP to the answering parent when it is local, when its parent
//!   site is up from the answerer's view, or — for a child — when the child's current parent
//!   sees the child up and is the answerer or up from its view (and the child is not
//!   learning);
//! * otherwise a monitored service takes its site's real state, an unmonitored one is DOWN;
//! * least connections and RTT need metrics learned over MEP: while one service up for the
//!   answer is not known over MEP they fall back to round robin.
//!
//! One address per answer (the product's default). Answers are logged as `adns.answered`,
//! coalesced per simulated second, domain, answering parent and answer.

use core::net::{IpAddr, Ipv4Addr};

use serde_json::json;

use super::engine::{ev, GslbEngine, LogKey};
use super::model::{ClientLoc, Seen};
use super::net::{distance, Network};
use super::views::{CandidateView, ResolutionView, ResolveOutcome};
use crate::clock::SimTime;
use crate::event::Event;
use crate::gslb::config::GslbMethod;

/// What [`GslbEngine::answer`] found: the view, the domain index, the log key.
struct Answer {
    view: ResolutionView,
    domain: Option<usize>,
    key: Option<LogKey>,
    /// The service answered (site, service index).
    chosen: Option<(u16, u16)>,
}

/// "1st", "2nd", ... (reasons).
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, x) if x != 11 => "st",
        (2, x) if x != 12 => "nd",
        (3, x) if x != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

impl GslbEngine {
    /// The client locations: configured, or one per parent (`clients-<parent>`,
    /// `198.18.<n>.0/24`, the parent's location).
    pub(crate) fn build_locations(&self) -> Vec<ClientLoc> {
        if !self.cfg.client_locations.is_empty() {
            return self
                .cfg
                .client_locations
                .iter()
                .map(|c| ClientLoc {
                    name: c.name.clone(),
                    network: c.network,
                    location: c.location().to_owned(),
                    rtt: c
                        .rtt_ms
                        .iter()
                        .filter_map(|(site, ms)| self.by_name.get(site).map(|&s| (s, *ms)))
                        .collect(),
                })
                .collect();
        }
        self.sites[..self.np]
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                let third = u8::try_from(i).ok()?;
                let network = Network::new(IpAddr::V4(Ipv4Addr::new(198, 18, third, 0)), 24)?;
                Some(ClientLoc {
                    name: format!("clients-{}", p.name),
                    network,
                    location: p.location.clone(),
                    rtt: Default::default(),
                })
            })
            .collect()
    }

    /// The client location of `ip`: the most specific range containing it (configuration
    /// order on ties).
    pub(crate) fn locate(&self, ip: IpAddr) -> Option<usize> {
        let mut best: Option<(u8, usize)> = None;
        for (i, l) in self.locations.iter().enumerate() {
            if l.network.contains(ip) && best.is_none_or(|(p, _)| l.network.prefix > p) {
                best = Some((l.network.prefix, i));
            }
        }
        best.map(|(_, i)| i)
    }

    /// Model RTT (ms) from site `s` to client location `l`: the override, or 5 ms + 30 ms
    /// per differing location qualifier + a seeded 0..=9 ms for the pair.
    pub(crate) fn rtt_ms(&self, s: u16, l: usize) -> u32 {
        let loc = &self.locations[l];
        if let Some(ms) = loc.rtt.get(&s) {
            return *ms;
        }
        let site = &self.sites[usize::from(s)];
        let d = distance(&site.location, &loc.location);
        let offset = self
            .rng
            .fork(&format!("rtt/{}/{}", site.name, loc.name))
            .below(10);
        5 + 30 * d.min(1000) + u32::try_from(offset).unwrap_or(0)
    }

    /// Connections of service `k` of site `s`: its seeded base (10..=200) plus one per
    /// client an answer sent to it; 0 while the site is down.
    pub(crate) fn connections(&self, s: u16, k: usize) -> u32 {
        let site = &self.sites[usize::from(s)];
        match site.services.get(k) {
            Some(svc) if site.up => svc.base.saturating_add(svc.answers),
            _ => 0,
        }
    }

    /// Service state of site `s` from answering parent `a`: (up for the answer, known over
    /// MEP (metrics available)).
    pub(crate) fn service_state(&self, a: u16, s: u16, monitor: bool) -> (bool, bool) {
        if s == a {
            return (true, true);
        }
        let np = self.np;
        let fallback = (monitor && self.is_up(s), false);
        if usize::from(s) < np {
            return if self.sees(a, s) == Seen::Up {
                (true, true)
            } else {
                fallback
            };
        }
        let child = &self.children[usize::from(s) - np];
        let path = child.current.is_some_and(|cur| {
            child.parent_sees.seen == Seen::Up && (cur == a || self.sees(a, cur) == Seen::Up)
        });
        if !path {
            return fallback;
        }
        if child.learning_until.is_some() {
            // Learning: the MEP state is ignored; the monitor gives the state if bound, else
            // the service stays up.
            return (!monitor || self.is_up(s), false);
        }
        (true, true)
    }

    /// Whether `domain` (any case, trailing dot allowed) is a configured GSLB domain.
    pub fn is_domain(&self, domain: &str) -> bool {
        self.domain_index(domain).is_some()
    }

    fn domain_index(&self, domain: &str) -> Option<usize> {
        let name = domain.trim().trim_end_matches('.');
        self.cfg
            .domains
            .iter()
            .position(|d| d.name.eq_ignore_ascii_case(name))
    }

    /// How a query would be answered now, changing nothing (the resolve panel).
    pub fn preview_resolve(&self, domain: &str, client: IpAddr) -> ResolutionView {
        self.answer(self.now, domain, client).view
    }

    /// Answers a real query at `now`: advances the domain's round robin, counts it (the
    /// answered service gets one more connection), and logs it (`adns.answered`, coalesced
    /// per simulated second, emitted when that second ends).
    pub fn resolve(&mut self, now: SimTime, domain: &str, client: IpAddr) -> ResolutionView {
        let t = now.as_millis().max(self.now);
        let answer = self.answer(t, domain, client);
        if let Some(d) = answer.domain {
            if answer.view.outcome == ResolveOutcome::Answered {
                if let Some(rr) = self.rr.get_mut(d) {
                    *rr = rr.wrapping_add(1);
                }
                self.dns_answered += 1;
                if let Some((s, k)) = answer.chosen {
                    let svc = self.sites[usize::from(s)].services.get_mut(usize::from(k));
                    if let Some(svc) = svc {
                        svc.answers = svc.answers.saturating_add(1);
                    }
                }
            }
        }
        if let Some(key) = answer.key {
            *self.log.entry(key).or_insert(0) += 1;
        }
        answer.view
    }

    /// Emits the logged answers of every second that ended at or before `t`.
    pub(crate) fn flush_log(&mut self, t: u64, out: &mut Vec<Event>) {
        while let Some(entry) = self.log.first_entry() {
            let (sec, ..) = entry.key();
            if (sec + 1) * 1000 > t {
                break;
            }
            let ((sec, domain, by, answer), count) = entry.remove_entry();
            let details = json!({
                "answer": (!answer.is_empty()).then_some(answer.clone()),
                "by": (!by.is_empty()).then_some(by),
                "count": count,
                "from_ms": sec * 1000,
                "outcome": if answer.is_empty() { "unavailable" } else { "answered" },
            });
            out.push(ev(t, &domain, "adns.answered", details));
        }
    }

    /// The whole answer at `t` without changing anything.
    fn answer(&self, t: u64, domain: &str, client: IpAddr) -> Answer {
        let loc = self.locate(client);
        let mut view = ResolutionView {
            domain: domain.to_owned(),
            client: client.to_string(),
            client_location: loc.map(|l| self.locations[l].name.clone()),
            outcome: ResolveOutcome::NotOurs,
            answered_by: None,
            method: None,
            effective_method: None,
            ips: Vec::new(),
            ttl_s: 0,
            reason: String::new(),
            candidates: Vec::new(),
        };
        let Some(d) = self.domain_index(domain) else {
            view.reason = format!("\"{domain}\" is not a GSLB domain of this topology (REFUSED)");
            return Answer {
                view,
                domain: None,
                key: None,
                chosen: None,
            };
        };
        let dc = &self.cfg.domains[d];
        let sec = t / 1000;
        view.method = Some(dc.method);
        view.ttl_s = dc.ttl_s;
        let unavailable_key = |by: &str| Some((sec, dc.name.clone(), by.to_owned(), String::new()));
        let Some((a, why_a)) = self.answering_parent(loc) else {
            view.outcome = ResolveOutcome::Unavailable;
            view.reason = "no parent site is up: nobody answers ADNS queries (SERVFAIL)".into();
            return Answer {
                view,
                domain: Some(d),
                key: unavailable_key(""),
                chosen: None,
            };
        };
        let an = self.name(a).to_owned();
        view.answered_by = Some(an.clone());
        // (candidate, site, up, known, metric)
        let mut rows: Vec<(CandidateView, u16, bool, bool, Option<u32>)> = Vec::new();
        for &(s, k) in &self.domains[d].services {
            let site = &self.sites[usize::from(s)];
            let svc = &site.services[usize::from(k)];
            let (up, known) = self.service_state(a, s, svc.monitor);
            let metric = match dc.method {
                GslbMethod::RoundRobin => None,
                GslbMethod::LeastConnections => known.then(|| self.connections(s, usize::from(k))),
                GslbMethod::StaticProximity => {
                    loc.map(|l| distance(&site.location, &self.locations[l].location))
                }
                GslbMethod::Rtt => loc.filter(|_| known).map(|l| self.rtt_ms(s, l)),
            };
            rows.push((
                CandidateView {
                    site: site.name.clone(),
                    service: svc.name.clone(),
                    ip: svc.answer_ip.to_string(),
                    up,
                    metric: metric.map(f64::from),
                    chosen: false,
                },
                s,
                up,
                known,
                metric,
            ));
        }
        let up: Vec<usize> = (0..rows.len()).filter(|&i| rows[i].2).collect();
        if up.is_empty() {
            view.outcome = ResolveOutcome::Unavailable;
            view.reason = format!(
                "{why_a}; no service of {} is up from {an}'s view (SERVFAIL)",
                dc.name
            );
            view.candidates = rows.into_iter().map(|r| r.0).collect();
            return Answer {
                view,
                domain: Some(d),
                key: unavailable_key(&an),
                chosen: None,
            };
        }
        let rr =
            usize::try_from(self.rr.get(d).copied().unwrap_or(0) % (up.len() as u64)).unwrap_or(0);
        let method_name = dc.method.as_str().replace('_', " ");
        let mut fallback: Option<String> = None;
        if dc.method.is_dynamic() {
            if let Some(&i) = up.iter().find(|&&i| !rows[i].3) {
                let site = rows[i].1;
                let why = if usize::from(site) >= self.np
                    && self.children[usize::from(site) - self.np]
                        .learning_until
                        .is_some()
                {
                    format!("{} is learning after an adoption", self.name(site))
                } else {
                    format!("MEP to {} is DOWN from {an}'s view", self.name(site))
                };
                fallback = Some(format!("{method_name} falls back to round robin: {why}"));
            } else if dc.method == GslbMethod::Rtt && loc.is_none() {
                fallback = Some(
                    "rtt falls back to round robin: the client is in no client location".into(),
                );
            }
        } else if dc.method == GslbMethod::StaticProximity && loc.is_none() {
            fallback = Some(
                "static proximity falls back to round robin: the client is in no client location"
                    .into(),
            );
        }
        let (pick, how) = if fallback.is_some() || dc.method == GslbMethod::RoundRobin {
            let i = up[rr];
            let how = format!(
                "round robin over {} services up from {an}'s view: {} ({} in turn)",
                up.len(),
                rows[i].0.service,
                ordinal(rr + 1)
            );
            (i, how)
        } else {
            let best = up.iter().filter_map(|&i| rows[i].4).min().unwrap_or(0);
            let ties: Vec<usize> = up
                .iter()
                .copied()
                .filter(|&i| rows[i].4 == Some(best))
                .collect();
            let i = if ties.is_empty() {
                up[rr]
            } else {
                ties[rr % ties.len()]
            };
            let loc_name = loc.map_or("", |l| self.locations[l].name.as_str());
            let tie = if ties.len() > 1 {
                format!(" ({} tied: round robin among them)", ties.len())
            } else {
                String::new()
            };
            let how = match dc.method {
                GslbMethod::LeastConnections => format!(
                    "least connections over {} services up from {an}'s view: {} has the fewest ({best}){tie}",
                    up.len(),
                    rows[i].0.service
                ),
                GslbMethod::StaticProximity => format!(
                    "static proximity: {} at {} is nearest to {loc_name} (distance {best}){tie}",
                    rows[i].0.service,
                    rows[i].0.site
                ),
                _ => format!(
                    "rtt: {} has the lowest RTT to {loc_name} in {an}'s metrics ({best} ms){tie}",
                    rows[i].0.service
                ),
            };
            (i, how)
        };
        rows[pick].0.chosen = true;
        let ip = rows[pick].0.ip.clone();
        view.outcome = ResolveOutcome::Answered;
        view.effective_method = Some(if fallback.is_some() {
            GslbMethod::RoundRobin
        } else {
            dc.method
        });
        view.ips = vec![ip.clone()];
        view.reason = match fallback {
            Some(f) => format!("{why_a}; {f}; {how}"),
            None => format!("{why_a}; {how}"),
        };
        view.candidates = rows.into_iter().map(|r| r.0).collect();
        Answer {
            view,
            domain: Some(d),
            key: Some((sec, dc.name.clone(), an, ip)),
            chosen: self.domains[d].services.get(pick).copied(),
        }
    }

    /// The parent that answers a client at location `loc`, and why.
    fn answering_parent(&self, loc: Option<usize>) -> Option<(u16, String)> {
        let up = (0..self.np)
            .map(super::engine::idx)
            .filter(|&p| self.is_up(p));
        match loc {
            Some(l) => {
                let target = &self.locations[l].location;
                let (d, p) = up
                    .map(|p| (distance(&self.sites[usize::from(p)].location, target), p))
                    .min()?;
                Some((
                    p,
                    format!(
                        "{} answers: the up parent nearest to client location {} (distance {d})",
                        self.name(p),
                        self.locations[l].name
                    ),
                ))
            }
            None => {
                let p = up.into_iter().next()?;
                Some((
                    p,
                    format!(
                        "{} answers: the first up parent (the client is in no client location)",
                        self.name(p)
                    ),
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::cli::parse_cli;
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn ordinals() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(ordinal).to_vec();
        assert_eq!(
            got,
            ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]
        );
    }

    #[test]
    fn the_most_specific_location_wins_and_rtt_follows_the_model() {
        let cfg = parse_cli(
            "add gslb site P1 10.0.0.1\n# switchyard: site P1 -location EU.FR\n\
             add gslb site C1 10.0.1.1 -parentSite P1\n\
             # switchyard: clientLocation World 0.0.0.0/0 -location US\n\
             # switchyard: clientLocation France 192.0.2.0/24 -location EU.FR -rtt C1=7\n\
             # switchyard: clientLocation Paris 192.0.2.0/28 -location EU.FR.Paris\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let e = GslbEngine::new(&cfg, &Rng::new(3));
        let name = |ip: [u8; 4]| e.locate(ip.into()).map(|l| e.locations[l].name.clone());
        assert_eq!(name([192, 0, 2, 5]).as_deref(), Some("Paris"));
        assert_eq!(name([192, 0, 2, 100]).as_deref(), Some("France"));
        assert_eq!(name([8, 8, 8, 8]).as_deref(), Some("World"));
        assert_eq!(
            e.locate("2001:db8::1".parse().unwrap_or([0, 0, 0, 0].into())),
            None
        );
        // Child C1 is at EU.FR.C1 (its parent's location + its name).
        assert_eq!(e.sites[1].location, "EU.FR.C1");
        let world = 0;
        let rtt = e.rtt_ms(0, world);
        assert!((95..=104).contains(&rtt), "5 + 30 x 3 + 0..=9: {rtt}");
        assert_eq!(e.rtt_ms(1, 1), 7, "the override");
        assert_eq!(e.rtt_ms(0, world), rtt, "the same every time");
    }
}
