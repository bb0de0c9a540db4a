import { useDatabase } from "../helpers/next-request";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import { createUser } from "@/db/queries/users";
import type { FactCheckContent } from "@/db/queries/fact-checks";
import { PEER_HEADER } from "@/lib/auth/client-ip";
import { resetConfigForTests } from "@/lib/config";
import { createFactCheck, publish } from "@/lib/fact-checks/workflow";
import { publicOrigin } from "@/lib/net/public-url";
import { GET as dataFeedGet } from "@/app/fact-checks/datafeed.json/route";
import { GET as feedGet } from "@/app/fact-checks/feed.json/route";
import { callApi } from "../helpers/api";
import { seedDebates } from "../helpers/seed-debates";
import { backend, freshDatabase } from "./test-db";

/*
 * Public, cacheable documents (feeds, DataFeed, the API's fact-checks, ClaimReview) never take their
 * origin from a header a client wrote: a shared cache would serve the forged links to everyone.
 */

let h: DbHandle;
let slug = "";
const EVIL = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };

/** Every public document as a reader gets it, with these request headers. */
type Doc = { status: number; body: string };
async function documents(headers: Record<string, string>): Promise<{ feed: Doc; dataFeed: Doc; list: Doc; one: Doc }> {
  const at = (path: string) => new Request(`http://127.0.0.1:3000${path}`, { headers });
  const read = async (res: Response) => ({ status: res.status, body: await res.text() });
  return {
    feed: await read(await feedGet(at("/fact-checks/feed.json"))),
    dataFeed: await read(await dataFeedGet(at("/fact-checks/datafeed.json"))),
    list: await read(await callApi({ method: "GET", path: "/api/v1/fact-checks", headers })),
    one: await read(await callApi({ method: "GET", path: "/api/v1/fact-checks/{slug}", params: { slug }, headers })),
  };
}

function production(env: Record<string, string>) {
  vi.stubEnv("NODE_ENV", "production");
  vi.stubEnv("PUBLIC_URL", env.PUBLIC_URL ?? "");
  vi.stubEnv("APP_URL", "");
  vi.stubEnv("TRUSTED_PROXIES", env.TRUSTED_PROXIES ?? "");
  resetConfigForTests();
}

beforeAll(async () => {
  h = await freshDatabase();
  useDatabase(h);
  const [debateId] = await seedDebates(h.db, { count: 1 });
  const u = await createUser(h.db, { email: "ed@origin.test", passwordHash: null, roles: ["editor"] });
  const editor = { id: u.id, email: u.email, name: null, roles: ["editor" as const] };
  const content: FactCheckContent = {
    claim: "The bridge cost 40 million.",
    rating: "FALSE",
    textualRating: "False",
    explanation: "It cost 25 million.",
    sources: [],
    claimant: "A. Mayor",
    claimantKind: "Person",
    whereSaid: "Radio interview",
    appearanceUrl: null,
    claimDate: "2024-01-02",
    showDebateLink: false,
    correctionNote: null,
  };
  const fc = await createFactCheck(h.db, editor, { debateId: debateId! }, content);
  await publish(h.db, editor, fc.id, 1);
  slug = fc.slug;
});
afterEach(() => {
  vi.unstubAllEnvs();
  resetConfigForTests();
});
afterAll(async () => {
  await h?.close();
});

describe(`public documents take no origin from the request (${backend})`, () => {
  it("with PUBLIC_URL, forged Host and X-Forwarded-Host change nothing", async () => {
    production({ PUBLIC_URL: "https://news.example.org" });
    const plain = await documents({ host: "news.example.org" });
    expect(JSON.parse(plain.one.body).url).toBe(`https://news.example.org/fact-checks/${slug}`);
    expect(JSON.parse(plain.feed.body).items[0].url).toBe(`https://news.example.org/fact-checks/${slug}`);
    expect(await documents(EVIL)).toEqual(plain);
  });

  it("in production without PUBLIC_URL, no document names a forged host; feeds say to set PUBLIC_URL", async () => {
    production({});
    const docs = await documents(EVIL);
    for (const [name, d] of Object.entries(docs)) expect(d.body, name).not.toContain("evil.example");
    expect(docs.feed.status).toBe(503);
    expect(docs.feed.body).toMatch(/PUBLIC_URL/);
    expect(JSON.parse(docs.one.body).url).toBeNull();
    // A peer that is not a trusted proxy cannot make its X-Forwarded-Host believed by claiming to be one.
    production({ TRUSTED_PROXIES: "10.0.0.0/8" });
    const untrusted = await documents({ ...EVIL, [PEER_HEADER]: "203.0.113.9" });
    for (const [name, d] of Object.entries(untrusted)) expect(d.body, name).not.toContain("evil.example");
  });

  it("X-Forwarded-* is believed only from a proxy named in TRUSTED_PROXIES", () => {
    production({ TRUSTED_PROXIES: "10.0.0.0/8" });
    const h = (peer: string) => new Headers({ ...EVIL, "x-forwarded-host": "news.example.org", [PEER_HEADER]: peer });
    expect(publicOrigin({ headers: h("10.1.2.3") })).toBe("https://news.example.org");
    expect(publicOrigin({ headers: h("::ffff:10.1.2.3") })).toBe("https://news.example.org");
    expect(publicOrigin({ headers: h("203.0.113.9") })).toBeNull();
    // Outside production (a laptop, tests) the Host header still builds links, but never X-Forwarded-Host.
    vi.stubEnv("NODE_ENV", "development");
    expect(publicOrigin({ headers: new Headers({ host: "localhost:3000", "x-forwarded-host": "evil.example" }) })).toBe(
      "http://localhost:3000",
    );
  });
});
