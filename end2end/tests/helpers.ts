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

/** The simulated time shown on the dashboard, in milliseconds (`Day N HH:MM:SS` on screen). */
export async function clockMs(page: Page): Promise<number> {
  const clock = page.locator("#clock-time");
  const text = ((await clock.textContent()) ?? "").trim();
  if (!/^Day \d+ \d\d:\d\d:\d\d$/.test(text)) throw new Error(`unexpected clock text: ${text}`);
  return Number(await clock.getAttribute("data-t-ms"));
}

/** Confirms the open confirmation of a destructive action (components/confirm.rs). */
export async function confirmAction(page: Page) {
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toBeVisible();
  await dialog.locator("[data-confirm=yes]").click();
  await expect(dialog).toHaveCount(0);
}
