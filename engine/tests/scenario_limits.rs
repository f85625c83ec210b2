//! The size limits of a scenario (`engine::scenario::limits`): each refused at the first
//! element past it with `file:line: field: at most N`, before anything else is checked; the
//! limit itself accepted where it is cheap to try.

use engine::scenario::limits::*;
use engine::Scenario;

const HEADER: &str = "[scenario]\nname = \"big\"\n\n";

/// `n` copies of a table `header` (e.g. `[[core.heartbeats]]`) whose body `body(i)` makes.
fn tables(header: &str, n: usize, body: impl Fn(usize) -> String) -> String {
    let mut out = String::new();
    for i in 0..n {
        out.push_str(header);
        out.push('\n');
        out.push_str(&body(i));
        out.push_str("\n\n");
    }
    out
}

/// The 1-based line of the `k`-th (0-based) occurrence of `header` in `src`.
fn line_of(src: &str, header: &str, k: usize) -> usize {
    src.lines()
        .enumerate()
        .filter(|(_, l)| l.trim() == header)
        .nth(k)
        .map(|(i, _)| i + 1)
        .expect("header present")
}

struct Case {
    what: &'static str,
    src: String,
    /// The table whose occurrence `k` the error points at (or into).
    header: &'static str,
    k: usize,
    /// Lines from that header to the reported line (0: the header itself).
    offset: usize,
    field: String,
    message: String,
}

fn heartbeat(i: usize) -> String {
    format!("id = \"hb{i}\"\ninterval = \"10s\"")
}

fn group(i: usize) -> String {
    format!(
        "name = \"g{i}\"\nmode = \"dns\"\nzones = [\"z\"]\nmin_nodes = 1\nmax_nodes = 2\n\
         watch_time_min = 3\ncooldown_min = 10\ndrain_timeout_min = 10\nttl_s = 60\nthresholds = []"
    )
}

fn server(i: usize) -> String {
    format!("host = \"XA-{i}\"\nzone = \"z\"\napps = [\"Word\"]")
}

fn pool(i: usize) -> String {
    format!("prefix = \"P{i}-\"\ncount = 20000\nkind = \"multi_session\"\ndelivery_group = \"dg\"")
}

fn storm(_: usize) -> String {
    "at = \"1m\"\nkind = \"logon_storm\"\nusers = 100000\nover = \"1m\"".to_owned()
}

fn cases() -> Vec<Case> {
    let one_location = "[[lhc.resource_locations]]\nid = \"rl\"\nname = \"RL\"\n\n";
    vec![
        Case {
            what: "heartbeats",
            src: tables("[[core.heartbeats]]", MAX_HEARTBEATS + 1, heartbeat),
            header: "[[core.heartbeats]]",
            k: MAX_HEARTBEATS,
            offset: 0,
            field: format!("core.heartbeats[{MAX_HEARTBEATS}]"),
            message: format!("at most {MAX_HEARTBEATS} heartbeats (got {})", MAX_HEARTBEATS + 1),
        },
        Case {
            what: "autoscale groups",
            src: tables("[[autoscale.groups]]", MAX_AUTOSCALE_GROUPS + 1, group),
            header: "[[autoscale.groups]]",
            k: MAX_AUTOSCALE_GROUPS,
            offset: 0,
            field: format!("autoscale.groups[{MAX_AUTOSCALE_GROUPS}]"),
            message: format!(
                "at most {MAX_AUTOSCALE_GROUPS} autoscale groups (got {})",
                MAX_AUTOSCALE_GROUPS + 1
            ),
        },
        Case {
            what: "load-managed servers",
            src: tables("[[lms.servers]]", MAX_LMS_SERVERS + 1, server),
            header: "[[lms.servers]]",
            k: MAX_LMS_SERVERS,
            offset: 0,
            field: format!("lms.servers[{MAX_LMS_SERVERS}]"),
            message: format!("at most {MAX_LMS_SERVERS} servers (got {})", MAX_LMS_SERVERS + 1),
        },
        Case {
            what: "VDAs in the estate",
            // 101 pools of 20,000: the 101st brings them past 2 M.
            src: format!(
                "{one_location}{}",
                tables("[[lhc.resource_locations.vda_pools]]", 101, pool)
            ),
            header: "[[lhc.resource_locations.vda_pools]]",
            k: 100,
            offset: 2,
            field: "lhc.resource_locations[0].vda_pools[100].count".to_owned(),
            message: format!("at most {MAX_VDAS} VDAs in the estate (this pool brings them to 2020000)"),
        },
        Case {
            what: "users of the logon storms",
            src: tables("[[actions]]", 21, storm),
            header: "[[actions]]",
            k: 20,
            offset: 3,
            field: "actions[20].users".to_owned(),
            message: format!(
                "at most {MAX_STORM_USERS} users in all the logon storms together (this one brings them to 2100000)"
            ),
        },
    ]
}

#[test]
fn each_limit_is_refused_at_the_first_element_past_it() {
    for case in cases() {
        let src = format!("{HEADER}{}", case.src);
        let err = Scenario::from_toml_str(&src, "big.toml").expect_err(case.what);
        let line = line_of(&src, case.header, case.k) + case.offset;
        assert_eq!(
            (err.line, err.field.as_str(), err.message.as_str()),
            (line, case.field.as_str(), case.message.as_str()),
            "{}: {err}",
            case.what
        );
        assert!(
            err.to_string().starts_with(&format!("big.toml:{line}:")),
            "{err}"
        );
    }
}

#[test]
fn a_scenario_at_the_limits_that_are_cheap_to_build_is_accepted() {
    let src = format!(
        "{HEADER}{}",
        tables("[[core.heartbeats]]", MAX_HEARTBEATS, heartbeat)
    );
    let scenario = Scenario::from_toml_str(&src, "big.toml").expect("at the limit");
    assert_eq!(scenario.core.heartbeats.len(), MAX_HEARTBEATS);
}
