import { expect, test } from "@playwright/test";
import { hydrated, PASSWORD, signIn } from "./helpers";

test("an admin adds a user who can then sign in; a bad role is refused", async ({ page, browser }) => {
  await signIn(page, "admin");
  await page.goto("/users");
  await hydrated(page);
  const form = page.locator("#add-user-form");
  await form.getByLabel("User name").fill("newcomer");
  await form.getByLabel("Password").fill("short");
  await form.getByRole("button", { name: "Add" }).click();
  await expect(page.locator(".error").first()).toContainText("password");
  await expect(page.locator("#users-table")).not.toContainText("newcomer");

  await form.getByLabel("Password").fill(PASSWORD);
  await form.getByLabel("Role").selectOption("operator");
  await form.getByRole("button", { name: "Add" }).click();
  await expect(page.locator("#users-table [data-user=newcomer]")).toBeVisible();

  const other = await browser.newPage();
  await signIn(other, "newcomer");
  await expect(other.locator("#clock-controls")).toBeVisible();
});

test("a viewer cannot open the admin pages' data", async ({ page }) => {
  await signIn(page, "viewer");
  await page.goto("/audit");
  await expect(page.locator("#form-error")).toContainText("admin");
  const res = await page.request.post("/api/add_user", {
    form: { username: "intruder", password: "long-enough", role: "admin" },
  });
  expect(res.status()).toBe(403);
});
