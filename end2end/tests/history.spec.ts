import { expect, test } from "@playwright/test";
import { hydrated, signIn } from "./helpers";

test("the history page filters by engine and kind and exports the filtered set", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto("/history");
  await hydrated(page);
  await expect(page.locator("#history-table")).toBeVisible();

  await page.locator("#history-filters select[name=engine]").selectOption("core");
  await page.locator("#history-filters input[name=kind]").fill("heartbeat");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/engine=core/);
  await expect(page).toHaveURL(/kind=heartbeat/);
  const kinds = page.locator("#history-table tbody tr td:nth-child(4)");
  await expect(kinds.first()).toHaveText("heartbeat");
  for (const text of await kinds.allTextContents()) expect(text).toBe("heartbeat");
  // Each beat reads through its kind's template, not as its fields.
  const beats = await page.locator("#history-table td.details .why").allTextContents();
  expect(beats.length).toBeGreaterThan(0);
  for (const why of beats) {
    expect(why).toMatch(/^beat \d+ · every \S+( s)? · (on time|\S+ m?s (early|late))$/);
  }
  const total = Number(await page.locator("#history-shown").getAttribute("data-rows"));
  expect(total).toBeGreaterThan(0);

  const csvHref = await page.getByRole("link", { name: "Export CSV" }).getAttribute("href");
  const csv = await page.request.get(csvHref!);
  expect(csv.status()).toBe(200);
  const lines = (await csv.text()).trim().split("\n");
  expect(lines[0]).toBe("t_ms,engine,subject,kind,details,actor");
  expect(lines.length - 1).toBeGreaterThanOrEqual(total);
  for (const line of lines.slice(1)) expect(line).toContain(",core,");

  const jsonHref = await page.getByRole("link", { name: "Export JSON" }).getAttribute("href");
  const json = await (await page.request.get(jsonHref!)).json();
  expect(json.length).toBeGreaterThanOrEqual(total);
  expect(json.every((e: any) => e.engine === "core" && e.kind === "heartbeat")).toBe(true);
});

test("older and newer pages follow each other without a gap", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto("/history");
  // A fresh run may hold less than a page: wait (60x) until there is an older page.
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("link", { name: "Older →" })).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 30_000 });
  await hydrated(page);
  const rows = page.locator("#history-table tbody tr");
  // Server-rendered and browser-rendered rows differ only in white space.
  const texts = async () => (await rows.allTextContents()).map((t) => t.trim());
  const firstPage = await texts();
  expect(firstPage.length).toBe(50);
  await expect(page.getByRole("link", { name: "← Newer" })).toHaveCount(0);
  await page.getByRole("link", { name: "Older →" }).click();
  await expect(page).toHaveURL(/before=\d+\.\d+/);
  await expect(rows.first()).not.toHaveText(firstPage[0]);
  const secondPage = await texts();
  for (const row of secondPage) expect(firstPage).not.toContain(row);
  await page.getByRole("link", { name: "← Newer" }).click();
  await expect(page).toHaveURL(/after=\d+\.\d+/);
  await expect(rows.first()).toHaveText(firstPage[0]);
  expect(await texts()).toEqual(firstPage);
});

test("the history reads oldest first and pages forward in time", async ({ page }) => {
  await signIn(page, "viewer");
  await page.locator(".mainnav").getByRole("link", { name: "History", exact: true }).click();
  await hydrated(page);
  // Instants from the rows' hover text: "+… since the start (<ms> ms)".
  const instants = async () =>
    (await page.locator("#history-table tbody time.instant").evaluateAll((ts) => ts.map((t) => t.getAttribute("title") ?? ""))).map((t) =>
      Number(/\((\d+) ms\)/.exec(t)?.[1]),
    );
  await page.locator("#history-filters select[name=order]").selectOption("oldest");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/order=oldest/);
  await expect(page.locator("#history-shown")).toContainText("oldest first");
  // The demo at 60x fills more than a page within seconds: wait for the next page.
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("link", { name: "Newer →" })).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 30_000 });
  await hydrated(page);
  const first = await instants();
  expect(first.length).toBe(50);
  expect([...first].sort((a, b) => a - b)).toEqual(first);
  await expect(page.getByRole("link", { name: "← Older" })).toHaveCount(0);
  await page.getByRole("link", { name: "Newer →" }).click();
  await expect(page).toHaveURL(/order=oldest.*after=\d+\.\d+|after=\d+\.\d+.*order=oldest/);
  await expect(page.getByRole("link", { name: "← Older" })).toBeVisible();
  const second = await instants();
  expect(second.length).toBeGreaterThan(0);
  expect([...second].sort((a, b) => a - b)).toEqual(second);
  expect(second[0]).toBeGreaterThanOrEqual(first[first.length - 1]);
});

test("the history is searched by the start of a subject's name", async ({ page }) => {
  await signIn(page, "viewer");
  await page.locator(".mainnav").getByRole("link", { name: "History", exact: true }).click();
  await hydrated(page);
  // The zones (z-paris, z-lyon): their data collectors' load samples come every few seconds.
  await page.locator("#history-filters input[name=search]").fill("z-");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/search=z-/);
  const subjects = page.locator("#history-table tbody tr td:nth-child(3)");
  await expect(subjects.first()).toHaveText(/^z-/);
  for (const text of await subjects.allTextContents()) expect(text).toMatch(/^z-/);
  // The export link carries the search.
  const csvHref = (await page.getByRole("link", { name: "Export CSV" }).getAttribute("href")) ?? "";
  expect(csvHref).toContain("search=z-");
  // A start no subject has: no events, and no error.
  await page.locator("#history-filters input[name=search]").fill("XA-NOWHERE");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/search=XA-NOWHERE/);
  await expect(page.locator("#history-table tbody")).toContainText("No events.");
  await expect(page.locator("#form-error")).toHaveCount(0);
});

test("the history sorts by subject from its header and pages on in that order", async ({ page }) => {
  await signIn(page, "viewer");
  await page.locator(".mainnav").getByRole("link", { name: "History", exact: true }).click();
  await hydrated(page);
  const subjects = async () => page.locator("#history-table tbody tr td:nth-child(3)").allTextContents();
  // Byte order, as the store compares the names.
  const sorted = (names: string[]) => [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  await page.locator("#history-table thead a[data-sort=subject]").click();
  await expect(page).toHaveURL(/sort=subject&order=oldest/);
  await expect(page.locator("#history-table thead th[aria-sort=ascending]")).toContainText("Subject");
  await expect(page.locator("#history-shown")).toContainText("by subject from A");
  const first = await subjects();
  expect(first.length).toBe(50);
  expect(sorted(first)).toEqual(first);
  // The next page goes on from the last name of this one.
  await page.getByRole("link", { name: "Next →" }).click();
  await expect(page).toHaveURL(/after=\d+\.\d+/);
  await expect(page.getByRole("link", { name: "← Previous" })).toBeVisible();
  const second = await subjects();
  expect(sorted(second)).toEqual(second);
  expect(second[0] >= first[first.length - 1]).toBe(true);
  // The header again: from Z.
  await page.locator("#history-table thead a[data-sort=subject]").click();
  await expect(page).toHaveURL(/sort=subject&order=newest/);
  const fromZ = await subjects();
  expect(sorted(fromZ).reverse()).toEqual(fromZ);
  expect(fromZ[0] >= second[second.length - 1]).toBe(true);
});

test("a bad filter names the field and the allowed values", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto("/history?from=soon");
  await expect(page.locator("#form-error")).toContainText("from");
  const res = await page.request.get("/api/history/export?format=csv&engine=dns");
  expect(res.status()).toBe(422);
  expect((await res.json()).field).toBe("engine");
});

test("an event reads as words, its raw JSON written in when its disclosure opens", async ({ page }) => {
  await signIn(page, "viewer");
  await page.locator(".mainnav").getByRole("link", { name: "History" }).click();
  await expect(page.locator("#history-table tbody tr").first()).toBeVisible();
  await hydrated(page);
  // The words: no JSON object in any row's line (the tables of servers read through templates).
  for (const why of await page.locator("#history-table td.details .why").allTextContents()) {
    expect(why).not.toMatch(/\{"/);
  }
  // The page carries no raw JSON until a disclosure opens; then it is the event's JSON.
  const raw = page.locator("#history-table tbody tr").first().locator("details.raw");
  await expect(raw.locator("pre")).toHaveText("");
  await raw.locator("summary").click();
  await expect(raw.locator("pre")).not.toHaveText("");
  const text = (await raw.locator("pre").textContent()) ?? "";
  expect(typeof JSON.parse(text)).toBe("object");
});

test("on a phone an opened JSON disclosure scrolls inside its table, not the page", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "viewer");
  await page.getByRole("button", { name: "Menu" }).click();
  await page.locator(".mainnav").getByRole("link", { name: "History" }).click();
  await expect(page.locator("#history-table tbody tr").first()).toBeVisible();
  await hydrated(page);
  // Rows' JSON opened until one is longer than a phone is wide, so the check below means something.
  const rows = page.locator("#history-table tbody tr");
  let longest = 0;
  for (let i = 0; i < Math.min(await rows.count(), 20) && longest <= 60; i++) {
    const raw = rows.nth(i).locator("details.raw");
    await raw.locator("summary").click();
    await expect(raw.locator("pre")).not.toHaveText("");
    longest = Math.max(longest, ((await raw.locator("pre").textContent()) ?? "").length);
  }
  expect(longest).toBeGreaterThan(60);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
});
