import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type APIResponse, type Browser } from "./fixtures";
import { USERS } from "./users";

/*
 * Access, forgery and framing, over real HTTP against the production server. The route table
 * itself is checked route by route in tests/auth/route-policy.test.ts; this proves the proxy
 * enforces it where requests enter. Named to run after corpus.spec.ts (files run in alphabetical
 * order), which needs an install without any corpus.
 */

const anonymous = { storageState: { cookies: [], origins: [] } };
const CORPUS = "e2e-access";
// Text that must never reach someone who may not read the corpus.
const SECRET = "The unpublished memo names Ferrobuild as the harbour contractor.";

test.describe.configure({ mode: "serial" });

let documentPath = "";

/**
 * A page on another origin of the same site (same host, another port), served by a real server on
 * loopback: a page the browser got from nowhere would be blocked from reaching loopback at all.
 * A page there gets the SameSite=Lax session cookie on its requests to the app.
 */
async function otherOrigin(html: string) {
  const server = http.createServer((_, res) => res.writeHead(200, { "content-type": "text/html" }).end(html));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((r) => server.close(r)),
  };
}

async function as(browser: Browser, who: keyof typeof USERS | "anonymous") {
  return browser.newContext(who === "anonymous" ? anonymous : { storageState: USERS[who].state });
}

test("an admin stores a document (the upload from the app's own page passes the origin check)", async ({ page }) => {
  await page.goto("/corpora");
  await page.getByLabel("New corpus name").fill(CORPUS);
  await page.getByRole("button", { name: "Create corpus" }).click();
  await page.waitForURL(new RegExp(`/corpora/${CORPUS}$`));
  await page
    .getByLabel("Files to upload")
    .setInputFiles({ name: "memo.txt", mimeType: "text/plain", buffer: Buffer.from(SECRET + "\n") });
  const job = page.getByTestId("ingest-job").first();
  await expect(job).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
  await page.reload();
  const link = page.getByTestId("document-list").locator("a").first();
  documentPath = (await link.getAttribute("href"))!;
  expect(documentPath).toMatch(new RegExp(`^/corpora/${CORPUS}/documents/\\d+$`));
  await page.goto(documentPath);
  await expect(page.getByRole("main")).toContainText("Ferrobuild");
});

test("an anonymous visitor gets no document text, only the way to sign in", async ({ browser }) => {
  const ctx = await as(browser, "anonymous");
  const res = await ctx.request.get(documentPath, { maxRedirects: 0 });
  expect(await res.text()).not.toContain("Ferrobuild");
  expect(res.status()).toBe(307);
  expect(res.headers().location).toBe(`/signin?next=${encodeURIComponent(documentPath)}`);
  const page = await ctx.newPage();
  await page.goto(documentPath);
  await expect(page).toHaveURL(/\/signin\?next=/);
  await expect(page.locator("body")).not.toContainText("Ferrobuild");
  await ctx.close();
});

type Outcome = 200 | 401 | 403 | 404 | "sign-in" | "forbidden";
type Who = "anonymous" | "journalist" | "factchecker" | "annotator1" | "admin";
const WHO: Who[] = ["anonymous", "journalist", "factchecker", "annotator1", "admin"];

// A sample per role; every route is covered by the unit route walk.
const CASES: Array<[string, Record<Who, Outcome>]> = [
  ["/", { anonymous: 200, journalist: 200, factchecker: 200, annotator1: 200, admin: 200 }],
  ["/status", { anonymous: 200, journalist: 200, factchecker: 200, annotator1: 200, admin: 200 }],
  ["/api/health", { anonymous: 200, journalist: 200, factchecker: 200, annotator1: 200, admin: 200 }],
  ["/debates", { anonymous: "sign-in", journalist: 200, factchecker: 200, annotator1: 200, admin: 200 }],
  ["/corpora", { anonymous: "sign-in", journalist: 200, factchecker: 200, annotator1: 200, admin: 200 }],
  [
    "/debates/new",
    { anonymous: "sign-in", journalist: "forbidden", factchecker: 200, annotator1: "forbidden", admin: 200 },
  ],
  [
    "/eval/new",
    { anonymous: "sign-in", journalist: "forbidden", factchecker: 200, annotator1: "forbidden", admin: 200 },
  ],
  [
    "/annotate",
    { anonymous: "sign-in", journalist: "forbidden", factchecker: "forbidden", annotator1: 200, admin: "forbidden" },
  ],
  ["/agreement", { anonymous: "sign-in", journalist: "forbidden", factchecker: 200, annotator1: 200, admin: 200 }],
  [
    "/admin",
    { anonymous: "sign-in", journalist: "forbidden", factchecker: "forbidden", annotator1: "forbidden", admin: 200 },
  ],
  ["/api/export", { anonymous: 401, journalist: 403, factchecker: 200, annotator1: 200, admin: 200 }],
  ["/no-such-page", { anonymous: 404, journalist: 404, factchecker: 404, annotator1: 404, admin: 404 }],
];

function outcomeOf(res: APIResponse): Outcome {
  const location = res.headers().location ?? "";
  if ([302, 303, 307, 308].includes(res.status())) {
    if (location.startsWith("/signin")) return "sign-in";
    if (location.startsWith("/forbidden")) return "forbidden";
  }
  return res.status() as Outcome;
}

test("each role gets what the route table says, over HTTP", async ({ browser }) => {
  const got: string[] = [];
  const want: string[] = [];
  for (const who of WHO) {
    const ctx = await as(browser, who);
    for (const [path, expected] of CASES) {
      const res = await ctx.request.get(path, { maxRedirects: 0 });
      got.push(`${who} ${path} → ${outcomeOf(res)}`);
      want.push(`${who} ${path} → ${expected[who]}`);
    }
    await ctx.close();
  }
  expect(got).toEqual(want);
});

test("malformed ids are 404, not 500", async ({ browser, allowConsoleError }) => {
  // Opening a page that answers 404 logs the failed load in the browser: the 404 is the point.
  allowConsoleError(/status of 404/);
  const ctx = await as(browser, "admin");
  const paths = [
    "/debates/not-a-uuid",
    "/debates/------------------------------------",
    "/corpora/x/documents/abc",
    `/corpora/${CORPUS}/documents/99999999999999999999`,
    "/corpora/no such corpus",
    "/eval/zzz",
    "/eval/zzz/export",
    "/api/debates/bad/events",
    "/api/eval/bad/progress",
    "/api/ingest-jobs/zzz/events",
  ];
  const got = [];
  for (const path of paths) got.push(`${path} → ${(await ctx.request.get(path, { maxRedirects: 0 })).status()}`);
  expect(got).toEqual(paths.map((p) => `${p} → 404`));
  // A page address answers with a page that says so.
  const page = await ctx.newPage();
  const res = await page.goto("/debates/not-a-uuid");
  expect(res!.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Not found");
  await expect(page.getByRole("link", { name: "Home" })).toHaveAttribute("href", "/");
  await ctx.close();
});

test("a page on another origin of the same site cannot upload with the admin's cookie", async ({
  page,
  baseURL,
  allowConsoleError,
}) => {
  // The browser logs the refused cross-origin upload as a failed load: that refusal is the point.
  allowConsoleError(/status of 403/);
  const evil = await otherOrigin("<!doctype html><title>elsewhere</title><p>another origin</p>");
  await page.goto(evil.url);
  const uploadUrl = `${baseURL}/api/corpora/${CORPUS}/uploads?filename=planted.txt`;
  const answered = page.waitForResponse((r) => r.url() === uploadUrl);
  await page.evaluate(
    (url) =>
      fetch(url, { method: "POST", body: "planted by another origin", credentials: "include", mode: "no-cors" }).catch(
        () => null,
      ),
    uploadUrl,
  );
  expect((await answered).status()).toBe(403);

  // The same refusal for any client that says where it comes from, on every state-changing method.
  const forged = await page.request.post(`/api/corpora/${CORPUS}/uploads?filename=forged.txt`, {
    data: "x",
    headers: { Origin: evil.url },
  });
  expect(forged.status()).toBe(403);
  expect((await forged.json()).error).toContain("another origin");
  const sameSite = await page.request.post(`/api/corpora/${CORPUS}/uploads?filename=forged.txt`, {
    data: "x",
    headers: { "Sec-Fetch-Site": "same-site" },
  });
  expect(sameSite.status()).toBe(403);
  const noOrigin = await page.request.post(`/api/corpora/${CORPUS}/uploads?filename=forged.txt`, { data: "x" });
  expect(noOrigin.status()).toBe(403);
  const toAPage = await page.request.post("/admin", { data: "x", headers: { Origin: evil.url } });
  await evil.close();
  expect(toAPage.status()).toBe(403);

  await page.goto(`/corpora/${CORPUS}`);
  await expect(page.getByTestId("ingest-job").first()).toBeVisible();
  await expect(page.getByRole("main")).not.toContainText("planted.txt");
  await expect(page.getByRole("main")).not.toContainText("forged.txt");
});

test("pages, route handlers and static files carry the security headers; page nonces change per request", async ({
  request,
}) => {
  const home = await request.get("/");
  const html = await home.text();
  const asset = /<script[^>]+src="(\/_next\/static\/[^"]+\.js)"/.exec(html)?.[1];
  expect(asset).toBeTruthy();
  const responses = { page: home, api: await request.get("/api/health"), static: await request.get(asset!) };
  for (const [what, res] of Object.entries(responses)) {
    const h = res.headers();
    expect(h["x-content-type-options"], what).toBe("nosniff");
    expect(h["x-frame-options"], what).toBe("DENY");
    expect(h["referrer-policy"], what).toBe("strict-origin-when-cross-origin");
    expect(h["content-security-policy"], what).toContain("frame-ancestors 'none'");
  }
  const csp = home.headers()["content-security-policy"]!;
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(csp).not.toContain("unsafe-eval");
  const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
  // Next put the nonce on the scripts it rendered.
  expect(html).toContain(`nonce="${nonce}"`);
  const again = (await request.get("/")).headers()["content-security-policy"]!;
  expect(/'nonce-([^']+)'/.exec(again)![1]).not.toBe(nonce);
});

test("pages load under the content security policy without a violation", async ({ page }) => {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(e.message));
  for (const path of [
    "/",
    "/debates",
    "/corpora",
    `/corpora/${CORPUS}`,
    documentPath,
    "/search",
    "/admin",
    "/debates/new",
    "/eval",
    "/status",
  ]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  }
  // Client navigation runs the bundles the policy must allow.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Debates" }).click();
  await expect(page).toHaveURL(/\/debates$/);
  expect(problems).toEqual([]);
});

test("/admin does not render inside another origin's frame", async ({ page, baseURL, allowConsoleError }) => {
  // The browser reports the refused frame in the console: that refusal is the point.
  allowConsoleError(/frame-ancestors|Refused to (display|frame)/);
  const evil = await otherOrigin(
    `<!doctype html><title>framer</title><iframe id="f" src="${baseURL}/admin" onload="document.title='frame loaded'"></iframe>`,
  );
  const admin = page.waitForResponse((r) => r.url() === `${baseURL}/admin`);
  await page.goto(evil.url);
  expect((await admin).status()).toBe(200);
  await expect(page).toHaveTitle("frame loaded");
  const frame = page.frames().find((f) => f !== page.mainFrame())!;
  // Blocked by frame-ancestors / X-Frame-Options, the frame holds the browser's error page, not the app.
  expect(await frame.content()).not.toContain("Admin</h1>");
  await evil.close();
});
