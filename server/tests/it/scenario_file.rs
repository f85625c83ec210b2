//! Scenario files: the embedded demo, CSV workloads beside the scenario, missing files named.

use std::path::Path;

use engine::Scenario;
use server::scenario_file::{load_scenario, DEMO, DEMO_PATH};

#[test]
fn the_embedded_demo_parses() {
    let scenario = Scenario::from_toml_str(DEMO, DEMO_PATH).expect("demo parses");
    assert!(!scenario.scenario.name.is_empty());
}

const CSV_SCENARIO: &str = r#"
[scenario]
name = "csv"

[[autoscale.groups]]
name = "g"
mode = "nlb"
zones = ["z1"]
min_nodes = 1
max_nodes = 3

[[autoscale.groups.thresholds]]
parameter = "cpu"
min = 20
max = 80

[autoscale.groups.workload]
profile = "csv"
file = "demand.csv"
"#;

#[test]
fn a_csv_workload_is_read_next_to_the_scenario() {
    use engine::autoscale::config::Workload;
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario_path = dir.path().join("s.toml");
    std::fs::write(&scenario_path, CSV_SCENARIO).expect("write");
    std::fs::write(dir.path().join("demand.csv"), "demand\n90\n70\n").expect("write");
    let (scenario, _) = load_scenario(Some(&scenario_path)).expect("loads");
    assert_eq!(
        scenario.autoscale.groups[0].workload,
        Workload::Trace {
            values: vec![90.0, 70.0]
        }
    );

    std::fs::write(dir.path().join("demand.csv"), "demand\n90\nlots\n").expect("write");
    let err = load_scenario(Some(&scenario_path)).expect_err("bad line");
    let text = err.to_string();
    assert!(
        text.contains("autoscale.groups[0].workload.file: demand.csv:3: value must be"),
        "{text}"
    );

    std::fs::remove_file(dir.path().join("demand.csv")).expect("remove");
    let err = load_scenario(Some(&scenario_path)).expect_err("missing file");
    assert!(err.to_string().contains("cannot read demand.csv"), "{err}");
}

#[test]
fn a_missing_file_is_named() {
    let err = load_scenario(Some(Path::new("no/such/file.toml"))).expect_err("missing file");
    assert!(
        err.to_string()
            .starts_with("no/such/file.toml: cannot read"),
        "{err}"
    );
}
