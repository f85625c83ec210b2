import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";

test("sections of engines not simulated yet show the estate the scenario configures", async ({ page }) => {
  await signIn(page, "viewer");
  await page.locator(".mainnav").getByRole("link", { name: "GSLB" }).click();
  await expect(page.getByRole("heading", { name: "GSLB", exact: true })).toBeVisible();
  await expect(page.locator("main")).toContainText("not simulated yet");
  await expect(page.getByRole("heading", { name: "GSLB sites" })).toBeVisible();
  await page.locator(".mainnav").getByRole("link", { name: "Autoscale" }).click();
  await expect(page.locator("main")).toContainText("asg_arn");
});
