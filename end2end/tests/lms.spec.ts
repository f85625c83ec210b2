import { expect, test, type Page } from "@playwright/test";
import { hydrated, signIn, confirmAction } from "./helpers";

async function serverLoad(page: Page, host: string): Promise<number> {
  await page.goto(`/lms/servers/${host}`);
  await hydrated(page);
  const text = (await page.locator("#server-now [data-col=load]").textContent()) ?? "";
  return Number(text.split("·")[0].trim());
}

function cpuRule(page: Page) {
  return page.locator("#rule-editor tr[data-rule=cpu_utilization]");
}

test("an admin edits the Advanced evaluator's CPU thresholds: an invalid value changes nothing, the preview shows the effect, saving changes the load", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, "admin");
  const before = await serverLoad(page, "XA-LYO-01");

  await page.goto("/lms/evaluators");
  await hydrated(page);
  const advanced = page.locator("#evaluator-table [data-evaluator=Advanced]");
  await expect(advanced).toContainText("CPU Utilization (%) (low 10 / high 90)");
  await advanced.locator("[data-action=edit]").click();
  await expect(page.locator("#evaluator-editor")).toBeVisible();
  // The editor comes into view with its first field focused.
  await expect(page.locator("#evaluator-editor input[name=name]")).toBeFocused();
  await expect(page.locator("#evaluator-editor h2")).toBeInViewport();

  // Out of range: refused with the field and the range; nothing stored.
  await cpuRule(page).locator("input[name=high]").fill("150");
  await page.locator("#evaluator-save").click();
  await expect(page.locator("#editor-error")).toContainText("rules[0].high: must be a whole number between 0 and 100");
  await page.reload();
  await hydrated(page);
  await expect(advanced).toContainText("low 10 / high 90");

  // low >= high is refused by the engine, naming the field.
  await advanced.locator("[data-action=edit]").click();
  await cpuRule(page).locator("input[name=low]").fill("50");
  await cpuRule(page).locator("input[name=high]").fill("40");
  await page.locator("#evaluator-preview").click();
  await expect(page.locator("#preview-error")).toContainText("high");

  // A tight CPU range: the preview shows XA-LYO-01 (Advanced) loaded higher, before saving.
  await cpuRule(page).locator("input[name=low]").fill("0");
  await cpuRule(page).locator("input[name=high]").fill("5");
  await page.locator("#evaluator-preview").click();
  const row = page.locator("#preview-table tr[data-server=XA-LYO-01]");
  await expect(row).toBeVisible();
  const now = Number(await row.locator("[data-col=now]").textContent());
  const edited = Number(await row.locator("[data-col=edited]").textContent());
  expect(edited).toBeGreaterThan(now);
  await expect(page.locator("#preview-placements")).toContainText("launches");
  await expect(advanced).toContainText("low 10 / high 90");

  await page.locator("#evaluator-save").click();
  await expect(page.locator("#evaluator-editor")).toHaveCount(0);
  await expect(advanced).toContainText("low 0 / high 5");
  await expect.poll(() => serverLoad(page, "XA-LYO-01"), { timeout: 20_000 }).toBeGreaterThan(before);

  await page.goto("/audit");
  await expect(page.locator("main")).toContainText("lms.evaluator_save");
});

test("an operator cannot edit evaluators, and a forged save gets 403", async ({ page }) => {
  await signIn(page, "operator");
  await page.goto("/lms/evaluators");
  await hydrated(page);
  await expect(page.locator("#evaluator-table [data-evaluator=Default]")).toBeVisible();
  await expect(page.locator("[data-action=edit]")).toHaveCount(0);
  await expect(page.locator("#evaluator-new")).toHaveCount(0);
  const forged = await page.request.post("/api/lms_evaluator_save", {
    form: { name: "Sneaky", rules: '[{"rule":"server_user_load","users":"5"}]' },
  });
  expect(forged.status()).toBe(403);
  expect(await forged.text()).toContain("admin");
});

test("an operator starts a logon storm; placements explain themselves and the dynamic store shows the product's notation", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, "operator");
  await page.goto("/lms");
  await hydrated(page);
  await expect(page.locator("#zone-table [data-zone=z-paris] [data-col=collector]")).toHaveText("XA-PAR-01");
  // Launches handled so far: placed + refused (load throttling may refuse some in a storm).
  const handled = async () =>
    ((await page.locator("#farm-placements").textContent()) ?? "0 / 0")
      .split("/")
      .map((n) => Number(n.trim()))
      .reduce((a, b) => a + b, 0);
  const before = await handled();
  await page.locator("#storm-form input[name='input[count]']").fill("40");
  await page.locator("#storm-form input[name='input[over]']").fill("1m");
  await page.locator("#storm-form select[name='input[app]']").selectOption("Word");
  await page.locator("#storm-start").click();
  await expect(page.locator("#action-error")).toBeEmpty();
  await expect.poll(async () => (await handled()) - before, { timeout: 30_000 }).toBeGreaterThanOrEqual(40);

  await page.goto("/lms/servers/XA-PAR-02");
  await hydrated(page);
  await expect(page.locator("#placement-table tbody tr").first()).toContainText(/lowest load index|skipped|reconnect/);
  await expect(page.locator("#rule-loads [data-rule=b]")).toBeVisible();

  await page.goto("/lms/store");
  await hydrated(page);
  await expect(page.locator("#load-table [data-server=XA-PAR-02] [data-col=rule_loads]")).toHaveText(/^d:[0-9a-f]+;b:[0-9a-f]+;$/);
  await expect(page.locator("#qfarm")).toContainText("XA-PAR-02");

  // Reboot: the server goes down, then starts.
  await page.goto("/lms/servers/XA-LYO-02");
  await hydrated(page);
  // A live re-draw already on its way when the button is clicked can replace the button and
  // drop its question (a race the console has yet to close): click again until it shows.
  await expect(async () => {
    if (!(await page.getByRole("alertdialog").isVisible())) await page.locator("#reboot").click();
    await expect(page.getByRole("alertdialog")).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  // The storm still runs at 600x: the question stays while the page's live data changes.
  await page.waitForTimeout(2_500);
  await expect(page.getByRole("alertdialog")).toBeVisible();
  await confirmAction(page);
  await expect(page.locator("main")).toContainText(/down|starting/, { timeout: 10_000 });
});

test("an admin assigns an evaluator by pattern: a pattern that matches nothing changes nothing, one that matches assigns every server it names", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/lms");
  await hydrated(page);
  await page.locator("nav.tabs a[href='/lms/evaluators']").click();
  await hydrated(page);
  const form = page.locator("#assign-form");
  const advanced = page.locator("#evaluator-table [data-evaluator=Advanced]");
  await expect(advanced).not.toContainText("XA-LYO-02");
  await form.locator("select").first().selectOption("Advanced");

  await form.locator("input[name=servers]").fill("XA-ZZZ-*");
  await form.locator("#assign-run").click();
  await expect(page.locator("#assign-error")).toContainText("servers: `XA-ZZZ-*` matches no server");
  await expect(advanced).not.toContainText("XA-LYO-02");

  await form.locator("input[name=servers]").fill("XA-LYO-0*");
  await form.locator("#assign-run").click();
  await expect(advanced.locator("td").nth(2)).toHaveText("XA-LYO-01, XA-LYO-02, XA-LYO-03");
  await expect(page.locator("#assign-error")).toBeEmpty();

  // Back as the scenario has them, for the journeys that follow.
  await form.locator("select").first().selectOption("Default");
  await form.locator("input[name=servers]").fill("XA-LYO-02");
  await form.locator("#assign-run").click();
  await expect(advanced.locator("td").nth(2)).toHaveText("XA-LYO-01, XA-LYO-03");
  await form.locator("select").first().selectOption("Heavy apps");
  await form.locator("input[name=servers]").fill("XA-LYO-03");
  await form.locator("#assign-run").click();
  await expect(advanced.locator("td").nth(2)).toHaveText("XA-LYO-01");
});

test("the black-hole A/B: the rebooted server swallows the storm only without the fix", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, "operator");
  await page.goto("/lms/black-hole");
  await hydrated(page);
  await page.locator("#ab-form input[name=server]").fill("XA-PAR-02");
  await page.locator("#ab-form input[name=users]").fill("60");
  await page.locator("#ab-run").click();
  const off = page.locator("#ab-fix-off [data-col=on_rebooted]");
  const on = page.locator("#ab-fix-on [data-col=on_rebooted]");
  await expect(off).toBeVisible({ timeout: 30_000 });
  const offCount = Number(await off.getAttribute("data-value"));
  const onCount = Number(await on.getAttribute("data-value"));
  expect(offCount).toBeGreaterThan(onCount);
  await expect(page.locator("#ab-fix-off svg path.hot")).toHaveCount(1);
});

test("a viewer sees the farm and the overview card but no actions, and a forged action gets 403", async ({ page }) => {
  await signIn(page, "viewer");
  await expect(page.locator("#lms-card")).toContainText("data collector");
  await page.goto("/lms");
  await hydrated(page);
  await expect(page.locator("#server-table [data-server=XA-PAR-01]")).toContainText("(DC)");
  await expect(page.locator("table.facts")).toContainText("(assumed)");
  await expect(page.locator("table.facts")).toContainText("(documented)");
  await expect(page.locator("#lms-actions")).toHaveCount(0);
  await page.locator("#server-table a[data-sort=load]").click();
  await expect(page).toHaveURL(/sort=load/);
  const forged = await page.request.post("/api/lms_act", { form: { "input[op]": "reboot", "input[server]": "XA-PAR-01" } });
  expect(forged.status()).toBe(403);
});

test("a viewer opens a load band's servers from the overview tile, then narrows them by name; the filters stay on the sort links", async ({ page }) => {
  await signIn(page, "viewer");
  // The up band with the most servers now (the demo's loads move with its storms).
  const bands = page.locator("#lms-tiles li[data-key^=band_]");
  await expect(bands).toHaveCount(5);
  let band = 0;
  let most = -1;
  for (let i = 0; i < 5; i++) {
    const count = Number(await bands.nth(i).getAttribute("data-count"));
    if (count > most) [band, most] = [i, count];
  }
  const [low, high] = [[0, 2499], [2500, 4999], [5000, 7499], [7500, 9999], [10000, 10000]][band];
  await bands.nth(band).getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/lms\\?band=band_${band}&sort=load&desc=1`));
  await hydrated(page);
  await expect(page.locator("#server-filters select[name=band]")).toHaveValue(`band_${band}`);
  const rows = page.locator("#server-table tbody tr");
  await expect(rows.first()).toBeVisible();
  for (const load of await rows.locator("[data-col=load]").allTextContents()) {
    expect(Number(load)).toBeGreaterThanOrEqual(low);
    expect(Number(load)).toBeLessThanOrEqual(high);
  }
  // Narrowed to the first row's site (`XA-LYO-02` → `lyo`): a case-insensitive substring.
  const first = (await rows.first().locator("td.mono a").textContent()) ?? "";
  const site = first.split("-")[1].toLowerCase();
  await page.locator("#server-filters input[name=q]").fill(site);
  await page.locator("#server-filters button[type=submit]").click();
  await expect(page).toHaveURL(new RegExp(`q=${site}`));
  await expect(page).toHaveURL(new RegExp(`band=band_${band}`));
  await expect(page.locator("#server-filters input[name=q]")).toHaveValue(site);
  await expect(rows.first()).toBeVisible();
  for (const host of await rows.locator("td.mono a").allTextContents()) {
    expect(host.toLowerCase()).toContain(site);
  }
  await expect(page.locator("#server-table a[data-sort=host]")).toHaveAttribute("href", new RegExp(`q=${site}&band=band_${band}`));
  // A band the console does not know is refused, naming the field.
  const refused = await page.request.post("/api/lms_servers", { form: { band: "band_9" } });
  expect(refused.status()).toBe(422);
  expect(await refused.text()).toContain("band");
});

test("a viewer audits the two load-index formulas from the dynamic store, then opens a server with both indexes", async ({ page }) => {
  await signIn(page, "viewer");
  await page.locator("#mainnav a[href='/lms']").click();
  await page.getByRole("link", { name: "Dynamic store" }).click();
  await expect(page).toHaveURL(/\/lms\/store$/);
  await hydrated(page);
  const audit = page.locator("#formula-audit");
  // One row per server of the load table, each with both indexes.
  const servers = await page.locator("#load-table tbody tr").count();
  await expect(audit.locator("#audit-indexes tbody tr")).toHaveCount(servers);
  await expect(audit).toContainText("In force: seed (sum).");
  await expect(audit.locator("#audit-indexes tbody tr").first().locator("[data-col=average]")).toHaveText(/^\d+$/);

  // A number out of range is refused by the form itself, naming the bound, and nothing is
  // asked: the last answer stays (the server's own refusal is the router tests').
  const launches = audit.locator("input[name=audit-launches]");
  const summary = audit.locator("#audit-summary");
  const before = await summary.textContent();
  await launches.fill("5000");
  await audit.getByRole("button", { name: "Audit" }).click();
  expect(await launches.evaluate((e) => (e as HTMLInputElement).validationMessage)).toContain("1000");
  await expect(summary).toHaveText(before ?? "");
  await expect(audit.locator("p.error")).toHaveCount(0);

  await launches.fill("30");
  await expect(launches).toHaveValue("30");
  await audit.locator("select[name=audit-app]").selectOption("Word");
  await audit.getByRole("button", { name: "Audit" }).click();
  await expect(summary).toContainText(/next 30 launches of Word/);
  // Every launch is somewhere under each formula: placed on a server or refused.
  const column = async (n: number) => {
    const cells = await audit.locator(`#audit-placements tbody tr td:nth-child(${n})`).allTextContents();
    return cells.map(Number).reduce((a, b) => a + b, 0);
  };
  const refused = audit.locator("#audit-placements tbody tr").last();
  await expect(refused).toContainText("Refused");
  expect(await column(2)).toBe(30);
  expect(await column(3)).toBe(30);

  const first = audit.locator("#audit-indexes tbody tr").first();
  const host = (await first.getAttribute("data-server")) ?? "";
  await first.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/lms/servers/${host}$`));
  await expect(page.locator("#server-now [data-col=index_sum]")).toHaveText(/^\d+$/);
  await expect(page.locator("#server-now")).toContainText("Index, seed formula: max + 5 % of the sum (in force)");
  await expect(page.locator("#server-now")).toContainText("Index, 7.x formula: max + 5 % of the average");
});

test("a user's session is found among the farm's sessions, newest first", async ({ page }) => {
  await signIn(page, "operator");
  // Sessions to find: a small storm, placed as the demo's clock runs.
  const storm = await page.request.post("/api/lms_act", {
    form: { "input[op]": "logon_storm", "input[count]": "12", "input[over]": "0s", "input[app]": "Word" },
  });
  expect(storm.status()).toBe(200);
  await page.locator(".mainnav").getByRole("link", { name: "Load management", exact: true }).click();
  await hydrated(page);
  await page.locator("nav.tabs").getByRole("link", { name: "Dynamic store" }).click();
  await expect(page).toHaveURL(/\/lms\/store$/);
  await hydrated(page);
  const table = page.locator("#connected-sessions");
  const rows = table.locator("tbody tr");
  await expect(rows.first()).toBeVisible({ timeout: 20_000 });
  // Newest first: two clicks on the "Since" header.
  await table.locator("th a[data-sort=since]").click();
  await expect(page).toHaveURL(/ssort=since&sdesc=0/);
  await page.locator("#connected-sessions th a[data-sort=since]").click();
  await expect(page).toHaveURL(/ssort=since&sdesc=1/);
  const since = (await rows.locator("[data-col=since]").evaluateAll((tds) => tds.map((td) => Number(td.getAttribute("data-t-ms")))));
  expect([...since].sort((a, b) => b - a)).toEqual(since);
  // The newest session's user, typed in the search: that user's sessions only, order kept.
  const user = (await rows.first().getAttribute("data-user")) ?? "";
  // The tables refresh live while the storm places sessions: what is typed stays typed.
  const refreshed = page.waitForResponse(
    (r) => r.url().includes("/lms/store") && !!r.request().headers()["islands-router"],
    { timeout: 20_000 },
  );
  await page.locator("#session-filters input[name=user]").fill(user);
  await refreshed;
  await expect(page.locator("#session-filters input[name=user]")).toHaveValue(user);
  await page.locator("#session-filters button[type=submit]").click();
  await expect(page).toHaveURL(new RegExp(`user=${user}&ssort=since&sdesc=1`));
  await expect(rows.first()).toHaveAttribute("data-user", user);
  for (const name of await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-user") ?? ""))) {
    expect(name).toContain(user);
  }
  await expect(table.locator("th a[data-sort=server]")).toHaveAttribute("href", new RegExp(`user=${user}`));
});

test("the dynamic store's load table sorts by a column's header, loads by their value", async ({ page }) => {
  await signIn(page, "viewer");
  await page.locator("#mainnav a[href='/lms']").click();
  await page.getByRole("link", { name: "Dynamic store" }).click();
  await hydrated(page);
  const table = page.locator("#load-table");
  // The busiest first at a first click: the hex loads read by their value.
  await table.locator("thead a[data-sort=load]").click();
  await expect(page).toHaveURL(/lsort=load&ldesc=1/);
  await expect(table.locator("thead th[aria-sort=descending]")).toContainText("Load");
  const loads = async () => (await table.locator("tbody [data-col=load]").allTextContents()).map((l) => parseInt(l, 16));
  const busiest = await loads();
  expect(busiest.length).toBeGreaterThan(1);
  expect([...busiest].sort((a, b) => b - a)).toEqual(busiest);
  // The same header again turns the table round; the host search keeps the order.
  await table.locator("thead a[data-sort=load]").click();
  await expect(page).toHaveURL(/lsort=load&ldesc=0/);
  const quietest = await loads();
  expect([...quietest].sort((a, b) => a - b)).toEqual(quietest);
  await page.locator("#load-table-filters input[name=q]").fill("XA-PAR");
  await page.locator("#load-table-filters").getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/q=XA-PAR/);
  await expect(page).toHaveURL(/lsort=load/);
  for (const host of await table.locator("tbody tr").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-server") ?? "")))
    expect(host).toMatch(/^XA-PAR/);
  const paris = await loads();
  expect([...paris].sort((a, b) => a - b)).toEqual(paris);
});
