// The pages and lists of bench/full-scale.sh, against the console at $BASE (signed in as
// `bench`). Run from end2end/: Playwright is resolved from there (an `import` would look
// beside this file).
import { createRequire } from "node:module";

const { chromium } = createRequire(`${process.cwd()}/`)("@playwright/test");

const base = process.env.BASE;
const runs = 20;
const targets = { html: 300 * 1024, nodes: 3000, loadMs: 500, renderMs: 50, listMs: 100 };

const pages = [
  "/", "/lhc", "/lhc/connectors", "/lhc/rl-017", "/lms", "/lms/servers/XA-042-007", "/lms/store",
  "/lms/evaluators", "/lms/black-hole", "/gslb", "/gslb/links", "/gslb/sites/P03", "/gslb/sites/C0100",
  "/gslb/guided", "/gslb/cli", "/autoscale", "/autoscale/nodes", "/autoscale/asg07", "/alerts", "/alerts/rules",
  "/history", "/history?sort=subject&order=oldest", "/lms/store?lsort=load&ldesc=1", "/audit", "/audit?sort=action",
  "/users",
];
const lists = [
  ["resource locations, search", "/api/lhc_locations", "q=rl-04&sort=unregistered&desc=true"],
  ["VDAs of one location, filtered", "/api/lhc_vdas", "resource_location=rl-017&broker=secondary"],
  ["VDAs of one location, searched by name", "/api/lhc_vdas", "resource_location=rl-017&q=R017-4242"],
  ["servers by load (10,000)", "/api/lms_servers", "sort=load&desc=true"],
  ["servers of one zone", "/api/lms_servers", "zone=z042&sort=sessions&desc=true"],
  ["servers searched `042-0`, in the lowest load band, by load", "/api/lms_servers", "q=042-0&band=band_0&sort=load&desc=true"],
  ["sessions, disconnected", "/api/lms_sessions", "state=disconnected"],
  ["sessions of users containing `u12`, newest first", "/api/lms_sessions", "q=u12&sort=since&desc=true"],
  ["Cloud Connectors in Extended HA, by registrations (300)", "/api/lhc_connectors", "state=extended_ha&sort=registrations&desc=true"],
  ["MEP links of parent P03, worst first (1,520)", "/api/gslb_links", "q=P03&sort=status"],
  ["autoscale nodes, DNS mode, newest state first", "/api/autoscale_nodes", "mode=dns&sort=since&desc=true"],
  ["autoscale groups with a cluster evaluating, by nodes", "/api/autoscale_list", "state=evaluating&sort=nodes&desc=true"],
  ["history, one engine", "/api/history", "query%5Bengine%5D=lms"],
  ["history by subject, from A", "/api/history", "query%5Bsort%5D=subject&query%5Border%5D=oldest"],
  ["history by kind, from Z", "/api/history", "query%5Bsort%5D=kind"],
  ["dynamic store's load table by load (10,000)", "/api/lms_store", "lsort=load&ldesc=true"],
  ["dynamic store's load table of one zone by RuleLoads", "/api/lms_store", "zone=z042&lsort=rules"],
  ["audit log by who took the action", "/api/audit", "sort=actor&order=oldest"],
];

function p95(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)];
}
const mark = (ok) => (ok ? "ok " : "OVER");
const kb = (n) => `${(n / 1024).toFixed(0)} KB`;

const login = await fetch(`${base}/api/login`, {
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
  body: "username=bench&password=bench-password",
  redirect: "manual",
});
const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
if (!cookie.startsWith("switchyard_session=")) throw new Error(`sign-in failed: ${login.status}`);

async function timed(path, init) {
  const start = performance.now();
  const response = await fetch(`${base}${path}`, { ...init, headers: { cookie, origin: base, ...(init?.headers ?? {}) } });
  const body = await response.text();
  return { ms: performance.now() - start, status: response.status, bytes: Buffer.byteLength(body) };
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
const [name, value] = cookie.split("=");
await context.addCookies([{ name, value, url: base }]);
const page = await context.newPage();

console.log(`page                         HTML        DOM elements   load in Chromium   server render p95`);
let over = 0;
for (const path of pages) {
  const renders = [];
  let html = 0;
  for (let i = 0; i < runs; i++) {
    const r = await timed(path);
    if (r.status !== 200) throw new Error(`${path}: HTTP ${r.status}`);
    renders.push(r.ms);
    html = r.bytes;
  }
  await page.goto(`${base}${path}`, { waitUntil: "load" });
  const { nodes, loadMs } = await page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0];
    return { nodes: document.getElementsByTagName("*").length, loadMs: nav.loadEventEnd - nav.startTime };
  });
  const render = p95(renders);
  const checks = [html <= targets.html, nodes <= targets.nodes, loadMs <= targets.loadMs, render <= targets.renderMs];
  over += checks.filter((ok) => !ok).length;
  console.log(
    `${path.padEnd(28)} ${kb(html).padStart(8)} ${mark(checks[0])} ${String(nodes).padStart(8)} ${mark(checks[1])}` +
      `   ${loadMs.toFixed(0).padStart(6)} ms ${mark(checks[2])}   ${render.toFixed(1).padStart(8)} ms ${mark(checks[3])}`,
  );
}
await browser.close();

console.log(`\nlist (server side, p95 of ${runs})                       answer      time`);
for (const [label, path, form] of lists) {
  const times = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const r = await timed(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form,
    });
    if (r.status !== 200) throw new Error(`${path} ${form}: HTTP ${r.status}`);
    times.push(r.ms);
    bytes = r.bytes;
  }
  const t = p95(times);
  over += t <= targets.listMs ? 0 : 1;
  console.log(`${label.padEnd(52)} ${kb(bytes).padStart(8)} ${t.toFixed(1).padStart(8)} ms ${mark(t <= targets.listMs)}`);
}
console.log(`\n${over} figure(s) over their target`);
