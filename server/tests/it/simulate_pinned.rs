//! `switchyard simulate` of the shipped scenarios prints exactly what it printed when these
//! digests were taken: any change to an engine's behaviour, its events or their order shows
//! up here. A deliberate change of behaviour updates the digest in the same commit, and the
//! commit says why.

use std::process::Command;

use sha2::{Digest, Sha256};

/// One pinned run: the arguments after `simulate`, the number of lines and their SHA-256.
struct Pinned {
    args: &'static [&'static str],
    lines: usize,
    sha256: &'static str,
}

const PINNED: &[Pinned] = &[
    Pinned {
        args: &[
            "--scenario",
            "scenarios/demo.toml",
            "--seed",
            "7",
            "--until",
            "2h",
        ],
        lines: 362,
        sha256: "6d9baa3a4ca837be827cc34ac4ed32c41f05e6ed4f3f71bcdf3d38b39ce0e70e",
    },
    Pinned {
        args: &[
            "--scenario",
            "scenarios/demo.toml",
            "--seed",
            "42",
            "--until",
            "24h",
        ],
        lines: 5351,
        sha256: "960b2a10631564454038d91b1c840655ba253d4ef61a85fe3aa4b495bd1c15d3",
    },
    // Every action kind of every engine, once (engine/tests/data/every-action.toml).
    Pinned {
        args: &[
            "--scenario",
            "scenarios/demo.toml",
            "--seed",
            "42",
            "--until",
            "3h",
            "--actions",
            "engine/tests/data/every-action.toml",
        ],
        lines: 1695,
        sha256: "04646b2f826506fd4a57c99e50bc824fc73020ba67b9be85cf105e35e666c234",
    },
    // The seed's autoscale example (SPEC §4), T1..T33 and a minute more.
    Pinned {
        args: &[
            "--scenario",
            "scenarios/autoscale-seed.toml",
            "--until",
            "34m",
        ],
        lines: 18,
        sha256: "296551330e622cbe35403362543ff3f2dd73e74d533cfe7a47ff00ba1460db57",
    },
];

#[test]
fn simulate_prints_the_pinned_output_of_the_shipped_scenarios() {
    let root = format!("{}/..", env!("CARGO_MANIFEST_DIR"));
    for pinned in PINNED {
        let out = Command::new(env!("CARGO_BIN_EXE_switchyard"))
            .current_dir(&root)
            .arg("simulate")
            .args(pinned.args)
            .output()
            .expect("run switchyard");
        assert!(
            out.status.success(),
            "{:?}: {}",
            pinned.args,
            String::from_utf8_lossy(&out.stderr)
        );
        let lines = out.stdout.iter().filter(|b| **b == b'\n').count();
        let digest: String = Sha256::digest(&out.stdout)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(
            (lines, digest.as_str()),
            (pinned.lines, pinned.sha256),
            "simulate {}",
            pinned.args.join(" ")
        );
    }
}
