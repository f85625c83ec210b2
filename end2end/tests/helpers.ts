import { expect, type Page } from "@playwright/test";

/** Password of the admin / operator / viewer accounts made by scripts/e2e-server.sh. */
export const PASSWORD = process.env.E2E_PASSWORD ?? "e2e-password";

/** Waits until the browser bundle has hydrated the page (ids::HYDRATED_ATTR). */
export async function hydrated(page: Page) {
  await expect(page.locator("body")).toHaveAttribute("data-hydrated", "true");
}

/** Signs in through the form and waits for the overview (of the server at `base`, when given). */
export async function signIn(page: Page, username: string, next = "/", base = "") {
  await page.goto(base + (next === "/" ? "/login" : `/login?next=${encodeURIComponent(next)}`));
  await hydrated(page);
  await page.getByLabel("User name").fill(username);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("#current-user")).toHaveText(username);
  await hydrated(page);
}

/** The simulated time shown on the dashboard, in milliseconds. */
export async function clockMs(page: Page): Promise<number> {
  const text = (await page.locator("#clock-time").textContent()) ?? "";
  const m = text.trim().match(/^(\d+)\+(\d\d):(\d\d):(\d\d)\.(\d\d\d)$/);
  if (!m) throw new Error(`unexpected clock text: ${text}`);
  const [d, h, min, s, ms] = m.slice(1).map(Number);
  return (((d * 24 + h) * 60 + min) * 60 + s) * 1000 + ms;
}
