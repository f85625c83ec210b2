import { expect, test, type Page } from "@playwright/test";
import { hydrated, signIn, confirmAction } from "./helpers";

async function setSpeed(page: Page, speed: string) {
  await page.goto("/");
  await hydrated(page);
  await page.locator(`#clock-controls [data-speed='${speed}']`).click();
  await expect(page.locator("#clock-speed")).toHaveText(speed);
}

async function count(page: Page, col: string): Promise<number> {
  return Number(await page.locator(`#rl-counts [data-col=${col}]`).textContent());
}

test("an operator forces an outage on a resource location, watches it, then clears it", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, "operator");
  // The overview counts Paris among the locations Working Normally and does not list it.
  await expect(page.locator("#lhc-tiles [data-key=working_normally]")).toHaveAttribute("data-count", /^[12]$/);
  await expect(page.locator("#lhc-card [data-rl=rl-paris]")).toHaveCount(0);
  await setSpeed(page, "600x");

  await page.goto("/lhc");
  await hydrated(page);
  const row = page.locator("#rl-table [data-rl=rl-paris]");
  await expect(row.locator(".badge")).toHaveText("Working Normally");
  await row.getByRole("link").click();
  await expect(page).toHaveURL(/\/lhc\/rl-paris/);
  await hydrated(page);
  const vdas = Number(await page.locator("#vda-total").getAttribute("data-total"));
  expect(vdas).toBeGreaterThan(0);

  // The confirmation says what will happen before anything does.
  await page.locator("#force-outage").click();
  await expect(page.getByRole("alertdialog")).toContainText("Pending HA");
  await expect(page.locator("h1 .badge")).toHaveAttribute("data-state", "working_normally");
  await confirmAction(page);
  const badge = page.locator("h1 .badge");
  await expect(badge).toHaveAttribute("data-state", /pending_ha|ha_initial|extended_ha/, { timeout: 15_000 });
  // Every VDA moves to the elected secondary within one VDA heartbeat period (300 s simulated).
  await expect.poll(() => count(page, "cloud"), { timeout: 30_000 }).toBe(0);
  await expect(page.locator("#connector-table tr.elected")).toContainText("cc01.paris.example.com");
  await expect(page.locator("#rl-events")).toContainText("rl.ha_state");
  await expect(page.locator("#registrations-chart path[data-series=secondary]")).toHaveAttribute("d", / V/);

  await expect(badge).toHaveAttribute("data-state", "extended_ha", { timeout: 30_000 });

  // The overview lists the outage first among what needs attention, and leads back to it.
  await page.locator(".mainnav").getByRole("link", { name: "Overview" }).click();
  const outage = page.locator("#attention-list li[data-subject=rl-paris][data-severity=critical]");
  await expect(outage).toContainText("Paris");
  await expect(page.locator("#attention-list li").first()).toHaveAttribute("data-severity", "critical");
  // The resource locations' card counts the states and its sparkline counts the changes.
  await expect(page.locator("#lhc-card-summary")).toContainText(/\d+ resource locations · .*(Pending HA|HA Initial|Extended HA)/);
  const sparkline = page.locator(".sparkline[data-engine=lhc]");
  await expect(sparkline.locator("svg")).toHaveAttribute("aria-label", /^lhc: \d+ changes in the last \d+ simulated (hours?|minutes)/);
  expect(Number(await sparkline.getAttribute("data-total"))).toBeGreaterThan(0);
  await expect(outage.getByRole("link")).toHaveAttribute("href", "/lhc/rl-paris");
  await expect(page.locator("#lhc-card li").first()).toHaveAttribute("data-rl", "rl-paris");
  // Two clicks from the overview to the locations in Extended HA: the tile, which filters
  // the list on the server, then the row.
  const tile = page.locator("#lhc-tiles [data-key=extended_ha]");
  await expect(tile).toHaveAttribute("data-count", "1");
  await tile.getByRole("link").click();
  await expect(page).toHaveURL(/\/lhc\?state=extended_ha$/);
  await expect(page.locator("#rl-matching")).toHaveAttribute("data-matching", "1");
  await expect(page.locator("#rl-table tbody tr")).toHaveCount(1);
  await page.locator("#rl-table [data-rl=rl-paris]").getByRole("link").click();
  await expect(page).toHaveURL(/\/lhc\/rl-paris$/);
  await hydrated(page);

  await page.locator("#clear-outage").click();
  await expect(badge).toHaveAttribute("data-state", "working_normally", { timeout: 30_000 });
  await expect.poll(() => count(page, "cloud"), { timeout: 30_000 }).toBe(vdas);
  await expect(page.locator("#rl-events")).toContainText("registrations.purged", { timeout: 30_000 });

  await setSpeed(page, "60x");
});

test("a viewer sees resource locations but no actions, and a forged action gets 403", async ({ page }) => {
  await signIn(page, "viewer");
  await page.locator(".mainnav").getByRole("link", { name: "Resource locations" }).click();
  await hydrated(page);
  // The search runs on the server and the address keeps it.
  await page.getByLabel("Search").fill("tok");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/\/lhc\?q=tok$/);
  await expect(page.locator("#rl-table tbody tr")).toHaveCount(1);
  await expect(page.locator("#rl-table tbody tr")).toHaveAttribute("data-rl", "rl-tokyo");
  await expect(page.locator("#rl-matching")).toHaveText("1 of 2 resource locations match");
  // A heading sorts, keeping the search.
  await page.locator("#rl-table th a[data-sort=name]").click();
  await expect(page).toHaveURL(/\/lhc\?sort=name&desc=0&q=tok$/);
  await expect(page.locator("#rl-table tbody tr")).toHaveCount(1);
  await page.locator("#rl-filters").getByLabel("Search").fill("");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/\/lhc\?sort=name&desc=0$/);
  await expect(page.locator("#rl-table tbody tr")).toHaveCount(2);
  await expect(page.locator("table.facts")).toContainText("Pending HA");
  await expect(page.locator("table.facts")).toContainText("(assumed)");
  await expect(page.locator("table.facts")).toContainText("(documented)");
  await page.goto("/lhc/rl-tokyo");
  await hydrated(page);
  await expect(page.locator("#rl-warnings")).toContainText("not HA-ready");
  await expect(page.locator("#rl-actions")).toHaveCount(0);
  const forged = await page.request.post("/api/lhc_act", {
    form: { op: "force_outage", resource_location: "rl-tokyo" },
  });
  expect(forged.status()).toBe(403);
  await page.reload();
  await expect(page.locator("#connector-table")).not.toContainText("forced");
});

test("the VDA table filters on the server and names a bad filter", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto("/lhc/rl-paris?kind=pooled_vdi");
  await hydrated(page);
  await expect(page.locator("#vda-table tbody tr").first()).toContainText("pooled_vdi");
  for (const kind of await page.locator("#vda-table tbody tr td:nth-child(2)").allTextContents()) {
    expect(kind).toBe("pooled_vdi");
  }
  // Sorted by sessions on the server, the most first, the filter kept.
  await page.locator("#vda-table th a[data-sort=sessions]").click();
  await expect(page).toHaveURL(/\/lhc\/rl-paris\?sort=sessions&desc=1&kind=pooled_vdi$/);
  await expect(page.locator("#vda-table th[aria-sort=descending]")).toContainText("Sessions");
  const sessions = (await page.locator("#vda-table tbody tr td:nth-child(5)").allTextContents()).map((s) => Number(s.split("/")[0]));
  expect(sessions.length).toBeGreaterThan(1);
  expect([...sessions].sort((a, b) => b - a)).toEqual(sessions);
  for (const kind of await page.locator("#vda-table tbody tr td:nth-child(2)").allTextContents()) {
    expect(kind).toBe("pooled_vdi");
  }
  await page.goto("/lhc/rl-paris?maintenance=perhaps");
  await expect(page.locator("#form-error")).toContainText("maintenance");
});

test("a viewer sorts a resource location's VDAs by kind, delivery group and maintenance", async ({ page }) => {
  await signIn(page, "viewer");
  await page.locator(".mainnav").getByRole("link", { name: "Resource locations", exact: true }).click();
  await hydrated(page);
  await page.locator("main a[href='/lhc/rl-paris']").first().click();
  await expect(page).toHaveURL(/\/lhc\/rl-paris$/);
  await hydrated(page);
  const column = (n: number) => page.locator(`#vda-table tbody tr td:nth-child(${n})`).allTextContents();

  // By kind: from A (Paris's multi-session VDAs first), then from Z.
  await page.locator("#vda-table th a[data-sort=kind]").click();
  await expect(page).toHaveURL(/\/lhc\/rl-paris\?sort=kind&desc=0$/);
  await expect(page.locator("#vda-table th[aria-sort=ascending]")).toContainText("Kind");
  const kinds = await column(2);
  expect(kinds[0]).toBe("multi_session");
  expect([...kinds].sort()).toEqual(kinds);
  await page.locator("#vda-table th a[data-sort=kind]").click();
  await expect(page.locator("#vda-table th[aria-sort=descending]")).toContainText("Kind");
  const fromZ = await column(2);
  expect(fromZ[0]).not.toBe("multi_session");
  expect([...fromZ].sort().reverse()).toEqual(fromZ);

  // By delivery group, from A.
  await page.locator("#vda-table th a[data-sort=group]").click();
  await expect(page.locator("#vda-table th[aria-sort=ascending]")).toContainText("Delivery group");
  const groups = await column(3);
  expect(groups.length).toBeGreaterThan(1);
  expect([...groups].sort()).toEqual(groups);

  // By maintenance: those in maintenance first at a first click.
  await page.locator("#vda-table th a[data-sort=maintenance]").click();
  await expect(page.locator("#vda-table th[aria-sort=descending]")).toContainText("Maintenance");
  const maintenance = await column(6);
  const firstOut = maintenance.indexOf("");
  expect(maintenance.slice(firstOut === -1 ? maintenance.length : firstOut).every((m) => m === "")).toBe(true);
});
