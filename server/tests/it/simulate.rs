//! `switchyard simulate` and `switchyard user add` as a user runs them: the real binary.

use std::io::Write;
use std::process::{Command, Stdio};

fn switchyard() -> Command {
    Command::new(env!("CARGO_BIN_EXE_switchyard"))
}

fn demo() -> String {
    format!("{}/../scenarios/demo.toml", env!("CARGO_MANIFEST_DIR"))
}

fn simulate(seed: &str) -> std::process::Output {
    switchyard()
        .args([
            "simulate",
            "--scenario",
            &demo(),
            "--seed",
            seed,
            "--until",
            "2h",
        ])
        .output()
        .expect("run switchyard")
}

#[test]
fn the_same_seed_gives_byte_identical_output() {
    let first = simulate("7");
    let second = simulate("7");
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert!(!first.stdout.is_empty());
    assert_eq!(first.stdout, second.stdout);

    let other = simulate("8");
    assert_ne!(
        first.stdout, other.stdout,
        "another seed gives other jitter"
    );

    for line in String::from_utf8_lossy(&first.stdout).lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("one JSON object per line");
        for field in ["t_ms", "engine", "subject", "kind", "details"] {
            assert!(v.get(field).is_some(), "{field} missing in {line}");
        }
        assert!(v["details"].is_object());
        assert!(v["t_ms"].as_u64().is_some_and(|t| t <= 2 * 3_600_000));
    }
}

#[test]
fn a_bad_scenario_names_file_line_and_field_and_exits_2() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("bad.toml");
    std::fs::write(
        &path,
        "[scenario]\nname = \"x\"\n\n[[core.heartbeats]]\nid = \"a\"\ninterval = \"soon\"\n",
    )
    .expect("write");
    let out = switchyard()
        .args([
            "simulate",
            "--scenario",
            path.to_str().expect("utf8"),
            "--until",
            "1m",
        ])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bad.toml:6:"), "{stderr}");
    assert!(stderr.contains("interval"), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_bad_duration_exits_2() {
    let out = switchyard()
        .args(["simulate", "--scenario", &demo(), "--until", "forever"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--until"));
}

#[test]
fn user_add_reads_the_password_from_stdin_and_refuses_an_existing_user() {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = format!("sqlite://{}", dir.path().join("users.db").display());
    let add = |name: &str| {
        let mut child = switchyard()
            .args([
                "user",
                "add",
                "--username",
                name,
                "--role",
                "operator",
                "--database-url",
                &url,
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(b"a-good-password\n")
            .expect("write");
        child.wait_with_output().expect("wait")
    };
    let first = add("carol");
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let again = add("Carol");
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("exists already"));
}

#[test]
fn simulate_can_record_the_run_in_sqlite() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("sim.db");
    let url = format!("sqlite://{}", db.display());
    let out = switchyard()
        .args([
            "simulate",
            "--scenario",
            &demo(),
            "--seed",
            "5",
            "--until",
            "1h",
            "--database-url",
            &url,
        ])
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = String::from_utf8_lossy(&out.stdout).lines().count() as i64;
    let stored: i64 = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("rt")
        .block_on(async {
            let pool = services::Store::connect(&url).await.expect("db");
            let unfinished = services::history::unfinished_run(&pool)
                .await
                .expect("runs");
            assert!(
                unfinished.is_none(),
                "a recording is closed: a console never resumes it as its own"
            );
            sqlx::query_scalar("SELECT COUNT(*) FROM events")
                .fetch_one(sqlite(&pool))
                .await
                .expect("count")
        });
    assert!(lines > 0);
    assert_eq!(stored, lines, "every printed event is stored");
}

#[test]
fn the_black_hole_ab_runs_from_the_command_line() {
    let out = switchyard()
        .args([
            "simulate",
            "--scenario",
            &demo(),
            "--black-hole-ab",
            "XA-PAR-02",
            "--storm-users",
            "60",
            "--storm-over",
            "2m",
        ])
        .output()
        .expect("run switchyard");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let on_rebooted = |side: &str| report[side]["on_rebooted"].as_u64().unwrap_or(0);
    assert!(
        on_rebooted("fix_off") > 2 * on_rebooted("fix_on"),
        "without the fix the rebooted server swallows the storm: {report}"
    );
    let summary = String::from_utf8_lossy(&out.stderr);
    assert!(
        summary.contains("fix off") && summary.contains("fix on"),
        "{summary}"
    );

    let unknown = switchyard()
        .args(["simulate", "--scenario", &demo(), "--black-hole-ab", "NOPE"])
        .output()
        .expect("run switchyard");
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("NOPE"));
}

/// The (minute, kind) of every autoscale event `simulate` prints for the seed example in `mode`.
fn seed_example_events(mode: &str) -> Vec<(u64, String)> {
    let path = format!(
        "{}/../scenarios/autoscale-seed.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("seed scenario");
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = dir.path().join("seed.toml");
    std::fs::write(
        &scenario,
        text.replace("mode = \"dns\"", &format!("mode = \"{mode}\"")),
    )
    .expect("write");
    let out = switchyard()
        .args(["simulate", "--scenario"])
        .arg(&scenario)
        .args(["--until", "34m"])
        .output()
        .expect("run switchyard");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|v| v["engine"] == "autoscale")
        .map(|v| {
            let minute = v["t_ms"].as_u64().unwrap_or(u64::MAX) / 60_000;
            (minute, v["kind"].as_str().unwrap_or_default().to_owned())
        })
        .collect()
}

#[test]
fn the_autoscale_seed_example_comes_out_exactly_in_both_modes() {
    let common = [
        (0, "group.started"),
        (6, "autoscale.scale_out"),
        (6, "node.provisioned"),
        (6, "node.attached"),
        (6, "node.registered"),
        (6, "records.added"),
        (7, "evaluation.skipped"),
        (17, "evaluation.resumed"),
        (20, "autoscale.scale_in"),
        (20, "records.removed"),
        (21, "evaluation.skipped"),
    ];
    let teardown = |m: u64| {
        [
            (m, "node.detached"),
            (m, "node.deprovisioned"),
            (m, "node.deregistered"),
            (m, "evaluation.skipped"),
            (m + 1, "evaluation.resumed"),
        ]
    };
    // DNS: the TTL holds T31, the nodes go at T32, evaluation starts again at T33.
    let mut dns: Vec<(u64, &str)> = common.to_vec();
    dns.push((31, "evaluation.skipped"));
    dns.extend(teardown(32));
    // NLB: no TTL; the nodes go at T31, evaluation starts again at T32.
    let mut nlb: Vec<(u64, &str)> = common.to_vec();
    nlb.extend(teardown(31));
    for (mode, expected) in [("dns", dns), ("nlb", nlb)] {
        let expected: Vec<(u64, String)> = expected
            .into_iter()
            .map(|(m, k)| (m, k.to_owned()))
            .collect();
        assert_eq!(seed_example_events(mode), expected, "mode {mode}");
    }
}

/// The SQLite pool of a test's store, for looking at its tables directly.
fn sqlite(store: &services::Store) -> &sqlx::SqlitePool {
    store.sqlite_pool().expect("an SQLite store")
}
