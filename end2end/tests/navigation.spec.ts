import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { hydrated, signIn } from "./helpers";

// Every link a person can click, clicked: the nav bar's links and every in-page link of every
// page reached that way, each followed by client-side navigation from the page that shows it.
// After each click: no error text on the page, no 4xx/5xx answer from the console, nothing
// thrown in the page (a panic of the browser bundle, a page module that failed to load), the page
// no wider than the viewport at 390 and 1,440 px, no serious or critical axe-core finding at
// either width (and in the dark theme), and a screenshot at each width kept with the test's
// artifacts (artifacts/pages/).

/** Links not followed: downloads, sign-out, and other origins. */
function followable(href: string): boolean {
  return (
    href.startsWith("/") &&
    !href.startsWith("//") &&
    !href.startsWith("/api/") &&
    !href.startsWith("/pkg/") &&
    !href.startsWith("/login")
  );
}

/**
 * The route a link leads to, with ids replaced (`/lhc/:id`): at most `PER_ROUTE` links of one
 * route and query shape are followed, so the journey stays minutes long on any estate.
 */
function routeOf(href: string): string {
  const url = new URL(href, "http://x");
  const segments = url.pathname.split("/");
  // A section's own lists (`/lhc/connectors`, `/autoscale/nodes`) are pages of their own,
  // not one more resource location or group.
  const parts = segments.map((p, i) =>
    ["lhc", "autoscale", "sites", "servers"].includes(segments[i - 1] ?? "") &&
    !["connectors", "nodes"].includes(p)
      ? ":x"
      : p,
  );
  const keys = [...url.searchParams.keys()].sort().join("&");
  return `${parts.join("/")}?${keys}`;
}
const PER_ROUTE = 1;

/**
 * The hrefs of the page's visible links outside the nav bar (a link inside a closed
 * disclosure is not one a person can click), in document order, without repeats. The live
 * event feed and the overview's "Needs attention" list are left out: they are re-drawn as
 * the estate changes, so their links are a moving target, and they lead to the same pages as
 * the cards and tables around them.
 */
async function inPageLinks(page: Page): Promise<string[]> {
  const hrefs = await page
    .locator("main a[href]")
    .evaluateAll((as) =>
      as
        .filter(
          (a) =>
            a.checkVisibility() &&
            a.getBoundingClientRect().width > 0 &&
            a.closest("#live-feed, #attention") === null,
        )
        .map((a) => a.getAttribute("href") ?? ""),
    );
  return [...new Set(hrefs.filter(followable))];
}

/**
 * Runs in the page: "" when it does not scroll sideways, else by how much and the element
 * whose right edge is furthest out (tag#id.class "text").
 */
function overflow(): string {
  const root = document.documentElement;
  const excess = root.scrollWidth - root.clientWidth;
  if (excess <= 0) return "";
  let widest: Element | null = null;
  let right = 0;
  const clipped = (el: Element) => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== "visible") return true;
    }
    return false;
  };
  for (const el of Array.from(document.querySelectorAll("body *"))) {
    const r = el.getBoundingClientRect().right;
    if (r > right && !clipped(el)) {
      right = r;
      widest = el;
    }
  }
  const name = widest
    ? `${widest.tagName.toLowerCase()}${widest.id ? `#${widest.id}` : ""}${
        widest.getAttribute("class") ? `.${widest.getAttribute("class")?.split(" ").join(".")}` : ""
      } "${(widest.textContent ?? "").trim().slice(0, 60)}"`
    : "?";
  return `by ${excess} px: ${name} ends at ${Math.round(right)} px`;
}

/** A file name for the page's screenshots: its path, with ids kept (`lhc-rl-paris`). */
function shotName(page: Page): string {
  const url = new URL(page.url());
  const name = url.pathname.replace(/^\/+|\/+$/g, "").replace(/[^A-Za-z0-9_-]+/g, "-");
  return name === "" ? "overview" : name;
}

/**
 * The page shows no error, does not scroll sideways and has no serious accessibility finding
 * at either width.
 */
async function checkPage(page: Page, where: string) {
  const started = Date.now();
  const spent: string[] = [];
  const lap = (what: string) => spent.push(`${what} ${Date.now() - started} ms`);
  await hydrated(page);
  lap("hydrated");
  await expect(page.locator("main"), where).not.toContainText("Loading…");
  await expect(page.locator("main"), where).not.toContainText("request failed");
  await expect(page.locator("main .error:visible"), where).toHaveCount(0);
  // Every page carries its folded "What am I looking at?".
  await expect(page.locator("main details.page-help"), where).toHaveCount(1);
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    // Polled: a live page may still be laying out what just arrived; an overflow that stays
    // fails after the expect timeout, naming the element that sticks out furthest.
    await expect
      .poll(() => page.evaluate(overflow), { message: `${where} at ${width} px scrolls sideways` })
      .toBe("");
    lap(`${width} px laid out`);
    await expectAccessible(page, where);
    lap(`${width} px axe`);
    await page.screenshot({ path: `artifacts/pages/${shotName(page)}-${width}.png`, fullPage: true });
    lap(`${width} px screenshot`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  if (process.env.E2E_TRACE_LINKS) console.log(`${where}: ${spent.join(", ")}`);
}

test("every nav link and every in-page link opens without an error, at 390 and 1,440 px", async ({
  page,
}) => {
  test.setTimeout(900_000);
  page.setDefaultNavigationTimeout(20_000);
  page.setDefaultTimeout(20_000);
  const failures: string[] = [];
  page.on("response", (res) => {
    const url = new URL(res.url());
    if (url.host === new URL(page.url() || "http://x").host && res.status() >= 400) {
      failures.push(`${res.status()} ${url.pathname}${url.search}`);
    }
  });
  // Thrown in the page: a panic of the browser bundle ends in `unreachable`, after a console
  // error that names it.
  const thrown: string[] = [];
  page.on("pageerror", (error) => thrown.push(`${page.url()}: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && message.text().includes("panicked")) {
      thrown.push(`${page.url()}: ${message.text().split("\n")[0]}`);
    }
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, "admin");

  // The nav bar, link by link, each clicked from the page the previous one opened.
  const nav = page.locator(".mainnav");
  const labels = await nav.getByRole("link").allTextContents();
  expect(labels).toEqual(expect.arrayContaining(["Overview", "History", "Users", "Audit"]));
  const pages: string[] = [];
  for (const label of labels) {
    await nav.getByRole("link", { name: label, exact: true }).click();
    await expect(nav.getByRole("link", { name: label, exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await checkPage(page, `nav "${label}"`);
    pages.push(new URL(page.url()).pathname + new URL(page.url()).search);
  }

  // Breadth first over the in-page links of those pages and of the pages they open: each
  // link clicked on its page, checked, then back (the browser's Back, no reload).
  const seen = new Set<string>(pages);
  const perRoute = new Map<string, number>();
  const queue = [...pages];
  let clicked = 0;
  while (queue.length > 0) {
    const from = queue.shift() as string;
    // Where Back lands: the URL's path and query (a link's fragment, `#group-table`, is not
    // part of what `waitForURL` compares below).
    const fromPage = from.split("#")[0];
    await page.goto(from);
    await hydrated(page);
    for (const href of await inPageLinks(page)) {
      const route = routeOf(href);
      if (seen.has(href) || (perRoute.get(route) ?? 0) >= PER_ROUTE) continue;
      seen.add(href);
      perRoute.set(route, (perRoute.get(route) ?? 0) + 1);
      const here = new URL(page.url());
      if (here.pathname + here.search !== fromPage) {
        await page.goto(from);
        await hydrated(page);
      }
      const link = page.locator(`main a[href="${href.replace(/"/g, '\\"')}"]`).first();
      await link.waitFor({ state: "attached", timeout: 3_000 }).catch(() => undefined);
      if ((await link.count()) === 0) {
        // The page moved on since its links were listed (a live table): another link of
        // the same route may still be followed.
        perRoute.set(route, (perRoute.get(route) ?? 1) - 1);
        seen.delete(href);
        continue;
      }
      await link.click({ timeout: 10_000 });
      // The path the link opens: what precedes its query or its fragment (`/gslb#site-table`).
      const path = new URL(href, "http://x").pathname;
      await page.waitForURL((u) => u.pathname === path, { timeout: 10_000 });
      await checkPage(page, `${href} (from ${from})`);
      clicked += 1;
      if (process.env.E2E_TRACE_LINKS) console.log(`clicked ${href} from ${from}`);
      queue.push(href);
      // The browser's Back, asked for after this call returns: a Back that loads the page
      // anew (rather than in place) must not destroy the context the call runs in.
      await page.evaluate(() => {
        setTimeout(() => history.back(), 0);
      });
      await page.waitForURL((u) => u.pathname + u.search === fromPage, { timeout: 10_000 });
    }
  }
  // The demo estate's detail pages were among them.
  for (const route of [
    "/lhc/:x?", "/lhc/connectors?", "/lms/servers/:x?", "/gslb/sites/:x?", "/gslb/links?",
    "/autoscale/:x?", "/autoscale/nodes?", "/lms/evaluators?", "/gslb/cli?",
  ]) {
    expect(perRoute.get(route), `a link to ${route} was followed`).toBe(1);
  }
  expect(clicked, "in-page links followed").toBeGreaterThanOrEqual(10);
  expect(failures, "responses of 400 and above").toEqual([]);
  expect(thrown, "errors thrown in the page").toEqual([]);
});

test("on a phone the nav folds behind a menu button that opens it", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "viewer");
  const nav = page.locator(".mainnav");
  await expect(nav).toBeHidden();
  const menu = page.getByRole("button", { name: "Menu" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await nav.getByRole("link", { name: "History" }).click();
  await expect(page.getByRole("heading", { name: "History", exact: true })).toBeVisible();
  await expect(page.locator("#history-table")).toBeVisible();
  await expect(nav).toBeHidden();
  await expect(page.locator("main")).not.toContainText("request failed");
});

test("the first Tab reaches a skip link that moves focus to the page's content", async ({ page }) => {
  await signIn(page, "operator");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.locator("main#content")).toBeFocused();
});

test("an operator reaches a resource location's Force outage with the skip link and four Tabs", async ({ page }) => {
  // A keyboard user opening the page from a bookmark: the first Tab is the skip link.
  await signIn(page, "operator");
  await page.goto("/lhc/rl-paris");
  await hydrated(page);
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.keyboard.press("Enter");
  // The time-travel disclosure (folded while live), the way back to the list, the page's
  // folded help, the action.
  for (let i = 0; i < 4; i++) await page.keyboard.press("Tab");
  await expect(page.locator("#force-outage")).toBeFocused();
});
