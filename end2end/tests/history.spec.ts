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
  const total = Number(await page.locator("#history-total").getAttribute("data-total"));
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

test("a bad filter names the field and the allowed values", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto("/history?from=soon");
  await expect(page.locator("#form-error")).toContainText("from");
  const res = await page.request.get("/api/history/export?format=csv&engine=dns");
  expect(res.status()).toBe(422);
  expect((await res.json()).field).toBe("engine");
});
