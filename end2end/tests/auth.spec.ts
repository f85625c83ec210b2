import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";

test("an anonymous visitor is sent to the sign-in page, and API calls get 401", async ({ page, request }) => {
  await page.goto("/history?engine=core");
  await expect(page).toHaveURL(/\/login\?next=/);
  // A form, as every server function takes (any other body is refused as cross-site: 403).
  const api = await request.post("/api/clock_status", { form: {} });
  expect(api.status()).toBe(401);
  const stream = await request.get("/api/stream");
  expect(stream.status()).toBe(401);
});

test("a wrong password is refused with a clear message", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("User name").fill("admin");
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("#form-error")).toContainText("wrong user name or password");
  await expect(page).toHaveURL(/\/login/);
});

test("admin signs in, lands on the overview and sees admin navigation", async ({ page }) => {
  await signIn(page, "admin");
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(page.locator(".mainnav")).toContainText("Users");
  await expect(page.locator(".mainnav")).toContainText("Autoscale");
  const cookies = await page.context().cookies();
  const session = cookies.find((c) => c.name === "switchyard_session");
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe("Strict");
});

test("sign-in returns to the page that was asked for, and sign-out ends the session", async ({ page }) => {
  await signIn(page, "viewer", "/history");
  await expect(page).toHaveURL(/\/history$/);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/login/);
});
