import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";

test("engine sections show the estate the scenario configures, with its warnings", async ({ page }) => {
  await signIn(page, "viewer");
  await page.getByRole("link", { name: "Resource locations" }).click();
  await expect(page.getByRole("heading", { name: "Resource locations", exact: true }).first()).toBeVisible();
  await expect(page.locator(".warnings")).toContainText("not HA-ready");
  await expect(page.locator("table.facts")).toContainText("assumed");
  await page.getByRole("link", { name: "Autoscale" }).click();
  await expect(page.locator("main")).toContainText("asg_arn");
});
