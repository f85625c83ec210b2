import { expect, test, type Page } from "@playwright/test";
import { hydrated, signIn } from "./helpers";
import { OwnServer } from "./own-server";

// The console with the full-scale estate (`switchyard scenario generate --size full`: 100
// resource locations with 1 M VDAs, 10,000 servers, 1,056 GSLB sites, 150 autoscale
// clusters) on a server of this file's own. The estate runs at 60x until the three forced
// outages reach Extended HA (11 simulated minutes) while parent P16 is down and its children
// adopted (3 to 29 minutes), then the clock is paused so every journey sees the same estate.

/** The limits every page keeps at full scale (the full-scale issue; docs/PERFORMANCE.md). */
const MAX_HTML = 300 * 1024;
const MAX_ELEMENTS = 3000;
/** Paused once past this simulated time: the outages are in Extended HA, P16 is down. */
const PAUSE_AFTER_MS = 12 * 60_000;
/** ... and before P16 comes back up: the journeys need its children adopted. */
const P16_UP_MS = 29 * 60_000;

const PAGES = [
  "/", "/lhc", "/lhc/connectors", "/lhc/rl-017", "/lms", "/lms/servers/XA-042-007", "/lms/store",
  "/lms/evaluators", "/lms/black-hole", "/gslb", "/gslb/links", "/gslb/sites/P16", "/gslb/sites/C0016",
  "/gslb/guided", "/gslb/cli", "/autoscale", "/autoscale/nodes", "/autoscale/asg07", "/autoscale/asg07/edit",
  "/alerts", "/alerts/rules", "/history", "/audit", "/users",
];

test.describe.configure({ mode: "serial" });

let server: OwnServer;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  server = await OwnServer.create();
  const scenario = server.generateScenario("full");
  await server.start(["--scenario", scenario, "--speed", "x60"]);
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, "operator", "/", server.base);
  const clock = async () => {
    const r = await page.request.post(`${server.base}/api/clock_status`, {
      form: {},
      headers: { origin: server.base },
    });
    expect(r.status()).toBe(200);
    return (await r.json()).t_ms as number;
  };
  await expect.poll(clock, { timeout: 60_000, intervals: [250] }).toBeGreaterThan(PAUSE_AFTER_MS);
  const paused = await page.request.post(`${server.base}/api/set_speed`, {
    form: { speed: "paused" },
    headers: { origin: server.base },
  });
  expect(paused.status()).toBe(200);
  expect((await paused.json()).t_ms).toBeLessThan(P16_UP_MS);
  await context.close();
});

test.afterAll(async () => {
  await server?.dispose();
});

/** Clicks the nav bar's link `name` and waits for the page it opens. */
async function nav(page: Page, name: string) {
  await page.locator(".mainnav").getByRole("link", { name, exact: true }).click();
  await expect(page.locator(".mainnav").getByRole("link", { name, exact: true })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await hydrated(page);
}

test("the resource locations in Extended HA are two clicks from the overview", async ({ page }) => {
  await signIn(page, "viewer", "/", server.base);
  const tile = page.locator("#lhc-tiles li[data-key=extended_ha]");
  await expect(tile).toHaveAttribute("data-count", "3");
  await tile.getByRole("link").click();
  await expect(page).toHaveURL(/\/lhc\?state=extended_ha$/);
  const rows = page.locator("#rl-table tbody tr");
  await expect(rows).toHaveCount(3);
  for (const badge of await page.locator("#rl-table tbody [data-state]").all()) {
    await expect(badge).toHaveAttribute("data-state", "extended_ha");
  }
  await expect(page.locator("#rl-table tbody")).toContainText("rl-042");
  await rows.filter({ hasText: "rl-042" }).getByRole("link").first().click();
  await expect(page).toHaveURL(/\/lhc\/rl-042$/);
  await hydrated(page);
  await expect(page.locator("h1 [data-state]")).toHaveAttribute("data-state", "extended_ha");

  // Second journey on the same page: one VDA among the location's 10,000, by name.
  await expect(page.locator("#vda-total")).toHaveAttribute("data-total", "10000");
  await page.locator("#vda-filters input[name=q]").fill("R042-4242");
  await page.locator("#vda-filters button[type=submit]").click();
  await expect(page).toHaveURL(/[?&]q=R042-4242/);
  await expect(page.locator("#vda-total")).toHaveAttribute("data-total", "1");
  await expect(page.locator("#vda-table tbody tr")).toHaveCount(1);
  await expect(page.locator("#vda-table tbody tr td").first()).toHaveText("R042-4242");
  // Its broker during the outage: the elected secondary, not the cloud.
  await expect(page.locator("#vda-table tbody tr")).toContainText(".rl-042.example.com");
});

test("the servers are sorted by load and the worst one opened", async ({ page }) => {
  await signIn(page, "viewer", "/", server.base);
  await nav(page, "Load management");
  const loadHeader = page.locator("#server-table th a[data-sort=load]");
  await loadHeader.click();
  await expect(page).toHaveURL(/sort=load&desc=0/);
  await page.locator("#server-table th a[data-sort=load]").click();
  await expect(page).toHaveURL(/sort=load&desc=1/);
  await expect(page.locator("#server-total")).toHaveAttribute("data-total", "10000");
  const loads = (await page.locator("#server-table tbody [data-col=load]").allTextContents()).map(Number);
  expect(loads.length).toBeGreaterThan(1);
  expect([...loads].sort((a, b) => b - a)).toEqual(loads);
  const worst = page.locator("#server-table tbody tr").first();
  const host = (await worst.getAttribute("data-server")) ?? "";
  await worst.getByRole("link", { name: host }).click();
  await expect(page).toHaveURL(new RegExp(`/lms/servers/${host}$`));
  await hydrated(page);
  await expect(page.locator("h1")).toContainText(host);
  const now = (await page.locator("#server-now [data-col=load]").textContent()) ?? "";
  expect(Number(now.split("·")[0].trim())).toBe(loads[0]);
});

test("a GSLB parent is expanded and an adopted child found", async ({ page }) => {
  await signIn(page, "viewer", "/", server.base);
  await nav(page, "GSLB");
  const graph = page.locator("#topology");
  // The 32 parents' mesh is wider than the frame: it pans by scrolling and zooms.
  const frame = page.locator(".topology-wrap").first();
  const natural = Number(await graph.getAttribute("width"));
  const frameWidth = await frame.evaluate((el) => el.clientWidth);
  expect(natural).toBeGreaterThan(frameWidth);
  // A person wheels again when the first turn goes to the page (Chromium scrolls on its
  // compositor, which may not have the frame as a scroller yet just after a render).
  await frame.hover();
  await expect
    .poll(async () => {
      await page.mouse.wheel(600, 0);
      return frame.evaluate((el) => el.scrollLeft);
    })
    .toBeGreaterThan(0);
  const zoom = page.locator(".topology-zoom").first();
  await zoom.getByRole("button", { name: "Zoom out" }).click();
  await expect.poll(async () => Math.abs(Number(await graph.getAttribute("width")) - natural * 0.75)).toBeLessThanOrEqual(1);
  await expect(zoom.locator(".zoom-level")).toHaveText("75 %");
  await zoom.getByRole("button", { name: "Fit to width" }).click();
  await expect(graph).toHaveAttribute("width", "100%");
  expect(await graph.evaluate((el) => el.getBoundingClientRect().width)).toBeLessThanOrEqual(frameWidth + 1);
  await zoom.getByRole("button", { name: "Actual size" }).click();
  await expect(graph).toHaveAttribute("width", String(natural));
  // P16 is down: its children are adopted by their backup parents and stay drawn, each
  // under its adopter, however many children that parent has collapsed into a badge.
  const adopted = graph.locator("g.site.child.adopted");
  expect(await adopted.count()).toBeGreaterThan(0);
  await expect(adopted.first()).toContainText("adopted from P16");
  const adopter = (await adopted.first().getAttribute("data-parent")) ?? "";
  expect(adopter).toMatch(/^P\d\d$/);
  const badge = graph.locator(`g[data-bundle^="${adopter}:"]`);
  await expect(badge).toHaveCount(1);
  await badge.locator("a").click();
  await expect(page).toHaveURL(new RegExp(`[?&]expand=${adopter}`));
  await hydrated(page);
  // Expanded: no badge for it, every child of the parent drawn, the adopted ones marked.
  await expect(graph.locator(`g[data-bundle^="${adopter}:"]`)).toHaveCount(0);
  const children = graph.locator(`g.site.child[data-parent="${adopter}"]`);
  expect(await children.count()).toBeGreaterThan(32);
  expect(await graph.locator(`g.site.child.adopted[data-parent="${adopter}"]`).count()).toBeGreaterThan(0);
  expect(await graph.locator("*").count()).toBeLessThanOrEqual(2000);
});

/** Opens the section tab `name` and waits for its page. */
async function tab(page: Page, name: string, path: string) {
  await page.locator("nav.tabs").getByRole("link", { name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await hydrated(page);
}

test("the down parent's MEP links, the elected connectors and the nodes are found in their lists", async ({ page }) => {
  await signIn(page, "viewer", "/", server.base);
  // P16 is down: its links to the 31 other parents are DOWN (its children were adopted, so
  // their links now lead to their adopters).
  await nav(page, "GSLB");
  await tab(page, "MEP links", "/gslb/links");
  await expect(page.locator("#link-matching")).toHaveAttribute("data-total", /^\d{4}$/);
  await page.locator("#link-filters input[name=q]").fill("P16");
  await page.locator("#link-filters select[name=status]").selectOption("down");
  await page.locator("#link-filters button[type=submit]").click();
  await expect(page).toHaveURL(/[?&]q=P16&status=down$/);
  await expect(page.locator("#link-matching")).toHaveAttribute("data-matching", "31");
  await expect(page.locator("#links-table tbody tr")).toHaveCount(31);
  for (const status of await page.locator("#links-table tbody [data-col=status]").allTextContents()) {
    expect(status).toBe("DOWN");
  }
  await page.locator("#links-table th a[data-sort=peer]").click();
  await expect(page).toHaveURL(/sort=peer&desc=0&q=P16&status=down$/);
  await expect(page.locator("#link-matching")).toHaveAttribute("data-matching", "31");

  // The three resource locations in Extended HA: their elected secondary brokers hold the
  // registrations.
  await nav(page, "Resource locations");
  await tab(page, "Cloud Connectors", "/lhc/connectors");
  await expect(page.locator("#connector-matching")).toHaveAttribute("data-total", "300");
  await page.locator("#connector-filters select[name=state]").selectOption("extended_ha");
  await page.locator("#connector-filters select[name=role]").selectOption("elected");
  await page.locator("#connector-filters button[type=submit]").click();
  await expect(page).toHaveURL(/[?&]state=extended_ha&role=elected$/);
  await expect(page.locator("#connector-matching")).toHaveAttribute("data-matching", "3");
  await page.locator("#connectors-table th a[data-sort=registrations]").click();
  await expect(page).toHaveURL(/sort=registrations&desc=1/);
  const first = page.locator("#connectors-table tbody tr").first();
  expect(Number(await first.locator("[data-col=registrations]").textContent())).toBeGreaterThan(0);
  await first.getByRole("link").click();
  await expect(page).toHaveURL(/\/lhc\/rl-\d{3}$/);
  await hydrated(page);
  await expect(page.locator("h1 [data-state]")).toHaveAttribute("data-state", "extended_ha");

  // Every autoscale node, then those in service only.
  await nav(page, "Autoscale");
  await tab(page, "Nodes", "/autoscale/nodes");
  const total = Number(await page.locator("#node-matching").getAttribute("data-total"));
  expect(total).toBeGreaterThanOrEqual(150);
  await page.locator("#node-filters select[name=state]").selectOption("in_service");
  await page.locator("#node-filters button[type=submit]").click();
  await expect(page).toHaveURL(/[?&]state=in_service$/);
  await expect(page.locator("#nodes-table tbody tr")).toHaveCount(50);
  for (const state of await page.locator("#nodes-table tbody [data-col=state]").allTextContents()) {
    expect(state).toBe("in service");
  }
});

test("every page keeps its HTML and its DOM within the full-scale limits", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin", "/", server.base);
  for (const path of PAGES) {
    const response = await page.request.get(`${server.base}${path}`);
    expect(response.status(), path).toBe(200);
    const html = (await response.body()).length;
    expect(html, `${path}: HTML bytes`).toBeLessThanOrEqual(MAX_HTML);
    await page.goto(`${server.base}${path}`);
    await hydrated(page);
    const elements = await page.evaluate(() => document.getElementsByTagName("*").length);
    expect(elements, `${path}: DOM elements`).toBeLessThanOrEqual(MAX_ELEMENTS);
  }
});
