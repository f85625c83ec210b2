//! Bad scenario snippets: each error must name the exact line, column and field.

use engine::{parse_actions, Scenario, ScenarioError};

/// A valid header plus two heartbeats, zones and parents that the snippets build on.
const BASE: &str = r#"[scenario]
name = "t"

[[core.heartbeats]]
id = "hb"
interval = "10s"
"#;

struct Case {
    what: &'static str,
    src: String,
    line: usize,
    column: usize,
    field: &'static str,
    message: &'static str,
}

fn case(
    what: &'static str,
    src: impl Into<String>,
    (line, column): (usize, usize),
    field: &'static str,
    message: &'static str,
) -> Case {
    Case {
        what,
        src: src.into(),
        line,
        column,
        field,
        message,
    }
}

fn with_base(extra: &str) -> String {
    format!("{BASE}{extra}")
}

fn cases() -> Vec<Case> {
    vec![
        case(
            "unknown field",
            "[scenario]\nname = \"t\"\nsede = 4\n",
            (3, 1),
            "scenario.sede",
            "unknown field `sede`, expected one of `name`, `description`, `seed`",
        ),
        case(
            "missing name",
            "# comment\n[scenario]\nseed = 4\n",
            (2, 1),
            "scenario.name",
            "missing field `name`",
        ),
        case(
            "missing [scenario]",
            "[clock]\ntick = \"1s\"\n",
            (1, 1),
            "scenario",
            "missing field `scenario`",
        ),
        case(
            "syntax",
            "[scenario]\nname = = \"t\"\n",
            (2, 8),
            "(syntax)",
            "extra `=`, expected nothing",
        ),
        case(
            "bad duration",
            "[scenario]\nname = \"t\"\n\n[clock]\ntick = \"5 minutes\"\n",
            (5, 8),
            "clock.tick",
            "expected a duration like 30s, 5m, 1h30m; got `5 minutes`",
        ),
        case(
            "bad speed",
            "[scenario]\nname = \"t\"\n[clock]\nstart_speed = \"x2\"\n",
            (4, 15),
            "clock.start_speed",
            "unknown variant `x2`, expected one of `paused`, `x1`, `x10`, `x60`, `x600`, `max`",
        ),
        case(
            "duplicate heartbeat id",
            with_base("\n[[core.heartbeats]]\nid = \"hb\"\ninterval = \"20s\"\n"),
            (9, 6),
            "core.heartbeats[1].id",
            "duplicate heartbeat id \"hb\" (first defined at core.heartbeats[0].id)",
        ),
        case(
            "jitter not below interval",
            with_base("\n[[core.heartbeats]]\nid = \"hb2\"\ninterval = \"5s\"\njitter = \"5s\"\n"),
            (11, 10),
            "core.heartbeats[1].jitter",
            "must be shorter than the interval (5s); got 5s",
        ),
        case(
            "action naming unknown heartbeat",
            with_base("\n[[actions]]\nat = \"1m\"\nkind = \"heartbeat_pause\"\nheartbeat = \"nope\"\n"),
            (11, 13),
            "actions[0].heartbeat",
            "unknown heartbeat \"nope\" (known: hb)",
        ),
        case(
            "action with unknown field",
            with_base("\n[[actions]]\nat = \"1m\"\nkind = \"note\"\ntext = \"hi\"\nheartbeat = \"hb\"\n"),
            (12, 1),
            "actions[0].heartbeat",
            "unknown field `heartbeat`, expected `text`",
        ),
        case(
            "action with bad duration inside the tagged fields",
            with_base(
                "\n[[actions]]\nat = \"1m\"\nkind = \"heartbeat_interval\"\nheartbeat = \"hb\"\ninterval = \"soon\"\n",
            ),
            (12, 12),
            "actions[0].interval",
            "expected a duration like 30s, 5m, 1h30m; got `soon`",
        ),
        case(
            "action with unknown kind",
            with_base("\n[[actions]]\nat = \"1m\"\nkind = \"reboot\"\n"),
            (10, 8),
            "actions[0].kind",
            "unknown variant `reboot`, expected one of `note`, `heartbeat_pause`, `heartbeat_resume`, `heartbeat_interval`, `force_outage`, `clear_outage`, `cloud_link`, `connector_restart`, `connector_fail`, `connector_recover`, `test_launch`, `config_change`, `vda_logoff`, `vda_maintenance`, `logon_storm`, `app_launch`, `server_reboot`, `kill_collector`, `counter_spike`, `disconnect_sessions`, `logoff_sessions`, `evaluator_save`, `evaluator_delete`, `evaluator_assign`, `evaluator_unassign`, `farm_settings`, `site_down`, `site_up`, `mep_cut`, `mep_restore`, `backup_parents`, `topology_import`, `load_inject`, `load_release`, `app_deploy`, `app_remove`, `distribution_switch`, `group_settings`",
        ),
        case(
            "unknown zone",
            r#"[scenario]
name = "t"

[[lms.zones]]
id = "z1"
name = "Zone 1"

[[lms.zones]]
id = "z2"
name = "Zone 2"

[[lms.servers]]
host = "a"
zone = "z1"

[[lms.servers]]
host = "b"
zone = "z9"
"#,
            (18, 8),
            "lms.servers[1].zone",
            "unknown zone \"z9\" (known: z1, z2)",
        ),
        case(
            "cpu rule low >= high",
            r#"[scenario]
name = "t"

[[lms.evaluators]]
name = "Busy"

[[lms.evaluators.rules]]
rule = "cpu_utilization"
low = 80
high = 80
"#,
            (10, 8),
            "lms.evaluators[0].rules[0].high",
            "must be greater than low (80); got 80",
        ),
        case(
            "rule with unknown field",
            "[scenario]\nname = \"t\"\n[[lms.evaluators]]\nname = \"E\"\n[[lms.evaluators.rules]]\nrule = \"memory_usage\"\nlow = 1\nhihg = 5\n",
            (8, 1),
            "lms.evaluators[0].rules[0].hihg",
            "unknown field `hihg`, expected `low` or `high`",
        ),
        case(
            "child without parent",
            r#"[scenario]
name = "t"

[[gslb.sites]]
name = "P1"
ip = "10.0.0.1"
role = "parent"

[[gslb.sites]]
name = "C1"
ip = "10.0.1.1"
role = "child"
"#,
            (9, 1),
            "gslb.sites[1].parent",
            "a child site needs a parent (parents: P1)",
        ),
        case(
            "backup parent not a parent",
            r#"[scenario]
name = "t"

[[gslb.sites]]
name = "P1"
ip = "10.0.0.1"
role = "parent"
backup_parents = ["P2", "C1"]

[[gslb.sites]]
name = "P2"
ip = "10.0.0.2"
role = "parent"

[[gslb.sites]]
name = "C1"
ip = "10.0.1.1"
role = "child"
parent = "P1"
"#,
            (8, 25),
            "gslb.sites[0].backup_parents[1]",
            "\"C1\" is not a parent site (parents: P1, P2)",
        ),
        case(
            "six backup parents",
            gslb_parents(7, r#"backup_parents = ["P2", "P3", "P4", "P5", "P6", "P7"]"#),
            (5, 18),
            "gslb.sites[0].backup_parents",
            "at most 5 backup parents; got 6",
        ),
        case(
            "33 parents",
            gslb_parents(33, ""),
            (134, 8),
            "gslb.sites[32].role",
            "too many parent sites: a parent-child topology has at most 32",
        ),
        case(
            "bad site ip",
            "[scenario]\nname = \"t\"\n[[gslb.sites]]\nname = \"P1\"\nip = \"10.0.0\"\nrole = \"parent\"\n",
            (5, 6),
            "gslb.sites[0].ip",
            "invalid IP address syntax",
        ),
        case(
            "min_nodes > max_nodes",
            r#"[scenario]
name = "t"

[[autoscale.groups]]
name = "g"
mode = "dns"
zones = ["az1"]
min_nodes = 4
max_nodes = 2

[[autoscale.groups.thresholds]]
parameter = "cpu"
min = 20
max = 80
"#,
            (9, 13),
            "autoscale.groups[0].max_nodes",
            "must be at least min_nodes (4); got 2",
        ),
        case(
            "threshold low >= high",
            r#"[scenario]
name = "t"

[[autoscale.groups]]
name = "g"
mode = "nlb"
zones = ["az1"]
min_nodes = 1
max_nodes = 2

[[autoscale.groups.thresholds]]
parameter = "memory"
min = 85
max = 40
"#,
            (14, 7),
            "autoscale.groups[0].thresholds[0].max",
            "must be greater than min (85); got 40",
        ),
        case(
            "workload with unknown profile",
            "[scenario]\nname = \"t\"\n[[autoscale.groups]]\nname = \"g\"\nmode = \"nlb\"\nzones = [\"a\"]\nmin_nodes = 1\nmax_nodes = 2\n[[autoscale.groups.thresholds]]\nparameter = \"cpu\"\nmin = 1\nmax = 2\n[autoscale.groups.workload]\nprofile = \"wave\"\n",
            (14, 11),
            "autoscale.groups[0].workload.profile",
            "unknown variant `wave`, expected one of `constant`, `diurnal`, `step`, `spike`, `trace`, `csv`",
        ),
        case(
            "pool of an unknown delivery group",
            r#"[scenario]
name = "t"

[[lhc.resource_locations]]
id = "rl1"
name = "RL 1"

[[lhc.resource_locations.connectors]]
fqdn = "cc1.example.com"

[[lhc.resource_locations.vda_pools]]
prefix = "VDA"
count = 10
kind = "multi_session"
delivery_group = "dg-x"
"#,
            (15, 18),
            "lhc.resource_locations[0].vda_pools[0].delivery_group",
            "unknown delivery group \"dg-x\" (known: (none))",
        ),
        case(
            "several sessions on a pooled desktop",
            "[scenario]\nname = \"t\"\n[[lhc.delivery_groups]]\nid = \"dg\"\n[[lhc.resource_locations]]\nid = \"rl1\"\nname = \"RL 1\"\n[[lhc.resource_locations.connectors]]\nfqdn = \"cc1\"\n[[lhc.resource_locations.vda_pools]]\nprefix = \"V\"\ncount = 3\nkind = \"pooled_vdi\"\ndelivery_group = \"dg\"\nmax_sessions = 4\n",
            (15, 16),
            "lhc.resource_locations[0].vda_pools[0].max_sessions",
            "a pooled_vdi VDA hosts a single session; got 4",
        ),
        case(
            "initial load above 100 %",
            "[scenario]\nname = \"t\"\n[[lhc.delivery_groups]]\nid = \"dg\"\n[[lhc.resource_locations]]\nid = \"rl1\"\nname = \"RL 1\"\n[[lhc.resource_locations.connectors]]\nfqdn = \"cc1\"\n[[lhc.resource_locations.vda_pools]]\nprefix = \"V\"\ncount = 3\nkind = \"multi_session\"\ndelivery_group = \"dg\"\ninitial_load = 101\n",
            (15, 16),
            "lhc.resource_locations[0].vda_pools[0].initial_load",
            "must be between 0 and 100; got 101",
        ),
        case(
            "zero restart time",
            "[scenario]\nname = \"t\"\n[lhc]\nconnector_restart = \"0s\"\n",
            (4, 21),
            "lhc.connector_restart",
            "must be positive",
        ),
        case(
            "duplicate connector fqdn across case",
            r#"[scenario]
name = "t"

[[lhc.resource_locations]]
id = "rl1"
name = "RL 1"

[[lhc.resource_locations.connectors]]
fqdn = "cc1.example.com"

[[lhc.resource_locations.connectors]]
fqdn = "CC1.example.com"
"#,
            (12, 8),
            "lhc.resource_locations[0].connectors[1].fqdn",
            "duplicate connector fqdn \"cc1.example.com\" (first defined at lhc.resource_locations[0].connectors[0].fqdn)",
        ),
        case(
            "evaluator shadowing a built-in",
            "[scenario]\nname = \"t\"\n[[lms.evaluators]]\nname = \"Advanced\"\n[[lms.evaluators.rules]]\nrule = \"server_user_load\"\n",
            (4, 8),
            "lms.evaluators[0].name",
            "\"Advanced\" is a built-in evaluator; choose another name",
        ),
        case(
            "same rule twice",
            "[scenario]\nname = \"t\"\n[[lms.evaluators]]\nname = \"E\"\n[[lms.evaluators.rules]]\nrule = \"load_throttling\"\n[[lms.evaluators.rules]]\nrule = \"load_throttling\"\nlevel = \"extreme\"\n",
            (8, 8),
            "lms.evaluators[0].rules[1].rule",
            "duplicate rule \"load_throttling\" (first defined at lms.evaluators[0].rules[0].rule)",
        ),
        case(
            "bad scheduling window",
            "[scenario]\nname = \"t\"\n[[lms.evaluators]]\nname = \"E\"\n[[lms.evaluators.rules]]\nrule = \"scheduling\"\nwindows = [\"mon 08:00-18:00\", \"funday 1-2\"]\n",
            (7, 31),
            "lms.evaluators[0].rules[0].windows[1]",
            "expected a window like \"mon 08:00-18:00\" (start before end, end at most 24:00); got `funday 1-2`",
        ),
        case(
            "server app not published",
            "[scenario]\nname = \"t\"\n[[lms.zones]]\nid = \"z\"\nname = \"Z\"\n[[lms.servers]]\nhost = \"h\"\nzone = \"z\"\napps = [\"Paint\"]\n",
            (9, 9),
            "lms.servers[0].apps[0]",
            "unknown application \"Paint\" (known: (none))",
        ),
        case(
            "parent with a parent",
            "[scenario]\nname = \"t\"\n[[gslb.sites]]\nname = \"P1\"\nip = \"10.0.0.1\"\nrole = \"parent\"\nparent = \"P1\"\n",
            (7, 10),
            "gslb.sites[0].parent",
            "a parent site cannot have a parent",
        ),
        case(
            "own backup parent",
            gslb_parents(2, r#"backup_parents = ["P1"]"#),
            (5, 19),
            "gslb.sites[0].backup_parents[0]",
            "a site cannot be its own backup parent",
        ),
        case(
            "empty trace",
            "[scenario]\nname = \"t\"\n[[autoscale.groups]]\nname = \"g\"\nmode = \"nlb\"\nzones = [\"a\"]\nmin_nodes = 1\nmax_nodes = 2\n[[autoscale.groups.thresholds]]\nparameter = \"cpu\"\nmin = 1\nmax = 2\n[autoscale.groups.workload]\nprofile = \"trace\"\nvalues = []\n",
            (15, 10),
            "autoscale.groups[0].workload.values",
            "needs at least one value",
        ),
        case(
            "zero tick",
            "[scenario]\nname = \"t\"\n[clock]\ntick = \"0s\"\n",
            (4, 8),
            "clock.tick",
            "must be positive (e.g. 1s)",
        ),
        case(
            "blank name",
            "[scenario]\nname = \"  \"\n",
            (2, 8),
            "scenario.name",
            "must not be empty",
        ),
    ]
}

/// A `[scenario]` header and `n` parent sites P1..Pn; `extra` is added to P1.
fn gslb_parents(n: usize, extra: &str) -> String {
    let mut s = String::from("[scenario]\nname = \"t\"\n");
    for i in 1..=n {
        s.push_str(&format!(
            "[[gslb.sites]]\nname = \"P{i}\"\n{}ip = \"10.0.0.{i}\"\nrole = \"parent\"\n",
            if i == 1 && !extra.is_empty() {
                format!("{extra}\n")
            } else {
                String::new()
            }
        ));
    }
    s
}

#[test]
fn each_bad_snippet_names_line_column_and_field() {
    let mut failures = Vec::new();
    for c in cases() {
        let got = Scenario::from_toml_str(&c.src, "bad.toml");
        let want = ScenarioError {
            origin: "bad.toml".into(),
            line: c.line,
            column: c.column,
            field: c.field.into(),
            message: c.message.into(),
        };
        match got {
            Err(e) if e == want => {}
            Err(e) => failures.push(format!("{}:\n  want {want}\n  got  {e}", c.what)),
            Ok(_) => failures.push(format!("{}: parsed, want {want}", c.what)),
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn display_is_file_line_column_field_message() -> Result<(), String> {
    let src = "[scenario]\nname = \"t\"\n[[lms.zones]]\nid = \"z1\"\nname = \"Z\"\n[[lms.servers]]\nhost = \"a\"\nzone = \"z9\"\n";
    match Scenario::from_toml_str(src, "scenarios/bad.toml") {
        Err(e) => {
            assert_eq!(
                e.to_string(),
                "scenarios/bad.toml:8:8: lms.servers[0].zone: unknown zone \"z9\" (known: z1)"
            );
            Ok(())
        }
        Ok(_) => Err("should fail".into()),
    }
}

#[test]
fn actions_file_errors_are_located_too() -> Result<(), ScenarioError> {
    let scenario = Scenario::from_toml_str(BASE, "base.toml")?;
    let ok = parse_actions(
        "[[actions]]\nat = \"30s\"\nkind = \"heartbeat_pause\"\nheartbeat = \"hb\"\n",
        "a.toml",
        &scenario,
    )?;
    assert_eq!(ok.len(), 1);
    let bad = parse_actions(
        "[[actions]]\nat = \"30s\"\nkind = \"note\"\ntext = \"x\"\n\n[[actions]]\nat = \"1m\"\nkind = \"heartbeat_interval\"\nheartbeat = \"hb\"\ninterval = \"500ms\"\n",
        "a.toml",
        &scenario,
    )
    .map_err(|e| e.to_string());
    assert_eq!(
        bad,
        Err("a.toml:10:12: actions[1].interval: interval must be at least 1s; got 500ms".into())
    );
    let stray =
        parse_actions("[scenario]\nname = \"x\"\n", "a.toml", &scenario).map_err(|e| e.to_string());
    assert_eq!(
        stray,
        Err("a.toml:1:2: scenario: unknown field `scenario`, expected `actions`".into())
    );
    Ok(())
}

#[test]
fn warnings_flag_sizing_and_versions() -> Result<(), ScenarioError> {
    let src = r#"[scenario]
name = "t"
[[lhc.delivery_groups]]
id = "dg"
[[lhc.resource_locations]]
id = "big"
name = "Big"
[[lhc.resource_locations.connectors]]
fqdn = "cc1"
[[lhc.resource_locations.vda_pools]]
prefix = "A"
count = 20000
kind = "pooled_vdi"
delivery_group = "dg"
[[gslb.sites]]
name = "P1"
ip = "10.0.0.1"
role = "parent"
[[gslb.sites]]
name = "P2"
ip = "10.0.0.2"
role = "parent"
version = "13.1"
"#;
    let warnings: Vec<String> = Scenario::from_toml_str(src, "w.toml")?
        .warnings()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        warnings,
        [
            "lhc.resource_locations[0].connectors: resource location \"big\" has a single connector (Citrix recommends at least 2)",
            "lhc.resource_locations[0].vda_pools: resource location \"big\" has 20000 VDAs; HA mode supports at most 10000",
            "gslb.sites[1].version: parent \"P2\" runs 13.1 but \"P1\" runs 14.1: config sync needs parents on the same version",
        ]
    );
    Ok(())
}
