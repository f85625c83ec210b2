import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { PASSWORD } from "./helpers";

/** The repository root (the release binary and the site are built there). */
const ROOT = path.resolve(__dirname, "../..");
const BIN = path.join(ROOT, "target/release/switchyard");

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * A `switchyard serve` process of the test's own, on its own SQLite file, that the test stops
 * (SIGTERM) and starts again on the same database: what a restart by a service manager does.
 */
export class OwnServer {
  private proc?: ChildProcess;
  private output = "";

  private constructor(
    private readonly dir: string,
    readonly port: number,
    /** The database: the SQLite file in `dir` when not given. */
    private readonly databaseUrl?: string,
  ) {}

  /** A fresh database with the admin / operator / viewer accounts. */
  static async create(): Promise<OwnServer> {
    const server = new OwnServer(mkdtempSync(path.join(tmpdir(), "switchyard-e2e-")), await freePort());
    server.addUsers();
    return server;
  }

  /**
   * A fresh database on the throwaway PostgreSQL cluster of `make test`
   * (`SWITCHYARD_TEST_POSTGRES_URL`, a superuser URL) with the three accounts.
   */
  static async createOnPostgres(): Promise<OwnServer> {
    const admin = process.env.SWITCHYARD_TEST_POSTGRES_URL;
    if (!admin) throw new Error("SWITCHYARD_TEST_POSTGRES_URL is not set (make test sets it)");
    const name = `e2e_${process.pid}_${Date.now()}`;
    const made = spawnSync("psql", [admin, "-v", "ON_ERROR_STOP=1", "-c", `CREATE DATABASE ${name}`]);
    if (made.status !== 0) throw new Error(`create database: ${made.stderr}`);
    const url = admin.replace(/\/[^/]*$/, `/${name}`);
    const server = new OwnServer(mkdtempSync(path.join(tmpdir(), "switchyard-e2e-")), await freePort(), url);
    server.addUsers();
    return server;
  }

  /** Another console on the same database (a replica), on a port of its own. */
  async replica(): Promise<OwnServer> {
    return new OwnServer(mkdtempSync(path.join(tmpdir(), "switchyard-e2e-")), await freePort(), this.url());
  }

  private url(): string {
    return this.databaseUrl ?? `sqlite://${path.join(this.dir, "own.db")}`;
  }

  private addUsers(): void {
    const server = this;
    for (const role of ["admin", "operator", "viewer"]) {
      const made = spawnSync(BIN, ["user", "add", "--username", role, "--role", role], {
        input: `${PASSWORD}\n`,
        env: server.env(),
      });
      if (made.status !== 0) throw new Error(`user add ${role}: ${made.stderr}`);
    }
  }

  /** Writes the generated scenario of `size` (`switchyard scenario generate`) beside the
   * database and returns its path. */
  generateScenario(size: "full"): string {
    const file = path.join(this.dir, `${size}.toml`);
    const made = spawnSync(BIN, ["scenario", "generate", "--size", size, "--out", file]);
    if (made.status !== 0) throw new Error(`scenario generate: ${made.stderr}`);
    return file;
  }

  /** The console's address. */
  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  private env(): NodeJS.ProcessEnv {
    return { ...process.env, SWITCHYARD_DATABASE_URL: this.url() };
  }

  /** Starts `serve` (with `extra` flags) and waits until it answers /healthz. */
  async start(extra: string[] = []): Promise<void> {
    const args = ["serve", "--addr", `127.0.0.1:${this.port}`, "--dns-addr", "127.0.0.1:0"];
    args.push("--site-root", path.join(ROOT, "target/site"), "--log", "warn", ...extra);
    this.proc = spawn(BIN, args, { env: this.env(), stdio: ["ignore", "pipe", "pipe"] });
    this.proc.stdout?.on("data", (d) => (this.output += d));
    this.proc.stderr?.on("data", (d) => (this.output += d));
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (this.proc.exitCode !== null) throw new Error(`serve exited: ${this.output}`);
      try {
        if ((await fetch(`${this.base}/healthz`)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`serve did not start: ${this.output}`);
  }

  /** SIGTERM; resolves with the exit code and how long the exit took (ms). */
  async stop(): Promise<{ code: number | null; ms: number }> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null) return { code: proc?.exitCode ?? null, ms: 0 };
    const started = Date.now();
    const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
    proc.kill("SIGTERM");
    const code = await exited;
    return { code, ms: Date.now() - started };
  }

  /** Stops the process if it runs and deletes the database. */
  async dispose(): Promise<void> {
    if (this.proc && this.proc.exitCode === null) this.proc.kill("SIGKILL");
    rmSync(this.dir, { recursive: true, force: true });
  }
}
