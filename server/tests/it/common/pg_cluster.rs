//! A PostgreSQL cluster of a test's own (Debian's server tools), for what the shared cluster
//! of `make test` cannot do: stopping and starting the database under a running console.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::Command;

/// A cluster in a temporary folder on a free port; stopped and deleted when dropped.
pub struct Cluster {
    dir: tempfile::TempDir,
    bin: PathBuf,
    port: u16,
}

impl Cluster {
    /// Creates and starts a cluster, or `None` (said on stderr) outside `make test`, where the
    /// server tools may be missing.
    pub fn start() -> Option<Cluster> {
        if std::env::var("SWITCHYARD_TEST_POSTGRES_URL").is_err() {
            eprintln!("skipped: SWITCHYARD_TEST_POSTGRES_URL is not set (make test sets it)");
            return None;
        }
        let bin = std::fs::read_dir("/usr/lib/postgresql")
            .expect("PostgreSQL's server tools (scripts/ensure-tools.sh --postgres)")
            .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
            .filter(|b| b.join("initdb").is_file())
            .max()
            .expect("initdb");
        let dir = tempfile::tempdir().expect("dir");
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let cluster = Cluster { dir, bin, port };
        if cluster.as_root() {
            let chown = Command::new("chown")
                .arg("postgres")
                .arg(cluster.dir.path())
                .status()
                .expect("chown");
            assert!(chown.success());
        }
        let data = cluster.data();
        cluster.run(
            "initdb",
            &["-D", &data, "-A", "trust", "-U", "postgres", "--no-sync"],
        );
        cluster.start_again();
        cluster.run(
            "createdb",
            &[
                "-h",
                "127.0.0.1",
                "-p",
                &port.to_string(),
                "-U",
                "postgres",
                "switchyard",
            ],
        );
        Some(cluster)
    }

    fn as_root(&self) -> bool {
        Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| o.stdout.starts_with(b"0\n"))
    }

    fn data(&self) -> String {
        self.dir.path().join("data").display().to_string()
    }

    fn run(&self, tool: &str, args: &[&str]) {
        let program = self.bin.join(tool);
        let mut command = if self.as_root() {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&program);
            c
        } else {
            Command::new(&program)
        };
        let out = command.args(args).output().expect("run a PostgreSQL tool");
        assert!(
            out.status.success(),
            "{tool}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// The URL of the cluster's `switchyard` database.
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/switchyard", self.port)
    }

    /// Stops the server (fast: connections are closed at once).
    pub fn stop(&self) {
        self.run("pg_ctl", &["-D", &self.data(), "-m", "fast", "-w", "stop"]);
    }

    /// Starts the server (again) on the same folder and port.
    pub fn start_again(&self) {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
            self.port,
            self.dir.path().display()
        );
        let log = self.dir.path().join("server.log").display().to_string();
        self.run(
            "pg_ctl",
            &[
                "-D",
                &self.data(),
                "-l",
                &log,
                "-o",
                &options,
                "-w",
                "start",
            ],
        );
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let data = self.data();
        let program = self.bin.join("pg_ctl");
        let mut command = if self.as_root() {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&program);
            c
        } else {
            Command::new(&program)
        };
        let _ = command
            .args(["-D", &data, "-m", "immediate", "stop"])
            .output();
    }
}
