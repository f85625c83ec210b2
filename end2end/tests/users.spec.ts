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
  await expect(form.locator("[data-act-error]")).toContainText("password");
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
  // The users page, typed in: no admin form, only why.
  await page.goto("/users");
  await hydrated(page);
  await expect(page.locator("#not-admin")).toContainText("for admins");
  await expect(page.locator("#add-user-form")).toHaveCount(0);
  const res = await page.request.post("/api/add_user", {
    form: { username: "intruder", password: "long-enough-secret", role: "admin" },
  });
  expect(res.status()).toBe(403);
});

test("an admin disables a user, whose open browser is signed out on its next click", async ({ page, browser }) => {
  // Two browsers, three sign-ins and four pages: 16 s on a quiet machine, 32 s on a busy one.
  test.setTimeout(90_000);
  await signIn(page, "admin");
  await page.getByRole("link", { name: "Users", exact: true }).click();
  await hydrated(page);
  const form = page.locator("#add-user-form");
  await form.getByLabel("User name").fill("leaver");
  await form.getByLabel("Password").fill(PASSWORD);
  await form.getByLabel("Role").selectOption("operator");
  await form.getByRole("button", { name: "Add" }).click();
  const row = page.locator("#users-table [data-user=leaver]");
  await expect(row).toBeVisible();
  // The form says who was added and is empty for the next one.
  await expect(page.locator("#user-added")).toHaveText("User leaver added as operator.");
  await expect(form.getByLabel("User name")).toHaveValue("");
  await expect(form.getByLabel("Password")).toHaveValue("");
  // The page, with its wider table, does not scroll sideways on a phone or a desktop.
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    const sideways = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(sideways, `users page at ${width} px`).toBeLessThanOrEqual(0);
  }

  // The user's own browser, signed in and on the history, a page that is not read again when
  // the estate changes (the overview is, about once a second at 60x: a read after the user is
  // disabled would sign them out before their click).
  const context = await browser.newContext();
  const theirs = await context.newPage();
  await signIn(theirs, "leaver");
  await theirs.getByRole("link", { name: "History", exact: true }).click();
  await expect(theirs).toHaveURL(/\/history$/);
  await hydrated(theirs);

  await row.getByRole("button", { name: "Disable" }).click();
  await expect(row).toContainText("disabled");
  await expect(row.getByRole("button", { name: "Enable" })).toBeVisible();

  // Their next click finds them signed out (the sign-in page, which would bring them back to
  // the page they asked for), and signing in again is refused.
  await theirs.getByRole("link", { name: "Resource locations", exact: true }).click();
  await expect(theirs).toHaveURL(/\/login\?next=(%2F|\/)lhc$/);
  await hydrated(theirs);
  await theirs.getByLabel("User name").fill("leaver");
  await theirs.getByLabel("Password").fill(PASSWORD);
  await theirs.getByRole("button", { name: "Sign in" }).click();
  await expect(theirs.locator("#form-error")).toContainText("wrong user name or password");
  await context.close();

  // The audit log names who disabled whom.
  await page.getByRole("link", { name: "Audit", exact: true }).click();
  await expect(page.locator("body")).toContainText("users.set_disabled");
});
