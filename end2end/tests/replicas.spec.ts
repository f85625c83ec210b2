import { expect, test, type Page } from "@playwright/test";
import { hydrated, signIn, confirmAction } from "./helpers";
import { OwnServer } from "./own-server";

const OUTAGE = /pending_ha|ha_initial|extended_ha/;

async function openParis(page: Page) {
  await page.locator("nav.mainnav").getByRole("link", { name: "Resource locations" }).click();
  await expect(page).toHaveURL(/\/lhc$/);
  await hydrated(page);
  await page.locator("#rl-table [data-rl=rl-paris]").getByRole("link").click();
  await expect(page).toHaveURL(/\/lhc\/rl-paris$/);
  await hydrated(page);
}

test("two replicas on one PostgreSQL database: an outage forced on the follower is seen live on the leader", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const leader = await OwnServer.createOnPostgres();
  const follower = await leader.replica();
  const viewerContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const operatorContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    await leader.start(["--speed", "60x"]);
    await follower.start();
    expect((await (await fetch(`${leader.base}/healthz`)).json()).role).toBe("leader");
    expect((await (await fetch(`${follower.base}/healthz`)).json()).role).toBe("follower");

    // A viewer watches rl-paris on the leader; an operator works on the follower. Separate
    // browsers: cookies do not tell ports apart.
    const viewer = await viewerContext.newPage();
    const operator = await operatorContext.newPage();
    await signIn(viewer, "viewer", "/", leader.base);
    await openParis(viewer);
    const watched = viewer.locator("h1 .badge");
    await expect(watched).toHaveAttribute("data-state", "working_normally");

    await signIn(operator, "operator", "/", follower.base);
    // The follower says what it is, on the overview's clock.
    await expect(operator.locator("#clock-replica")).toContainText("follows the leading console");
    await openParis(operator);
    const own = operator.locator("h1 .badge");
    await expect(own).toHaveAttribute("data-state", "working_normally");
    await operator.locator("#force-outage").click();
    await confirmAction(operator);

    // The follower's own copy shows the outage, and the viewer on the leader sees it without
    // reloading.
    await expect(own).toHaveAttribute("data-state", OUTAGE, { timeout: 30_000 });
    await expect(watched).toHaveAttribute("data-state", OUTAGE, { timeout: 30_000 });
    await expect(operator.locator("#form-error")).toHaveCount(0);

    // The follower's copy holds the forced outage: the operator may clear it there.
    await expect(operator.locator("#clear-outage")).toBeEnabled();
    // One journal: the follower has replayed every entry the leader journaled.
    const entries = async (base: string) => (await (await fetch(`${base}/healthz`)).json()).journal_entries;
    const led = await entries(leader.base);
    expect(led).toBeGreaterThan(0);
    await expect.poll(() => entries(follower.base)).toBeGreaterThanOrEqual(led);
  } finally {
    await viewerContext.close();
    await operatorContext.close();
    await follower.dispose();
    await leader.dispose();
  }
});
