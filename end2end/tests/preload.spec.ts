import { expect, test } from "@playwright/test";
import { hydrated, signIn } from "./helpers";

// A page loaded in full (a link followed from elsewhere, a reload, a bookmark) names the
// browser bundle's one wasm module in its <head>, so that the browser fetches it beside the
// page; hydrating the page's islands then needs no other module.
const pages = ["/", "/history", "/lhc/rl-paris", "/lms", "/gslb", "/autoscale/asg_web"];

test("a page preloads the bundle's module and hydrates with no other", async ({ page }) => {
  await signIn(page, "viewer");
  for (const path of pages) {
    const fetched = new Set<string>();
    const onRequest = (request: { url(): string }) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith(".wasm")) fetched.add(url.pathname);
    };
    page.on("request", onRequest);
    await page.goto(path);
    await hydrated(page);
    page.off("request", onRequest);

    // The links as sent.
    const sent = await (await page.request.get(path)).text();
    const links = sent.match(/<link [^>]*>/g) ?? [];
    const href = (link: string) => /href="([^"]*)"/.exec(link)?.[1] ?? "";
    const preloaded = links
      .filter((l) => l.includes('rel="preload"') && href(l).endsWith(".wasm"))
      .map((l) => new URL(href(l), page.url()).pathname);
    expect(preloaded.length, `${path}: one module preloaded`).toBe(1);
    expect(preloaded[0]).toMatch(/\/switchyard_bg\.wasm$/);
    // What the page needed is what it named (the cache may spare the download, never add).
    for (const module of fetched) expect(preloaded, `${path} fetched ${module}`).toContain(module);
  }
});

test("the sign-in page names the module too", async ({ page }) => {
  const sent = await (await page.request.get("/login")).text();
  const wasm = (sent.match(/<link [^>]*>/g) ?? []).filter((l) => l.includes('rel="preload"') && /\.wasm"/.test(l));
  expect(wasm.length).toBe(1);
  expect(wasm[0]).toContain("/switchyard_bg.wasm");
});

// The pages are rendered on the server with their data; the islands the browser hydrates
// hold none of it, so hydrating asks the server nothing (a second round of requests would
// show only as a slower page): count them.
test("a page hydrates asking the server for nothing", async ({ page }) => {
  await signIn(page, "viewer");
  // No live stream, so no event makes a page load anything again while it is watched.
  await page.route("**/api/stream", (route) => route.abort());
  for (const path of pages) {
    const asked: string[] = [];
    const onRequest = (request: { url(): string; method(): string }) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith("/api/") && url.pathname !== "/api/stream") asked.push(`${request.method()} ${url.pathname}`);
    };
    page.on("request", onRequest);
    await page.goto(path);
    await hydrated(page);
    await page.waitForTimeout(500);
    page.off("request", onRequest);
    expect(asked, `${path}: server functions asked after hydration`).toEqual([]);
  }
});
