import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * axe-core's serious and critical findings on the page as it is now (every rule axe runs by
 * default: WCAG 2.x A and AA and its best practices), one line each with the elements they
 * name, so a failure says what to fix.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => `${n.target.join(" ")}: ${(n.failureSummary ?? "").replace(/\s+/g, " ").trim()}`)
          .join(" | ")}`,
    );
}

/**
 * No serious or critical axe-core finding on the page at the viewport it has, in the light
 * theme, and at 1,440 px in the dark one (the console follows the system's preference).
 */
export async function expectAccessible(page: Page, where: string) {
  const width = page.viewportSize()?.width ?? 0;
  await page.emulateMedia({ colorScheme: "light" });
  expect(await seriousViolations(page), `${where} at ${width} px (light)`).toEqual([]);
  if (width >= 1440) {
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await seriousViolations(page), `${where} at ${width} px (dark)`).toEqual([]);
    await page.emulateMedia({ colorScheme: "light" });
  }
}
