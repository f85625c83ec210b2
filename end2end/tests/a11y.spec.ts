import { expect, test, type Page } from "@playwright/test";
import { copyFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { expectAccessible } from "./axe";
import { confirmAction, hydrated, signIn } from "./helpers";
import { OwnServer } from "./own-server";

// Accessibility of what the crawl (navigation.spec.ts) cannot reach signed in with a steady
// estate: the sign-in page, and the pages while an outage is in progress (the HA states' and
// alerts' colours), on a console of the test's own. The same journey takes the README's two
// screenshots: a resource location during a forced outage, and the overview then.

/** Where the README's screenshots are refreshed (`make screenshots` sets it). */
const DOCS_IMAGES = process.env.E2E_DOCS_IMAGES === "1";

/** A 1,440 × 900 screenshot kept with the artifacts, and copied to docs/images/ when asked. */
async function readmeShot(page: Page, name: string) {
  const file = `artifacts/readme/${name}.png`;
  await page.screenshot({ path: file });
  if (DOCS_IMAGES) {
    const docs = path.resolve(__dirname, "../../docs/images");
    mkdirSync(docs, { recursive: true });
    copyFileSync(file, path.join(docs, `${name}.png`));
  }
}

/** Checks the page at 390 and 1,440 px (and dark at 1,440 px), leaving it at 1,440 px. */
async function bothWidths(page: Page, where: string) {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await expectAccessible(page, where);
  }
}

test("the sign-in page and the pages of an outage in progress have no serious accessibility finding", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const server = await OwnServer.create();
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    await server.start(["--speed", "paused"]);
    const page = await context.newPage();

    await page.goto(`${server.base}/login`);
    await hydrated(page);
    await bothWidths(page, "the sign-in page");
    // A refused sign-in shows its error, which must read as well as the form.
    await page.getByLabel("User name").fill("admin");
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator("main .error")).toBeVisible();
    await bothWidths(page, "the sign-in page with its error");

    await signIn(page, "admin", "/", server.base);
    await expect(page.locator("#lhc-tiles [data-key=working_normally]")).toHaveAttribute("data-count", "2");

    // Force an outage on Paris the way an operator does, and let the clock run.
    await page.locator(".mainnav").getByRole("link", { name: "Resource locations" }).click();
    await hydrated(page);
    await page.locator("#rl-table [data-rl=rl-paris]").getByRole("link").click();
    await expect(page).toHaveURL(/\/lhc\/rl-paris$/);
    await hydrated(page);
    // The page's folded help says, in an operator's words, what forcing an outage does.
    await page.getByText("What am I looking at?").click();
    await expect(page.locator("details.page-help p")).toContainText("force an outage here");
    await page.getByText("What am I looking at?").click();
    await expect(page.locator("details.page-help p")).toBeHidden();
    await page.locator("#force-outage").click();
    await confirmAction(page);
    await page.getByLabel("Clock speed").selectOption("x600");
    const badge = page.locator("h1 .badge");
    await expect(badge).toHaveAttribute("data-state", /ha_initial|extended_ha/, { timeout: 30_000 });
    // Every VDA registered with the elected secondary before the picture is taken.
    await expect(page.locator("#rl-counts [data-col=cloud]")).toHaveText("0", { timeout: 30_000 });
    await page.getByLabel("Clock speed").selectOption("paused");
    await readmeShot(page, "outage");
    await bothWidths(page, "a resource location in HA");

    await page.locator(".mainnav").getByRole("link", { name: "Overview" }).click();
    await hydrated(page);
    await expect(page.locator("#attention-list li[data-subject=rl-paris]")).toBeVisible();
    await readmeShot(page, "overview");
    await bothWidths(page, "the overview during an outage");
    await page.locator(".mainnav").getByRole("link", { name: "Resource locations" }).click();
    await hydrated(page);
    await bothWidths(page, "the resource locations during an outage");

    // The editors, open: a load evaluator's and an autoscale group's.
    await page.locator(".mainnav").getByRole("link", { name: "Load management" }).click();
    await hydrated(page);
    await page.getByRole("link", { name: "Load evaluators" }).click();
    await hydrated(page);
    await page.locator("#evaluator-table").getByRole("link", { name: /^Edit evaluator/ }).first().click();
    await expect(page.locator("#evaluator-editor")).toBeVisible();
    await bothWidths(page, "the load evaluator editor");
    await page.locator(".mainnav").getByRole("link", { name: "Autoscale" }).click();
    await hydrated(page);
    await page.locator("#group-table a[href^='/autoscale/']").first().click();
    await hydrated(page);
    await page.locator("#edit-link").click();
    await expect(page.locator("#autoscale-editor")).toBeVisible();
    await bothWidths(page, "the autoscale editor");
  } finally {
    await context.close();
    await server.dispose();
  }
});
