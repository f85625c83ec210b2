import { expect, test } from "@playwright/test";
import { hydrated, signIn } from "./helpers";

// A page loaded in full (a link followed from elsewhere, a reload, a bookmark) names in its
// <head> the wasm modules its section needs, so that the browser fetches them beside the main
// module; hydrating it then needs no module it was not told about. (Clicks inside the console
// are client-side navigations: the crawl in navigation.spec.ts covers those.)
const pages = ["/", "/history", "/lhc/rl-paris", "/lms", "/gslb", "/autoscale/asg_web"];

test("a page preloads its section's modules and hydrates with no other module", async ({ page }) => {
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

    // The links as sent (hydration takes the ones the framework added out of <head> again).
    const sent = await (await page.request.get(path)).text();
    const links = sent.match(/<link [^>]*>/g) ?? [];
    const href = (link: string) => /href="([^"]*)"/.exec(link)?.[1] ?? "";
    const preloaded = links
      .filter((l) => l.includes('rel="preload"') && href(l).endsWith(".wasm"))
      .map((l) => new URL(href(l), page.url()).pathname);
    const sectionModules = preloaded.filter((p) => !p.endsWith("/switchyard_bg.wasm"));
    expect(sectionModules.length, `${path}: section modules preloaded`).toBeGreaterThan(0);
    // Each named once, and the modules' loader once.
    expect(new Set(preloaded).size, `${path}: each module named once`).toBe(preloaded.length);
    const loaders = links.filter((l) => l.includes('rel="modulepreload"') && href(l).includes("/__wasm_split"));
    expect(loaders.length, `${path}: the modules' loader`).toBe(1);
    // What the page needed is what it named (the cache may spare some downloads, never add).
    for (const module of fetched) expect(preloaded, `${path} fetched ${module}`).toContain(module);
  }
});

test("the sign-in page names no section's modules", async ({ page }) => {
  const sent = await (await page.request.get("/login")).text();
  const wasm = (sent.match(/<link [^>]*>/g) ?? []).filter((l) => l.includes('rel="preload"') && /\.wasm"/.test(l));
  // The main module only.
  expect(wasm.length).toBe(1);
  expect(wasm[0]).toContain("/switchyard_bg.wasm");
});

// The server writes each answer a page shows into the page (its hydration data,
// app/src/answer.rs); hydrating reads them back instead of asking the server again. A page
// whose data did not read back would still show, after a second round of requests: count them.
test("a page hydrates from the answers written into it, asking the server for none again", async ({ page }) => {
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
