import { expect, test, type Page } from "@playwright/test";
import { hydrated, signIn } from "./helpers";
import { OwnServer } from "./own-server";

/** The scale-outs drawn on a zone's timeline of the group page. */
async function scaleOuts(page: Page, zone: string): Promise<number> {
  return Number(await page.locator(`#timeline-${zone}`).getAttribute("data-scale-outs"));
}

test("an admin edits the maximum nodes: an invalid value changes nothing, the what-if shows the edited timeline, Apply changes the group and is audited", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, "admin");
  await page.goto("/autoscale/asg_arn/edit");
  await hydrated(page);
  const editor = page.locator("#autoscale-editor");
  await expect(editor).toBeVisible();
  await expect(page.locator("#in-force [data-col=nodes]")).toHaveText("1–4 nodes");
  const memory = page.locator("#threshold-editor tr[data-threshold=memory]");

  // Maximum under the minimum: refused next to the field, nothing stored.
  await memory.locator("input[name=max]").fill("30");
  await page.locator("#apply").click();
  await expect(page.locator('[data-error-for="thresholds[0].max"]')).toHaveText(
    "thresholds[0].max: must be greater than min (40); got 30",
  );
  await expect(page.locator("#save-ok")).toHaveCount(0);
  await page.reload();
  await hydrated(page);
  await expect(page.locator("#in-force [data-col=nodes]")).toHaveText("1–4 nodes");
  await expect(memory.locator("input[name=max]")).toHaveValue("85");

  // A new maximum: the what-if replays the last hour beside what happened.
  await editor.locator("input[name=max_nodes]").fill("6");
  await editor.locator("input[name=hours]").fill("1");
  await page.locator("#what-if").click();
  await expect(page.locator("#what-if-result")).toBeVisible({ timeout: 20_000 });
  await expect(page.locator("#what-if-real-eu-west-1a")).toHaveAttribute("data-max-nodes", "4");
  await expect(page.locator("#what-if-edited-eu-west-1a")).toHaveAttribute("data-max-nodes", "6");
  await expect(page.locator("#what-if-counts tr[data-zone=eu-west-1a]")).toBeVisible();
  await expect(page.locator("#what-if-time")).toContainText("ms server-side");
  await expect(page.locator("#in-force [data-col=nodes]")).toHaveText("1–4 nodes");

  // Out of range hours are refused by the server, naming the field.
  await editor.locator("input[name=hours]").fill("500");
  await page.locator("#what-if").click();
  await expect(page.locator('[data-error-for="hours"]')).toContainText("between 1 and 168");

  await page.locator("#apply").click();
  await expect(page.locator("#save-ok")).toBeVisible();
  await expect(page.locator("#in-force [data-col=nodes]")).toHaveText("1–6 nodes");

  await page.goto("/autoscale/asg_arn");
  await hydrated(page);
  await expect(page.locator("#group-params [data-col=max_nodes]")).toHaveText("6");
  await expect(page.locator("#timeline-eu-west-1a")).toHaveAttribute("data-max-nodes", "6");

  // The admin reaches the audit log as a person does, from the nav.
  await page.locator(".mainnav").getByRole("link", { name: "Audit", exact: true }).click();
  await expect(page).toHaveURL(/\/audit$/);
  const row = page.locator("#audit-table tbody tr", { hasText: "autoscale.group_settings" }).first();
  await expect(row).toContainText("admin");
  // The arguments in words, their JSON one click away.
  const args = row.locator("td[data-col=arguments]");
  await expect(args.locator(".why")).toContainText("group asg_arn");
  await expect(args.locator(".why")).toContainText("max nodes 6");
  await expect(args.locator(".why")).not.toContainText("{");
  await hydrated(page);
  await args.locator("summary").click();
  await expect(args.locator("pre")).toContainText('"max_nodes":"6"');
});

test("an operator injects a spike in one zone and sees the scale-out on its timeline, hands the zone back to its workload model, then switches the distribution after reading the consequences", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, "operator");
  await page.goto("/autoscale/asg_web");
  await hydrated(page);
  await expect(page.locator("#timeline-eu-west-1b")).toBeVisible();
  const before = await scaleOuts(page, "eu-west-1b");

  const form = page.locator("#inject-form");
  await form.locator("select[name='input[zone]']").selectOption("eu-west-1b");
  await form.locator("input[name='input[level]']").fill("400");
  await form.locator("select[name='input[shape]']").selectOption("spike");
  await form.locator("input[name='input[duration_min]']").fill("30");
  await page.locator("#inject").click();
  await expect(page.locator("#action-error")).toBeEmpty();
  await expect(page.locator("#act-result")).toContainText("Done: 1 event(s)");

  // One statistics collection per simulated minute (a second at 60x): watch time 2 min.
  await expect.poll(() => scaleOuts(page, "eu-west-1b"), { timeout: 30_000 }).toBeGreaterThan(before);
  await expect(page.locator("#timeline-eu-west-1b [data-marker=scale_out]").first()).toBeAttached();
  await expect(page.locator("#timeline-eu-west-1b [data-breach=above]").first()).toBeAttached();
  await expect(page.locator("#decision-table")).toContainText("scale-out");
  await expect(page.locator("#nodes-eu-west-1b tbody tr").nth(2)).toBeAttached();

  // The spike shows on the zone until the operator hands the zone back to its workload model.
  await expect(page.locator("#zone-eu-west-1b [data-col=injected]")).toContainText("spike of 400 %");
  await page.locator("#injections li[data-zone=eu-west-1b] button.release").click();
  await expect(page.locator("#zone-eu-west-1b [data-col=injected]")).toHaveCount(0);
  await expect(page.locator("#decision-table tr[data-kind='load.released']").first()).toContainText(
    "spike of 400 % in eu-west-1b ended",
  );

  // NLB → DNS: the confirmation lists what changes; cancelling changes nothing.
  await expect(page.locator("#group-mode")).toHaveText("NLB");
  await page.locator("#switch-mode").click();
  await expect(page.locator("#switch-confirm")).toContainText("public IP");
  await page.locator("#switch-confirm").getByRole("button", { name: "Cancel" }).click();
  await expect(page.locator("#switch-confirm")).toBeHidden();
  await page.locator("#switch-mode").click();
  await page.locator("#switch-confirm-yes").click();
  await expect(page.locator("#switch-confirm")).toBeHidden();
  await expect(page.locator("#group-mode")).toHaveText("DNS");
  await expect(page.locator("#zone-eu-west-1a [data-col=dns]")).toContainText("asg_web");
});

test("a viewer sees the autoscale pages and the overview card but no action forms, and forged calls get 403", async ({ page }) => {
  await signIn(page, "viewer");
  await expect(page.locator("#autoscale-card")).toContainText("nodes in service");
  await page.goto("/autoscale");
  await hydrated(page);
  await expect(page.locator("#group-table [data-group=asg_arn]")).toBeVisible();
  await page.locator("#group-table [data-group=asg_arn] a").first().click();
  await expect(page).toHaveURL(/\/autoscale\/asg_arn$/);
  await expect(page.locator("#timeline-eu-west-1a")).toBeVisible();
  await expect(page.locator("#group-settings")).toContainText("(documented)");
  await expect(page.locator("#zone-eu-west-1a .as-records")).toHaveCount(1);
  await expect(page.locator("#autoscale-actions")).toHaveCount(0);
  await expect(page.locator("#edit-link")).toHaveCount(0);
  await page.goto("/autoscale/asg_arn/edit");
  await hydrated(page);
  await expect(page.locator("#editor-denied")).toBeVisible();
  await expect(page.locator("#autoscale-editor")).toHaveCount(0);

  const inject = await page.request.post("/api/autoscale_act", {
    form: { "input[op]": "load_inject", "input[group]": "asg_arn", "input[level]": "500" },
  });
  expect(inject.status()).toBe(403);
  expect(await inject.text()).toContain("operator");
  const save = await page.request.post("/api/autoscale_save", {
    form: { group: "asg_arn", params: "{}" },
  });
  expect(save.status()).toBe(403);
  const whatIf = await page.request.post("/api/autoscale_what_if", {
    form: { group: "asg_arn", params: "{}", hours: "1" },
  });
  expect(whatIf.status()).toBe(403);
});

test("a viewer opens a cluster state's groups from the overview tile, then sorts and searches them; a bad filter is named", async ({ browser }) => {
  // On a console of the test's own with its clock paused: on the shared one the demo's
  // clusters move between states with the load, and a group read in a state could have left
  // it by the time it is searched for there.
  const server = await OwnServer.create();
  const context = await browser.newContext();
  try {
    await server.start(["--speed", "paused"]);
    const page = await context.newPage();
    await signIn(page, "viewer", "/", server.base);
    // The state with the most clusters.
    const tiles = page.locator("#autoscale-tiles li[data-key]");
    await expect(tiles).toHaveCount(6);
    let state = "";
    let most = -1;
    for (const tile of await tiles.all()) {
      const count = Number(await tile.getAttribute("data-count"));
      if (count > most) [state, most] = [(await tile.getAttribute("data-key")) ?? "", count];
    }
    await page.locator(`#autoscale-tiles li[data-key=${state}]`).getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/autoscale\\?state=${state}`));
    await hydrated(page);
    await expect(page.locator("#group-filters select[name=state]")).toHaveValue(state);
    const rows = page.locator("#group-table tbody tr[data-group]");
    await expect(rows.first()).toBeVisible();
    for (const row of await rows.all()) {
      await expect(row.locator(`[data-state=${state}]`).first()).toBeVisible();
    }
    // Sorted by nodes in service, largest first: two clicks on the header, the filter kept.
    await page.locator("#group-table th a[data-sort=nodes]").click();
    await expect(page).toHaveURL(new RegExp(`sort=nodes&desc=0&state=${state}`));
    await page.locator("#group-table th a[data-sort=nodes]").click();
    await expect(page).toHaveURL(new RegExp(`sort=nodes&desc=1&state=${state}`));
    await expect(page.locator("#group-table th[aria-sort=descending] a[data-sort=nodes]")).toBeVisible();
    // Searched by the first row's name, in capitals: the sort and the state stay.
    const group = (await rows.first().getAttribute("data-group")) ?? "";
    const part = group.split("_")[1].toUpperCase();
    await page.locator("#group-filters input[name=q]").fill(part);
    await page.locator("#group-filters button[type=submit]").click();
    await expect(page).toHaveURL(new RegExp(`q=${part}&state=${state}&sort=nodes&desc=1`));
    await expect(rows.first()).toHaveAttribute("data-group", group);
    for (const name of await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-group") ?? ""))) {
      expect(name.toUpperCase()).toContain(part);
    }
    const refused = await page.request.post(`${server.base}/api/autoscale_list`, { form: { state: "sideways" } });
    expect(refused.status()).toBe(422);
    expect(await refused.text()).toContain("state");
  } finally {
    await context.close();
    await server.stop();
  }
});
