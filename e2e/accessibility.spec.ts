import AxeBuilder from "@axe-core/playwright";
import { ROUTES } from "@/lib/auth/route-policy";
import { can } from "@/lib/auth/policy";
import type { UserRole } from "@/db/schema";
import { expect, test, type Browser, type Page } from "./fixtures";
import { USERS } from "./users";

/*
 * axe-core over every page in the route table (lib/auth/route-policy.ts), at 1280 and 375 px,
 * signed out for public pages, as a role that may open each of the others, and as the journalist,
 * fact-checker and editor on the pages their roles change (navigation, controls, their own pages). A
 * real share link to a comparison is made to check the shared page and a transcript under it. Serious and critical
 * findings fail the test, listed as page · width · rule · target so they can be fixed from the log.
 * One browser context per role, one tab reused for all its pages, to keep the run short. It makes no
 * data but that share link (a debate it started would join other specs' annotation queues): dynamic pages are
 * checked on the first debate, comparison, run, corpus, document, webhook and fact-check this run
 * already holds, and the ones it found none of are listed in the test's annotations.
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

test("every page in the route table passes axe (serious and critical) at 1280 and 375 px", async ({
  browser,
  allowConsoleError,
}) => {
  test.setTimeout(420_000);
  // The token pages are checked with a token that exists nowhere: their "not valid" page answers 404.
  allowConsoleError(/status of 404.*\/share\/(compare\/)?a{32}/);
  const findings: Finding[] = [];
  const visited = new Set<string>();
  /** A real address for each dynamic pattern, as the admin found it, for the other roles to visit. */
  const found = new Map<string, string>();
  const visit = async (page: Page, path: string, pattern: string) => {
    await check(page, path, findings);
    visited.add(pattern);
    if (pattern.includes("[")) found.set(pattern, path);
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

  // The admin may open every page but /annotate.
  const admin = await asRole(browser, USERS.admin.state);
  const a = admin.page;
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
    ["/debates/[id]", "/debates", /^\/debates\/[0-9a-f-]{36}$/],
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
  const corpus = await firstLink(a, "/corpora", /^\/corpora\/[A-Za-z0-9_-]+$/);
  if (corpus) {
    await visit(a, corpus, "/corpora/[name]");
    const doc = await firstLink(a, corpus, /^\/corpora\/[A-Za-z0-9_-]+\/documents\/\d+$/);
    if (doc) await visit(a, doc, "/corpora/[name]/documents/[id]");
  }
  // A real share link to a comparison, with its transcripts, so the shared page and a method's
  // transcript under it are checked with data (the dummy token above shows only "not valid").
  const comparison = found.get("/compare/[id]");
  let shared: string | undefined;
  if (comparison) {
    await a.goto(comparison);
    const controls = a.getByTestId("compare-share-controls");
    await controls.locator("summary").click();
    await controls.getByLabel(/full transcript/).check();
    await controls.getByRole("button", { name: "Create a link" }).click();
    const link = (await a.getByTestId("compare-share-link").first().textContent())!.trim();
    shared = new URL(link, "http://127.0.0.1").pathname;
  }
  await admin.context.close();
  if (shared) {
    const reader = await asRole(browser, undefined);
    await visit(reader.page, shared, "/share/compare/[token]");
    const transcript = await firstLink(
      reader.page,
      shared,
      /^\/share\/compare\/[A-Za-z0-9_-]+\/debates\/[0-9a-f-]{36}$/,
    );
    if (transcript) await visit(reader.page, transcript, "/share/compare/[token]/debates/[id]");
    await reader.context.close();
  }

  // Each other role sees its own navigation and controls: two pages every account reads, and the
  // ones only that role's permissions open (from the route table, so a new page joins by itself).
  // Two pages stand for the ones every account reads (the home page's offers, a debate's controls),
  // to keep the run short: the rest differ by role only in the navigation these two already show.
  const everyone = ["/", "/debates/[id]"];
  for (const who of ["journalist", "factchecker", "editor"] as const) {
    const roles = USERS[who].roles as UserRole[];
    const principal = { id: who, email: USERS[who].email, name: null, roles };
    const own = ROUTES.filter(
      (r) => r.type === "page" && r.rule.kind === "permission" && can(principal, r.rule.permission),
    ).map((r) => r.pattern);
    const role = await asRole(browser, USERS[who].state);
    for (const pattern of [...everyone, ...own]) {
      const path = pattern.includes("[") ? found.get(pattern) : pattern;
      if (path) await visit(role.page, path, pattern);
    }
    await role.context.close();
  }

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
