import { expect, test as base, type Browser, type BrowserContext, type Page } from "@playwright/test";

/*
 * Every spec imports `test` and `expect` from here, so that any browser console error or uncaught
 * page error fails the test that caused it: a hydration mismatch (React #418) or a thrown render
 * is a bug even when the page still looks right. Pages from contexts a spec opens itself
 * (`browser.newContext()`, `browser.newPage()`) are watched too.
 *
 * A test that provokes an error on purpose (e.g. opens a page that answers 404) declares it with
 * `allowConsoleError(/pattern/)`; anything else still fails.
 */

type Problem = { page: string; kind: "console" | "pageerror"; text: string };

function watchPage(page: Page, problems: Problem[]) {
  page.on("console", (msg) => {
    if (msg.type() === "error")
      problems.push({
        page: page.url(),
        kind: "console",
        text: `${msg.text()}${msg.location().url ? ` (${msg.location().url})` : ""}`,
      });
  });
  page.on("pageerror", (err) => problems.push({ page: page.url(), kind: "pageerror", text: err.stack ?? err.message }));
}

function watchContext(context: BrowserContext, problems: Problem[]) {
  for (const p of context.pages()) watchPage(p, problems);
  context.on("page", (p) => watchPage(p, problems));
}

export const test = base.extend<{ allowConsoleError: (pattern: RegExp) => void }>({
  // Automatic, so every test is guarded whether or not it asks for the function.
  allowConsoleError: [
    async ({ context, browser }, use) => {
      const problems: Problem[] = [];
      const allowed: RegExp[] = [];
      watchContext(context, problems);
      // Contexts the spec opens itself (browser.newPage() goes through newContext too), for this test only.
      const newContext = browser.newContext;
      browser.newContext = async function (this: Browser, ...args: Parameters<Browser["newContext"]>) {
        const c = await newContext.apply(this, args);
        watchContext(c, problems);
        return c;
      };
      try {
        await use((pattern) => void allowed.push(pattern));
      } finally {
        browser.newContext = newContext;
      }
      const unexpected = problems.filter((p) => !allowed.some((re) => re.test(p.text)));
      expect(
        unexpected.map((p) => `[${p.kind}] ${p.page}: ${p.text}`),
        "the browser logged errors during this test",
      ).toEqual([]);
    },
    { auto: true, scope: "test" },
  ],
});

export { expect };
export type { APIResponse, Browser, BrowserContext, Page, Route } from "@playwright/test";
