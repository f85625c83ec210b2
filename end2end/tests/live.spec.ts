import { expect, test } from "@playwright/test";
import { confirmAction, hydrated, signIn } from "./helpers";
import { OwnServer } from "./own-server";

// The clock in every page's header, and pages that follow the live stream instead of polling.

test("every page's header shows the simulated clock; an operator changes the speed from any page, a viewer only reads it", async ({
  browser,
}) => {
  const operator = await (await browser.newContext()).newPage();
  await signIn(operator, "operator");
  await operator.locator(".mainnav").getByRole("link", { name: "GSLB" }).click();
  await hydrated(operator);
  const clock = operator.locator("#header-clock time");
  await expect(clock).toHaveText(/^Day \d+ \d\d:\d\d:\d\d$/);
  const speed = operator.locator("select#header-speed");
  await speed.selectOption("x60");
  await expect(speed).toHaveValue("x60");
  // The clock moves in the header without a reload.
  const t0 = Number(await clock.getAttribute("data-t-ms"));
  await expect.poll(async () => Number(await clock.getAttribute("data-t-ms")), { timeout: 10_000 }).toBeGreaterThan(t0);
  // The overview's clock panel agrees.
  await operator.locator(".mainnav").getByRole("link", { name: "Overview" }).click();
  await expect(operator.locator("#clock-speed")).toHaveText("60x");

  const viewer = await (await browser.newContext()).newPage();
  await signIn(viewer, "viewer");
  await viewer.locator(".mainnav").getByRole("link", { name: "Autoscale" }).click();
  await hydrated(viewer);
  await expect(viewer.locator("#header-clock time")).toHaveText(/^Day \d+/);
  await expect(viewer.locator("select#header-speed")).toHaveCount(0);
  await expect(viewer.locator("#header-speed")).toHaveText("60x");
});

test("a resource location's page re-reads its data when the stream says it changed, not every few seconds", async ({
  browser,
}) => {
  const context = await browser.newContext();
  const watcher = await context.newPage();
  await signIn(watcher, "operator");
  const speed = watcher.locator("select#header-speed");
  const before = await speed.inputValue();
  await speed.selectOption("paused");
  await expect(speed).toHaveValue("paused");
  await watcher.locator(".mainnav").getByRole("link", { name: "Resource locations" }).click();
  await watcher.locator("#rl-table [data-rl=rl-tokyo]").getByRole("link").click();
  await expect(watcher).toHaveURL(/\/lhc\/rl-tokyo/);
  await hydrated(watcher);
  await expect(watcher.locator("#clear-outage")).toBeDisabled();

  // Nothing changes while the clock is paused: the page asks nothing. (A page is read again
  // whole, its HTML, by the console's reader: the header says so.)
  const reads: string[] = [];
  watcher.on("request", (r) => {
    if (r.url().includes("/lhc/rl-tokyo") && r.headers()["islands-router"]) reads.push(r.url());
  });
  await watcher.waitForTimeout(5_000);
  expect(reads, "reads of the resource location while nothing changed").toEqual([]);

  // Another page forces an outage: the watcher's page shows it without a reload or a click.
  await watcher.evaluate(() => ((window as any).__noReload = true));
  const actor = await context.newPage();
  await actor.goto("/lhc/rl-tokyo");
  await hydrated(actor);
  await actor.locator("#force-outage").click();
  await confirmAction(actor);
  await expect(watcher.locator("#clear-outage")).toBeEnabled({ timeout: 10_000 });
  expect(reads.length).toBeGreaterThan(0);
  expect(await watcher.evaluate(() => (window as any).__noReload)).toBe(true);

  // Put the estate back as it was.
  await actor.locator("#clear-outage").click();
  await expect(watcher.locator("#clear-outage")).toBeDisabled({ timeout: 10_000 });
  await speed.selectOption(before);
  await context.close();
});

test("a page visited again and again by its links re-reads once per change: the pages left stop following the stream", async ({
  browser,
}) => {
  // On a console of the test's own with its clock paused: nothing but the forced outage below
  // changes what the resource location's page shows.
  const server = await OwnServer.create();
  const context = await browser.newContext();
  try {
    await server.start(["--speed", "paused"]);
    const watcher = await context.newPage();
    await signIn(watcher, "operator", "/", server.base);
    const nav = watcher.locator(".mainnav");
    // Three visits of rl-tokyo by the links a person clicks, the overview in between: each
    // visit's page is read and its islands hydrated anew.
    for (let visit = 0; visit < 3; visit++) {
      await nav.getByRole("link", { name: "Resource locations" }).click();
      await watcher.locator("#rl-table [data-rl=rl-tokyo]").getByRole("link").click();
      await expect(watcher).toHaveURL(/\/lhc\/rl-tokyo/);
      await expect(watcher.locator("#clear-outage")).toBeDisabled();
      if (visit < 2) {
        await nav.getByRole("link", { name: "Overview" }).click();
        await expect(watcher.locator("#clock-speed")).toBeVisible();
      }
    }
    // What the islands of the pages left created is gone: only the islands in the document
    // remain owned.
    const owned = Number(await watcher.locator("body").getAttribute("data-islands-owned"));
    expect(owned).toBeGreaterThan(0);
    expect(owned).toBeLessThanOrEqual(await watcher.locator("leptos-island").count());

    const reads: number[] = [];
    watcher.on("request", (r) => {
      if (r.url().includes("/lhc/rl-tokyo") && r.headers()["islands-router"]) reads.push(Date.now());
    });
    const actor = await context.newPage();
    await actor.goto(`${server.base}/lhc/rl-tokyo`);
    await hydrated(actor);
    await actor.locator("#force-outage").click();
    await confirmAction(actor);
    await expect(watcher.locator("#clear-outage")).toBeEnabled({ timeout: 10_000 });
    await watcher.waitForTimeout(2_000);
    // One page, one read per refresh: reads of the same change by the islands of the visits
    // before would come together.
    expect(reads.length).toBeGreaterThan(0);
    const gaps = reads.slice(1).map((t, i) => t - reads[i]);
    expect(gaps.filter((g) => g < 500), `reads ${reads.length}, gaps ${gaps.join(", ")} ms`).toEqual([]);
  } finally {
    await context.close();
    await server.dispose();
  }
});
