import { expect, test } from "@playwright/test";
import { hydrated, signIn, confirmAction } from "./helpers";

const child = (page: import("@playwright/test").Page, name: string) =>
  page.locator(`#topology g[data-site="${name}"]`);

test("an operator takes a parent down: its child is re-drawn under the backup parent, then returns when the parent is restored", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, "operator");
  await page.goto("/gslb");
  await hydrated(page);
  await expect(child(page, "Child_Site1")).toHaveAttribute("data-parent", "SiteP1");
  await expect(child(page, "Child_Site1")).not.toHaveClass(/adopted/);

  const p1 = page.locator('#site-table tr[data-site="SiteP1"]');
  await p1.locator("button[data-act=down]").click();
  await confirmAction(page);
  await expect(p1.locator("[data-col=state]")).toHaveText("down");
  // MEP declares SiteP1 DOWN after the keep-alive timeout; SiteP2, first in its backup list,
  // adopts the children.
  await expect(child(page, "Child_Site1")).toHaveAttribute("data-parent", "SiteP2", { timeout: 30_000 });
  await expect(child(page, "Child_Site1")).toHaveClass(/adopted/);
  await expect(child(page, "Child_Site1")).toContainText("adopted from SiteP1");
  // Re-drawn in the browser, and actually drawn (SVG elements, not unknown HTML ones).
  await expect(child(page, "Child_Site1").locator("rect")).toBeVisible();
  await expect(page.locator('#topology g[data-site="SiteP1"]')).toHaveClass(/down/);

  // The MEP links list: SiteP1's links to the other parents are DOWN, its former children
  // are linked to their adopter.
  const tabs = page.locator("nav.tabs");
  await tabs.getByRole("link", { name: "MEP links", exact: true }).click();
  await expect(page).toHaveURL(/\/gslb\/links$/);
  await hydrated(page);
  await page.locator("#link-filters select[name=status]").selectOption("down");
  await page.locator("#link-filters button[type=submit]").click();
  await expect(page).toHaveURL(/\/gslb\/links\?status=down$/);
  await expect(page.locator("#links-table tbody tr")).toHaveCount(2);
  await expect(page.locator('#links-table tr[data-link="SiteP1-SiteP2"] [data-col=status]')).toHaveText("DOWN");
  await expect(page.locator('#links-table tr[data-link="SiteP1-SiteP3"] [data-col=status]')).toHaveText("DOWN");
  await page.locator("#link-filters select[name=status]").selectOption("");
  await page.locator("#link-filters input[name=q]").fill("Child_Site1");
  await page.locator("#link-filters button[type=submit]").click();
  await expect(page.locator('#links-table tr[data-link="SiteP2-Child_Site1"]')).toHaveCount(1);
  await tabs.getByRole("link", { name: "Topology", exact: true }).click();
  await expect(page).toHaveURL(/\/gslb$/);
  await hydrated(page);

  await p1.locator("button[data-act=up]").click();
  await expect(child(page, "Child_Site1")).toHaveAttribute("data-parent", "SiteP1", { timeout: 30_000 });
  await expect(child(page, "Child_Site1")).not.toHaveClass(/adopted/);

  // The child's page tells the story with reasons.
  await page.goto("/gslb/sites/Child_Site1");
  await hydrated(page);
  await expect(page.locator("#adoption-history")).toContainText("adoption.accepted");
  await expect(page.locator("#adoption-history")).toContainText("SiteP2");

  // The audit log is the admin's to read.
  await page.context().clearCookies();
  await signIn(page, "admin");
  await page.goto("/audit");
  await expect(page.locator("#audit-table")).toContainText("gslb.site_down");
  await expect(page.locator("#audit-table")).toContainText("gslb.site_up");
});

test("a guided replay of documented scenario 3 ends with the child migrating from P3 to P2", async ({ page }) => {
  await signIn(page, "operator");
  await page.goto("/gslb/guided");
  await hydrated(page);
  await page.locator('#guided-buttons button[data-scenario="3"]').click();
  const replay = page.locator("#guided-replay");
  await expect(replay).toBeVisible({ timeout: 20_000 });
  const steps = page.locator(".guided-step");
  expect(await steps.count()).toBeGreaterThan(1);
  const last = steps.last();
  await expect(last.locator('g[data-site="Child_Site1"]')).toHaveAttribute("data-parent", "SiteP2");
  await expect(page.locator("main")).toContainText("SiteP3");
});

test("a viewer sees the topology and the resolve panel but cannot act; an admin's CLI import names the bad line", async ({ page, browser }) => {
  await signIn(page, "viewer");
  await page.goto("/gslb");
  await hydrated(page);
  await expect(page.locator("#topology")).toBeVisible();
  await expect(page.locator("#site-table button")).toHaveCount(0);
  await expect(page.locator("#link-form")).toHaveCount(0);
  await page.locator("#resolve").click();
  await expect(page.locator("#resolution")).toContainText("answered by");
  const forged = await page.request.post("/api/gslb_act", {
    form: { "input[op]": "site_down", "input[site]": "SiteP1" },
  });
  expect(forged.status()).toBe(403);

  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, "admin");
  await admin.goto("/gslb/cli");
  await hydrated(admin);
  await expect(admin.locator("#cli-export")).toHaveValue(/add gslb site SiteP1 10\.10\.0\.1/);
  await admin.locator("#cli-import").fill("add gslb site A 10.0.0.1\nset gslb site A -backupParentlist Nowhere\n");
  await admin.locator("#cli-import-go").click();
  await expect(admin.locator("#import-error")).toContainText("line 2");
  await admin.goto("/gslb");
  await expect(admin.locator('#topology g[data-site="SiteP1"]')).toBeVisible();
});
