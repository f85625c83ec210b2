// Time to interactive of the console over a throttled link, against the console at $BASE
// (signed in as `bench`, password $PASSWORD): a fresh browser context (empty cache) opens a
// page, and the time runs from the navigation to the page's hydration (`data-hydrated` on
// <body>, set once the browser bundle has taken over the server-rendered page). Chromium's
// network emulation (DevTools protocol) sets the link; the first visit downloads the bundle,
// a second one in the same context shows what the long-lived cache saves. Run from end2end/:
// Playwright is resolved from there.
import { createRequire } from "node:module";

const { chromium } = createRequire(`${process.cwd()}/`)("@playwright/test");

const base = process.env.BASE;
const password = process.env.PASSWORD;
const runs = Number(process.env.RUNS ?? 3);
const target = 1500;
const links = [
  // name, download bits per second, round-trip latency (ms)
  ["unthrottled", 0, 0],
  ["10 Mbit/s, 40 ms", 10e6, 40],
  ["1.6 Mbit/s, 150 ms (slow 3G)", 1.6e6, 150],
];
// The overview, a resource location, the load management farm and an autoscale group (the
// page with the what-if editor): every page needs the same one module, so the pages differ
// by their HTML and the islands they hydrate.
const pages = ["/", "/lhc/rl-paris", "/lms", "/autoscale/asg_web"];

const login = await fetch(`${base}/api/login`, {
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
  body: `username=bench&password=${encodeURIComponent(password)}`,
  redirect: "manual",
});
const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
if (!cookie.startsWith("switchyard_session=")) throw new Error(`sign-in failed: ${login.status}`);
const [name, value] = cookie.split("=");

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });

/** Milliseconds from navigation to hydration of `path`, twice in one fresh context. */
async function visit(path, bitsPerSecond, latency) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addCookies([{ name, value, url: base }]);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  if (bitsPerSecond > 0) {
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency,
      downloadThroughput: bitsPerSecond / 8,
      uploadThroughput: bitsPerSecond / 8,
    });
  }
  const times = [];
  for (let i = 0; i < 2; i++) {
    const start = Date.now();
    await page.goto(base + path, { waitUntil: "commit" });
    await page.locator("body[data-hydrated=true]").waitFor({ timeout: 60_000 });
    times.push(Date.now() - start);
  }
  await context.close();
  return times;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`time to interactive (navigation → hydrated), median of ${runs} fresh contexts; target ${target} ms at 10 Mbit/s`);
for (const [label, bps, latency] of links) {
  for (const path of pages) {
    const first = [];
    const second = [];
    for (let r = 0; r < runs; r++) {
      const [cold, warm] = await visit(path, bps, latency);
      first.push(cold);
      second.push(warm);
    }
    const mark = bps === 10e6 ? (median(first) <= target ? " ok" : " OVER") : "";
    console.log(`${label.padEnd(30)} ${path.padEnd(14)} first visit ${String(median(first)).padStart(6)} ms${mark}   cached ${String(median(second)).padStart(6)} ms`);
  }
}
await browser.close();
