import { expect, test } from "@playwright/test";
import { clockMs, hydrated, signIn } from "./helpers";

test("the dashboard clock advances live and the dashboard is kept as an artifact", async ({ page }, testInfo) => {
  await signIn(page, "admin");
  const first = await clockMs(page);
  await expect.poll(() => clockMs(page), { timeout: 10_000 }).toBeGreaterThan(first);
  await expect(page.locator("#live-feed tbody tr").first()).toBeVisible();
  await expect(page.locator("#engine-counts [data-engine=core] td")).not.toHaveText("0");
  // Emitted and stored are told apart: stored catches up, never runs ahead.
  const count = async (row: string) =>
    Number((await page.locator(`#engine-counts tr.${row} td`).textContent()) ?? "0");
  await expect.poll(() => count("stored"), { timeout: 10_000 }).toBeGreaterThan(0);
  const stored = await count("stored");
  expect(await count("total")).toBeGreaterThanOrEqual(stored);
  const shot = await page.screenshot({ path: "artifacts/dashboard.png", fullPage: true });
  await testInfo.attach("dashboard", { body: shot, contentType: "image/png" });
});

test("an operator pauses and steps the clock without a page reload", async ({ page }) => {
  await signIn(page, "operator");
  // A marker that a reload would wipe: hydration, not navigation, must do the work.
  await page.evaluate(() => ((window as any).__noReload = true));
  await page.locator("#clock-controls [data-speed=paused]").click();
  await expect(page.locator("#clock-speed")).toHaveText("paused");
  const paused = await clockMs(page);
  await page.waitForTimeout(1_500);
  expect(await clockMs(page)).toBe(paused);

  await page.locator("#clock-step").click();
  await expect.poll(() => clockMs(page)).toBeGreaterThan(paused);
  await expect(page.locator("#live-feed")).toContainText("clock.stepped");
  expect(await page.evaluate(() => (window as any).__noReload)).toBe(true);

  await page.locator("#clock-controls [data-speed='60x']").click();
  await expect(page.locator("#clock-speed")).toHaveText("60x");
});

test("a viewer sees no clock controls and a forged call gets 403", async ({ page }) => {
  await signIn(page, "viewer");
  await expect(page.locator("#clock-time")).toBeVisible();
  await expect(page.locator("#clock-controls")).toHaveCount(0);
  await expect(page.locator("#note-form")).toHaveCount(0);
  const forged = await page.request.post("/api/set_speed", { form: { speed: "max" } });
  expect(forged.status()).toBe(403);
  expect(await forged.text()).toContain("operator");
  await expect(page.locator("#clock-speed")).not.toHaveText("max");
});

test("an operator's actions are in the audit log, which an admin reads", async ({ browser }) => {
  const operator = await browser.newPage();
  await signIn(operator, "operator");
  await operator.getByLabel("Note on the timeline").fill("drill starts");
  await operator.getByRole("button", { name: "Add note" }).click();
  await expect(operator.locator("#live-feed")).toContainText("drill starts");

  const admin = await browser.newPage();
  await signIn(admin, "admin");
  await admin.locator(".mainnav").getByRole("link", { name: "Audit", exact: true }).click();
  await expect(admin).toHaveURL(/\/audit$/);
  const row = admin.locator("#audit-table tbody tr", { hasText: "timeline.note" }).first();
  await expect(row).toContainText("operator");
  await expect(row).toContainText("drill starts");

  // Sorted by who took the action, from A, then from Z: a click on the column's name each time.
  await hydrated(admin);
  const actors = async () => admin.locator("#audit-table tbody td[data-col=actor]").allTextContents();
  await admin.locator("#audit-table thead a[data-sort=actor]").click();
  await expect(admin).toHaveURL(/sort=actor&order=oldest/);
  await expect(admin.locator("#audit-table thead th[aria-sort=ascending]")).toContainText("Who");
  const fromA = await actors();
  expect(fromA.length).toBeGreaterThan(1);
  expect([...fromA].sort()).toEqual(fromA);
  await admin.locator("#audit-table thead a[data-sort=actor]").click();
  await expect(admin).toHaveURL(/sort=actor&order=newest/);
  await expect(admin.locator("#audit-table thead th[aria-sort=descending]")).toContainText("Who");
  const fromZ = await actors();
  expect([...fromZ].sort().reverse()).toEqual(fromZ);
});

test("the feed's filters read one engine's rows from the server, heartbeats hidden until asked for", async ({ page }) => {
  await signIn(page, "viewer");
  await page.evaluate(() => ((window as any).__noReload = true));
  const rows = page.locator("#live-feed tbody tr");
  const heartbeatRows = page.locator("#live-feed tbody tr td:nth-child(4)").filter({ hasText: /^heartbeat$/ });
  await expect(rows.first()).toBeVisible();
  await expect(heartbeatRows).toHaveCount(0);

  // One engine: the overview is read again with it in the address, every row of that engine.
  await page.locator("select[name=feed-engine]").selectOption("core");
  await expect(page).toHaveURL(/\?feed-engine=core$/);
  await expect(page.locator("#live-feed tbody tr:not(.engine-core):not(:has(td.empty))")).toHaveCount(0);

  // Heartbeats asked for: the demo's core heartbeats (every 30 simulated seconds) appear.
  await page.locator("input[name=feed-heartbeats]").check();
  await expect(page).toHaveURL(/feed-heartbeats=1/);
  await expect(heartbeatRows.first()).toBeVisible();
  await expect(page.locator("#live-feed tbody tr:not(.engine-core)")).toHaveCount(0);

  await page.locator("input[name=feed-heartbeats]").uncheck();
  await expect(page).not.toHaveURL(/feed-heartbeats/);
  await expect(heartbeatRows).toHaveCount(0);
  expect(await page.evaluate(() => (window as any).__noReload)).toBe(true);
});

test("an open JSON disclosure in the live feed shows its row's event, read by key, as the feed moves on", async ({ page }) => {
  await signIn(page, "operator");
  await page.locator("#clock-controls [data-speed='60x']").click();
  await expect(page.locator("#clock-speed")).toHaveText("60x");
  const raw = page.locator("#live-feed tbody tr").first().locator("details.raw");
  // The page carries no JSON; the event's is read by the row's key when asked.
  await expect(raw).toHaveAttribute("data-event", /^\d+\.\d+$/);
  await expect(raw.locator("pre")).toHaveText("");
  const jsonOf = async (key: string) => {
    const [t_ms, id] = key.split(".");
    const res = await page.request.post("/api/event_json", { form: { t_ms, id } });
    expect(res.status()).toBe(200);
    return (await res.json()) as string;
  };
  // The key the row shows and the JSON the disclosure shows agree (the key read before and
  // after the text, as the feed may move meanwhile): the key, or "" while they differ.
  let shownText = "";
  const shownKey = async () => {
    const key = (await raw.getAttribute("data-event")) ?? "";
    const text = (await raw.locator("pre").textContent()) ?? "";
    const again = (await raw.getAttribute("data-event")) ?? "";
    const agree = key === again && text !== "" && text === (await jsonOf(key));
    if (agree) shownText = text;
    return agree ? key : "";
  };
  await raw.locator("summary").click();
  let first = "";
  await expect.poll(async () => (first = await shownKey())).not.toBe("");
  expect(typeof JSON.parse(shownText)).toBe("object");
  // Newer events push it down; the first row's disclosure stays open and follows its row.
  await expect.poll(async () => {
    const key = await shownKey();
    return key !== "" && key !== first;
  }, { timeout: 20_000 }).toBe(true);
  await expect(raw).toHaveAttribute("open", "");
});
