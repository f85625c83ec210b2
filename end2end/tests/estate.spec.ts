import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";

test("the GSLB and autoscale sections show the scenario's estate, live", async ({ page }) => {
  await signIn(page, "viewer");
  await page.locator(".mainnav").getByRole("link", { name: "GSLB" }).click();
  await expect(page.getByRole("heading", { name: "GSLB", exact: true })).toBeVisible();
  await expect(page.locator('#topology g[data-site="SiteP1"]')).toBeVisible();
  await expect(page.locator("#site-table")).toContainText("Child_Site4");
  await page.locator(".mainnav").getByRole("link", { name: "Autoscale" }).click();
  await expect(page.getByRole("heading", { name: "Autoscale", exact: true })).toBeVisible();
  await expect(page.locator("#group-table [data-group=asg_arn]")).toBeVisible();
  await expect(page.locator("main")).not.toContainText("not simulated yet");
});
