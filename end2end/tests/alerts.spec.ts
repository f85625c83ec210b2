import { expect, test } from "@playwright/test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { hydrated, signIn } from "./helpers";
import { OwnServer } from "./own-server";

/**
 * One resource location whose cloud link is cut every 10 simulated minutes and restored 5
 * minutes later, for `hours` hours: its HA state flaps.
 */
function flappingLink(hours: number): string {
  let src = `[scenario]
name = "flapping link"

[[lhc.resource_locations]]
id = "rl-lyon"
name = "Lyon"

[[lhc.resource_locations.connectors]]
fqdn = "cc01.lyon.example.com"

[[lhc.resource_locations.connectors]]
fqdn = "cc02.lyon.example.com"
`;
  for (let i = 0; i < hours * 6; i++) {
    for (const [offset, up] of [
      [1, false],
      [6, true],
    ] as const) {
      src += `\n[[actions]]\nat = "${offset + 10 * i}m"\nkind = "cloud_link"\nresource_location = "rl-lyon"\nup = ${up}\n`;
    }
  }
  return src;
}

test("an admin's rule catches a flapping cloud link in the header; an operator acknowledges it and the history shows who and when", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(path.join(tmpdir(), "switchyard-alerts-"));
  const scenario = path.join(dir, "flapping.toml");
  writeFileSync(scenario, flappingLink(12));
  const server = await OwnServer.create();
  const adminContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const operatorContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    await server.start(["--scenario", scenario, "--speed", "paused"]);

    // The admin defines the rules, at 1,440 px.
    const admin = await adminContext.newPage();
    await signIn(admin, "admin", "/", server.base);
    await expect(admin.locator("#header-alerts")).toHaveText("No alerts");
    await admin.locator("nav.mainnav").getByRole("link", { name: "Alerts" }).click();
    await expect(admin).toHaveURL(/\/alerts$/);
    await hydrated(admin);
    await expect(admin.locator("#alerts-none")).toBeVisible();
    await admin.locator("#alert-rules-link").click();
    await expect(admin).toHaveURL(/\/alerts\/rules$/);
    await hydrated(admin);
    const form = admin.locator("#alert-rule-form");

    // A threshold out of range is refused by name, and nothing is saved.
    await form.getByLabel("Name").fill("lyon extended");
    await form.getByLabel("Condition").selectOption("ha_state");
    await form.getByRole("textbox", { name: /HA state/ }).fill("extended_ha");
    await form.getByRole("textbox", { name: /For at least/ }).fill("99999");
    await form.getByRole("button", { name: "Save rule" }).click();
    await expect(admin.locator("#rule-error")).toContainText("for_min");
    await expect(admin.locator("#rule-error")).toContainText("10080");
    await expect(admin.locator("#rules-none")).toBeVisible();

    // "Anything flapping", a warning.
    await form.getByLabel("Name").fill("anything flapping");
    await form.getByLabel("Condition").selectOption("flapping");
    await expect(form.getByRole("textbox", { name: /For at least/ })).toHaveCount(0);
    await form.getByRole("button", { name: "Save rule" }).click();
    await expect(admin.locator("#rule-saved")).toContainText("anything flapping");
    await expect(admin.locator("#rules-table [data-rule='anything flapping']")).toContainText("by admin");

    // The admin starts the clock from the header.
    await admin.getByLabel("Clock speed").selectOption("x600");

    // The operator, on a phone (390 px), sees the alert come up in the header.
    const operator = await operatorContext.newPage();
    await signIn(operator, "operator", "/", server.base);
    const badge = operator.locator("#header-alerts");
    await expect(badge).toHaveText(/^\d+ alerts?$/, { timeout: 90_000 });
    await expect(badge).toHaveClass(/sev-warning/);
    await expect(operator.locator("#attention-list [data-engine=alert]").first()).toContainText(
      "Alert anything flapping",
    );
    await badge.click();
    await expect(operator).toHaveURL(/\/alerts$/);
    await hydrated(operator);
    const firing = operator.locator("#alerts-firing tr[data-rule='anything flapping'][data-subject='rl-lyon']");
    await expect(firing).toContainText("is flapping");
    await firing.getByRole("button", { name: "Acknowledge anything flapping on rl-lyon" }).click();
    await expect(firing).toHaveAttribute("data-acked-by", "operator");
    await expect(firing).toContainText(/by operator at \d{4}-\d\d-\d\dT\d\d:\d\d/);
    const history = operator.locator("#alerts-history tr[data-rule='anything flapping'][data-subject='rl-lyon']").first();
    await expect(history).toContainText(/by operator at \d{4}-\d\d-\d\dT\d\d:\d\d/);
    expect(await operator.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // The acknowledgement is in the audit log, with who and when.
    await admin.locator("nav.mainnav").getByRole("link", { name: "Audit" }).click();
    await expect(admin).toHaveURL(/\/audit$/);
    const row = admin.locator("#audit-table tr", { hasText: "alerts.acknowledge" }).first();
    await expect(row).toContainText("operator");
    await expect(row).toContainText("ok");
  } finally {
    await adminContext.close();
    await operatorContext.close();
    await server.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});
