import { expect, test, type Page } from "@playwright/test";
import { hydrated, signIn, confirmAction } from "./helpers";
import { OwnServer } from "./own-server";

async function openResourceLocations(page: Page) {
  await page.locator("nav.mainnav").getByRole("link", { name: "Resource locations" }).click();
  await expect(page).toHaveURL(/\/lhc$/);
  await hydrated(page);
}

const OUTAGE = /pending_ha|ha_initial|extended_ha/;

/** Drags the time bar's slider to its left end, as a person does with the mouse. */
async function dragSliderToStart(page: Page) {
  // The time bar is folded while the page is live: a person opens it first.
  const travel = page.locator("#time-travel");
  if ((await travel.getAttribute("open")) === null) await travel.locator("summary").click();
  const slider = page.locator("#time-slider");
  const box = await slider.boundingBox();
  if (!box) throw new Error("no slider");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 1, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
}

test("a forced outage survives a restart, and the time slider shows the estate before it", async ({ page }) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const server = await OwnServer.create();
  try {
    await server.start(["--speed", "60x"]);
    await signIn(page, "operator", "/", server.base);

    // The operator forces an outage on rl-paris.
    await openResourceLocations(page);
    await page.locator("#rl-table [data-rl=rl-paris]").getByRole("link").click();
    await expect(page).toHaveURL(/\/lhc\/rl-paris$/);
    await hydrated(page);
    const badge = page.locator("h1 .badge");
    await expect(badge).toHaveAttribute("data-state", "working_normally");
    await page.locator("#force-outage").click();
    await confirmAction(page);
    await expect(badge).toHaveAttribute("data-state", OUTAGE, { timeout: 30_000 });

    // The service manager restarts the console: SIGTERM, then the same command again.
    const stopped = await server.stop();
    expect(stopped.code).toBe(0);
    expect(stopped.ms).toBeLessThan(5_000);
    await server.start();

    // The outage is still in force, and the history shows it once (one row per connector).
    await page.reload();
    await hydrated(page);
    await expect(badge).toHaveAttribute("data-state", OUTAGE);
    const forcedRows = page.locator("#rl-events tbody tr", { hasText: "connector.outage_forced" });
    await expect(forcedRows).toHaveCount(3);
    await expect(page.locator("#clear-outage")).toBeEnabled();

    // Time travel: drag the slider back to the start; the estate is as it was then.
    await openResourceLocations(page);
    await dragSliderToStart(page);
    await expect(page).toHaveURL(/\/lhc\?at=0%2B00:0/);
    await expect(page.locator("#as-of")).toContainText("As of 0+00:0");
    await expect(page.locator("#as-of")).toContainText("read-only");
    const row = page.locator("#rl-table [data-rl=rl-paris]");
    await expect(row.locator(".badge")).toHaveAttribute("data-state", "working_normally");

    // Into the resource location, still in the past: no operator controls.
    await row.getByRole("link").click();
    await expect(page).toHaveURL(/\/lhc\/rl-paris\?at=/);
    await hydrated(page);
    await expect(badge).toHaveAttribute("data-state", "working_normally");
    await expect(page.locator("#force-outage")).toHaveCount(0);

    // Links between estate pages keep the instant: the farm's server links, in the past.
    await page.locator("nav.mainnav").getByRole("link", { name: "Load management" }).click();
    await expect(page).toHaveURL(/\/lms$/);
    await hydrated(page);
    await dragSliderToStart(page);
    await expect(page).toHaveURL(/\/lms\?at=0%2B00:0/);
    await page.locator("#server-table [data-server=XA-PAR-01]").getByRole("link").first().click();
    await expect(page).toHaveURL(/\/lms\/servers\/XA-PAR-01\?at=0%2B00:0/);
    await expect(page.locator("#as-of")).toContainText("read-only");
    await page.getByRole("link", { name: "← Farm" }).click();
    await expect(page).toHaveURL(/\/lms\?at=0%2B00:0/);
    await openResourceLocations(page);
    await dragSliderToStart(page);
    await page.locator("#rl-table [data-rl=rl-paris]").getByRole("link").click();
    await expect(page).toHaveURL(/\/lhc\/rl-paris\?at=/);
    await hydrated(page);

    // On a phone the bar fits the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    const bar = await page.locator("#time-bar").boundingBox();
    expect(bar && bar.x + bar.width).toBeLessThanOrEqual(390);
    await expect(page.locator("#as-of")).toBeVisible();
    await page.setViewportSize({ width: 1440, height: 900 });

    // Back to live: the outage again, and the controls.
    await page.locator("#back-to-live").click();
    await expect(page).toHaveURL(/\/lhc\/rl-paris$/);
    await expect(badge).toHaveAttribute("data-state", OUTAGE);
    await expect(page.locator("#force-outage")).toBeVisible();
    await expect(page.locator("#as-of")).toHaveCount(0);

    // An instant after the run is refused with its range.
    const later = await page.request.post(`${server.base}/api/lhc_overview`, { form: { at: "99+00:00:00" } });
    expect(later.status()).toBe(400);
    expect(await later.text()).toContain("can be viewed from 0+00:00:00.000");
  } finally {
    await server.stop();
    await server.dispose();
  }
});
