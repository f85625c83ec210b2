import { expect, test, type Locator, type Page } from "@playwright/test";
import { hydrated, signIn } from "./helpers";

// The charts' frame (axes, tooltip, drag to zoom) and the time range shared through the URL.

const MIN = 60_000;

/** The instants of a chart frame's time-axis ticks, in ms. */
async function tickTimes(frame: Locator): Promise<number[]> {
  return frame
    .locator(".x-axis .tick")
    .evaluateAll((ticks) => ticks.map((t) => Number(t.getAttribute("data-t-ms"))));
}

async function openParis(page: Page) {
  await page.locator(".mainnav").getByRole("link", { name: "Resource locations" }).click();
  await page.locator("#rl-table [data-rl=rl-paris]").getByRole("link").click();
  await expect(page).toHaveURL(/\/lhc\/rl-paris/);
  await hydrated(page);
}

test("a resource location's charts have axes and a tooltip, and the range picker and a drag set the range in the URL", async ({
  page,
}) => {
  await signIn(page, "viewer");
  await openParis(page);
  const picker = page.locator("#range-picker");
  const frame = page.locator(".chart-frame", { has: page.locator("#registrations-chart") });

  // The default range is the last hour: ticks in Day N HH:MM, no more than an hour apart.
  await expect(picker.getByRole("link", { name: "1 h" })).toHaveAttribute("aria-current", "true");
  await expect(frame.locator(".x-axis .tick").first()).toHaveText(/^Day \d+ \d\d:\d\d(:\d\d)?$/);
  let ticks = await tickTimes(frame);
  expect(ticks.length).toBeGreaterThan(1);
  expect(ticks[ticks.length - 1] - ticks[0]).toBeLessThanOrEqual(60 * MIN);
  // A value axis in VDAs, from 0.
  await expect(frame.locator(".y-axis .tick").first()).toHaveText("0");
  expect(await frame.locator(".y-axis .tick").count()).toBeGreaterThan(1);

  // Hovering names the instant and the counts there.
  const plot = frame.locator(".plot");
  await plot.hover({ position: { x: 100, y: 40 } });
  await expect(frame.locator(".chart-tip")).toContainText(/Day \d+ \d\d:\d\d:\d\d/);
  await expect(frame.locator(".chart-tip")).toContainText("on cloud");
  await expect(frame.locator(".crosshair")).toBeVisible();

  // 15 minutes: the URL says so and the axis spans at most 15 minutes.
  await picker.getByRole("link", { name: "15 m" }).click();
  await expect(page).toHaveURL(/range=15m/);
  await expect(picker.getByRole("link", { name: "15 m" })).toHaveAttribute("aria-current", "true");
  await expect
    .poll(async () => {
      const t = await tickTimes(frame);
      return t[t.length - 1] - t[0];
    })
    .toBeLessThanOrEqual(15 * MIN);

  // All: the axis starts on the first day.
  await picker.getByRole("link", { name: "all" }).click();
  await expect(page).toHaveURL(/range=all/);
  await expect(frame.locator(".x-axis .tick").first()).toHaveText(/^Day 1 00:00/);
  ticks = await tickTimes(frame);
  const allSpan = ticks[ticks.length - 1] - ticks[0];

  // Dragging across the middle third zooms into it: a custom range in the URL, a narrower axis.
  const box = await plot.boundingBox();
  if (!box) throw new Error("no plot box");
  await page.mouse.move(box.x + box.width / 3, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + (2 * box.width) / 3, box.y + box.height / 2, { steps: 5 });
  await expect(frame.locator(".zoom-selection")).toBeVisible();
  await page.mouse.up();
  await expect(page).toHaveURL(/from=Day.*&to=Day/);
  await expect(picker.locator("details.custom-range")).toHaveAttribute("open", "");
  await expect(picker.locator("input[name=from]")).toHaveValue(/^Day \d+ \d\d:\d\d:\d\d$/);
  await expect
    .poll(async () => {
      const t = await tickTimes(frame);
      return t[t.length - 1] - t[0];
    })
    .toBeLessThan(allSpan / 2);
  // The range stays on the other charts of the page: the HA band shares the axis.
  const band = page.locator(".chart-frame", { has: page.locator("#state-band") });
  expect(await tickTimes(band)).toEqual(await tickTimes(frame));

  // The browser's Back returns to the whole run.
  await page.goBack();
  await expect(page).toHaveURL(/range=all/);
});

test("the range travels with the person: a server page keeps the range picked on it, and a bad range falls back to the last hour", async ({
  page,
}) => {
  await signIn(page, "viewer");
  await page.locator(".mainnav").getByRole("link", { name: "Load management" }).click();
  await page.locator("#server-table a", { hasText: "XA-PAR-01" }).first().click();
  await expect(page).toHaveURL(/\/lms\/servers\/XA-PAR-01/);
  await hydrated(page);
  const picker = page.locator("#range-picker");
  await picker.getByRole("link", { name: "6 h" }).click();
  await expect(page).toHaveURL(/range=6h/);
  const frame = page.locator(".chart-frame", { has: page.locator("#load-chart") });
  await expect(frame.locator(".y-axis .tick").first()).toHaveText("0");
  await frame.locator(".plot").hover({ position: { x: 200, y: 50 } });
  await expect(frame.locator(".chart-tip")).toContainText(/load index|no sample yet/);

  // A custom range typed in the form, in the console's own time form.
  await picker.locator("summary").click();
  await picker.locator("input[name=from]").fill("Day 1 00:01:00");
  await picker.locator("input[name=to]").fill("Day 1 00:05:00");
  await picker.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/from=Day/);
  await expect.poll(async () => (await tickTimes(frame))[0] ?? -1).toBeGreaterThanOrEqual(1 * MIN);
  const ticks = await tickTimes(frame);
  expect(ticks[ticks.length - 1]).toBeLessThanOrEqual(5 * MIN);

  await page.goto("/lms/servers/XA-PAR-01?range=3w");
  await hydrated(page);
  await expect(picker.getByRole("link", { name: "1 h" })).toHaveAttribute("aria-current", "true");
  // No error shown (the actions' places for a refusal are there, empty).
  await expect(page.locator("main .error:not(:empty)")).toHaveCount(0);
});

test("the black-hole A/B draws both sides on one scale, the rebooted server in the legend's colour", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page, "operator");
  await page.locator(".mainnav").getByRole("link", { name: "Load management" }).click();
  await page.getByRole("link", { name: "Black-hole A/B", exact: true }).click();
  await hydrated(page);
  await page.locator("#ab-form input[name=server]").fill("XA-PAR-02");
  await page.locator("#ab-form input[name=users]").fill("60");
  await page.locator("#ab-run").click();
  const off = page.locator("#ab-fix-off svg");
  const on = page.locator("#ab-fix-on svg");
  await expect(off).toBeVisible({ timeout: 30_000 });
  expect(await off.getAttribute("data-top")).toBe(await on.getAttribute("data-top"));
  await expect(page.locator("#ab-fix-off .y-axis .tick").last()).toHaveText(
    (await page.locator("#ab-fix-on .y-axis .tick").last().textContent()) ?? "",
  );
  const line = await off.locator("path.hot").evaluate((p) => getComputedStyle(p).stroke);
  const swatch = await page
    .locator("#ab-fix-off .legend span.hot i")
    .evaluate((i) => getComputedStyle(i).backgroundColor);
  expect(swatch).toBe(line);
  await expect(page.locator("#ab-fix-off .x-axis .tick").first()).toHaveText(/^\+\d\d:\d\d:\d\d$/);
});
