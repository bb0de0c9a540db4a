import AxeBuilder from "@axe-core/playwright";
import { ROUTES } from "@/lib/auth/route-policy";
import { expect, test, type Browser, type Page } from "./fixtures";
import { startPastEarlierChecks } from "./match-helpers";
import { USERS } from "./users";

/*
 * axe-core over every page in the route table (lib/auth/route-policy.ts), at 1280 and 375 px,
 * signed out for public pages and as a role that may open each of the others. Serious and critical
 * findings fail the test, listed as page · width · rule · target so they can be fixed from the log.
 * One browser context per role, one tab reused for all its pages, to keep the run short.
 */

const WIDTHS = [1280, 375] as const;

/*
 * Findings that could not be fixed yet, each an exact rule and selector with the reason; never a
 * whole rule switched off.
 */
const KNOWN: Array<{ rule: string; target: string; why: string }> = [];

type Finding = { page: string; width: number; rule: string; impact: string; target: string; help: string };

async function check(page: Page, path: string, findings: Finding[]) {
  const res = await page.goto(path);
  expect(res?.status(), `${path} should open`).toBeLessThan(500);
  await page.waitForLoadState("networkidle").catch(() => undefined);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    const { violations } = await new AxeBuilder({ page }).analyze();
    for (const v of violations) {
      if (v.impact !== "serious" && v.impact !== "critical") continue;
      for (const n of v.nodes) {
        const target = n.target.join(" ");
        if (KNOWN.some((k) => k.rule === v.id && k.target === target)) continue;
        findings.push({ page: path, width, rule: v.id, impact: v.impact, target, help: v.help });
      }
    }
  }
}

/** The first link on `listPath` whose address matches `pattern`: a real id for a dynamic page, when one exists. */
async function firstLink(page: Page, listPath: string, pattern: RegExp): Promise<string | null> {
  await page.goto(listPath);
  const hrefs = await page.locator("a[href]").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
  return hrefs.find((h) => pattern.test(h)) ?? null;
}

async function asRole(browser: Browser, state: string | undefined) {
  const context = await browser.newContext(state ? { storageState: state } : { storageState: undefined });
  return { context, page: await context.newPage() };
}

const report = (findings: Finding[]) =>
  findings.map((f) => `${f.page} @${f.width}px · ${f.rule} (${f.impact}) · ${f.target} · ${f.help}`).join("\n");

test("every page in the route table passes axe (serious and critical) at 1280 and 375 px", async ({ browser }) => {
  test.setTimeout(240_000);
  const findings: Finding[] = [];
  const visited = new Set<string>();
  const visit = async (page: Page, path: string, pattern: string) => {
    await check(page, path, findings);
    visited.add(pattern);
  };

  // Signed out: the public pages (a dummy token opens the "link not valid" page of each token route).
  const out = await asRole(browser, undefined);
  const token = "a".repeat(32);
  for (const [pattern, path] of [
    ["/", "/"],
    ["/signin", "/signin"],
    ["/setup", "/setup"],
    ["/status", "/status"],
    ["/forbidden", "/forbidden"],
    ["/fact-checks", "/fact-checks"],
    ["/invite/[token]", `/invite/${token}`],
    ["/share/[token]", `/share/${token}`],
    ["/share/compare/[token]", `/share/compare/${token}`],
  ] as const)
    await visit(out.page, path, pattern);
  await out.context.close();

  // The admin may open every page but /annotate; one debate is started so its page has a real id.
  const admin = await asRole(browser, USERS.admin.state);
  const a = admin.page;
  await a.goto("/debates/new");
  await a.getByLabel("Claim", { exact: true }).fill("The city council approved a new budget for public libraries.");
  await a.getByLabel("Paste gold evidence").check();
  await a
    .getByLabel(/Evidence passages, one per paragraph/)
    .fill("The council voted 7 to 2 on Tuesday to approve the library budget.");
  await startPastEarlierChecks(a, a.getByRole("button", { name: "Start debate" }), /\/debates\/[0-9a-f-]{36}$/);
  await a.waitForURL(/\/debates\/[0-9a-f-]{36}$/);
  const debatePath = new URL(a.url()).pathname;
  await visit(a, debatePath, "/debates/[id]");
  for (const path of [
    "/debates",
    "/debates/new",
    "/compare",
    "/corpora",
    "/search",
    "/methods",
    "/eval",
    "/eval/new",
    "/check-text",
    "/agreement",
    "/admin",
    "/admin/webhooks",
    "/fact-checks/new",
    "/fact-checks/desk",
    "/welcome",
    "/account/tokens",
  ])
    await visit(a, path, path);
  // Dynamic pages whose data another spec or the demo corpus made: checked when one exists in this run.
  for (const [pattern, list, re] of [
    ["/corpora/[name]", "/corpora", /^\/corpora\/[A-Za-z0-9_-]+$/],
    ["/corpora/[name]/documents/[id]", "/corpora/demo", /^\/corpora\/[A-Za-z0-9_-]+\/documents\/\d+$/],
    ["/compare/[id]", "/compare", /^\/compare\/[0-9a-f-]{36}$/],
    ["/eval/[id]", "/eval", /^\/eval\/[0-9a-f-]{36}$/],
    ["/eval/groups/[id]", "/eval", /^\/eval\/groups\/[0-9a-f-]{36}$/],
    ["/admin/webhooks/[id]", "/admin/webhooks", /^\/admin\/webhooks\/[0-9a-f-]{36}$/],
    ["/fact-checks/[slug]", "/fact-checks", /^\/fact-checks\/(?!new$|desk$|feed)[a-z0-9-]+$/],
    ["/fact-checks/[slug]/edit", "/fact-checks/desk", /^\/fact-checks\/[a-z0-9-]+\/edit$/],
  ] as const) {
    const href = await firstLink(a, list, re);
    if (href) await visit(a, href, pattern);
  }
  await admin.context.close();

  // An annotator: the one page the admin may not open.
  const ann = await asRole(browser, USERS.annotator1.state);
  await visit(ann.page, "/annotate", "/annotate");
  await ann.context.close();

  const pages = ROUTES.filter((r) => r.type === "page").map((r) => r.pattern);
  const missed = pages.filter((p) => !visited.has(p));
  test
    .info()
    .annotations.push({ type: "not visited (no data of that kind in this run)", description: missed.join(", ") });
  expect(findings, `axe found serious or critical problems:\n${report(findings)}`).toEqual([]);
});
