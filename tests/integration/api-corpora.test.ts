import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { useDatabase } from "../helpers/next-request";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { createApiToken } from "@/lib/auth/api-tokens";
import { permissionsOf } from "@/lib/auth/policy";
import { resetConfigForTests } from "@/lib/config";
import { callApi } from "../helpers/api";
import { backend, freshDatabase } from "./test-db";

/*
 * Corpora through the API (issue 36): create one, push documents as JSON records (an ingest job
 * on the corpus page's upload path), follow the job to its result, list corpora with a cursor; a
 * retry with the same Idempotency-Key makes one job; refusals in the API's error shape.
 */

let h: DbHandle;
let writer = "";
let reader = "";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-api-corpora-"));

type ErrorBody = { error: { code: string; message: string; field?: string } };
type Job = {
  id: string;
  status: string;
  source: string;
  result: { documentsAdded: number; documentsUnchanged: number; errors: number; passagesAdded: number };
  recentErrors: Array<{ message: string }>;
  links: { self: string; corpus: string | null };
};

beforeAll(async () => {
  vi.stubEnv("DATA_DIR", dataDir);
  resetConfigForTests();
  h = await freshDatabase();
  useDatabase(h);
  const token = async (email: string, roles: s.UserRole[]) => {
    const u = await createUser(h.db, { email, passwordHash: null, roles });
    return (
      await createApiToken(h.db, { id: u.id, email, name: null, roles }, { name: email, scopes: permissionsOf(roles) })
    ).token;
  };
  writer = await token("desk@x.org", ["fact-checker"]);
  reader = await token("reader@x.org", ["journalist"]);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function finished(id: string): Promise<Job> {
  // The job runs on in this process after the answer; bounded wait for it to end.
  for (let i = 0; i < 300; i++) {
    const res = await callApi({ method: "GET", path: "/api/v1/ingest-jobs/{id}", params: { id }, token: reader });
    expect(res.status).toBe(200);
    const job = (await res.json()) as Job;
    if (job.status !== "running") return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`ingest job ${id} did not finish`);
}

const article = (id: string, text: string) => ({
  id,
  title: `Article ${id}`,
  url: `https://news.example.org/${id}`,
  published_at: "2024-03-01",
  text,
});

describe(`corpora through /api/v1 (${backend})`, () => {
  it("creates a corpus, refusing a reader's token (403), a bad name (400 naming it) and a taken one (409)", async () => {
    const denied = await callApi({ method: "POST", path: "/api/v1/corpora", token: reader, body: { name: "cms" } });
    expect(denied.status).toBe(403);
    const bad = await callApi({ method: "POST", path: "/api/v1/corpora", token: writer, body: { name: "my cms" } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ErrorBody).error.field).toBe("name");

    const made = await callApi({
      method: "POST",
      path: "/api/v1/corpora",
      token: writer,
      body: { name: "cms", description: "Our articles" },
    });
    expect(made.status).toBe(201);
    expect(made.headers.get("location")).toBe("http://127.0.0.1:3000/api/v1/corpora/cms");
    expect(await made.json()).toMatchObject({ name: "cms", documents: 0, description: "Our articles" });
    const again = await callApi({ method: "POST", path: "/api/v1/corpora", token: writer, body: { name: "cms" } });
    expect(again.status).toBe(409);
  });

  it("adds documents as one ingest job, also when the request is retried with its Idempotency-Key, and reads its result", async () => {
    const body = {
      documents: [
        article("a-1", "The council approved the new bridge budget of 40 million in March 2024."),
        article("a-2", "Flood relief funds reached 2.4 million after the charity auction."),
        // The ingest's own rule refuses this one; the rest go in and the job says why.
        { id: "a-3", text: "Dated wrongly.", published_at: "last Tuesday" },
      ],
    };
    const send = () =>
      callApi({
        method: "POST",
        path: "/api/v1/corpora/{name}/documents",
        params: { name: "cms" },
        token: writer,
        body,
        headers: { "idempotency-key": "push-1" },
      });
    const first = await send();
    expect(first.status).toBe(202);
    const started = (await first.json()) as Job;
    expect(first.headers.get("location")).toBe(started.links.self);
    expect(started.source).toBe("documents.jsonl");
    const retry = await send();
    expect(retry.status).toBe(202);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(((await retry.json()) as Job).id).toBe(started.id);
    expect(await h.db.select().from(s.ingestJobs)).toHaveLength(1);

    const job = await finished(started.id);
    expect(job.status).toBe("completed");
    expect(job.result).toMatchObject({ documentsAdded: 2, errors: 1 });
    expect(job.result.passagesAdded).toBeGreaterThan(0);
    expect(job.recentErrors[0]!.message).toContain("published_at");

    // Pushing an article again unchanged adds nothing.
    const repush = await callApi({
      method: "POST",
      path: "/api/v1/corpora/{name}/documents",
      params: { name: "cms" },
      token: writer,
      body: { documents: [body.documents[0]] },
    });
    expect((await finished(((await repush.json()) as Job).id)).result).toMatchObject({
      documentsAdded: 0,
      documentsUnchanged: 1,
    });

    const read = await callApi({
      method: "GET",
      path: "/api/v1/corpora/{name}",
      params: { name: "cms" },
      token: reader,
    });
    expect(await read.json()).toMatchObject({ name: "cms", documents: 2, jobs: [{ status: "completed" }, {}] });
    // Nothing of the uploads folder stays once the jobs completed (removed right after the job's last word).
    const uploads = path.join(dataDir, "uploads");
    for (let i = 0; i < 100 && fs.readdirSync(uploads).length; i++) await new Promise((r) => setTimeout(r, 20));
    expect(fs.readdirSync(uploads)).toEqual([]);
  });

  it("adds a file as one ingest job, also when retried with its Idempotency-Key, and refuses a format it does not read", async () => {
    const send = (filename: string, body: string, key?: string) =>
      callApi({
        method: "POST",
        path: "/api/v1/corpora/{name}/files",
        params: { name: "cms" },
        query: { filename },
        token: writer,
        body,
        headers: { "content-type": "text/markdown", ...(key ? { "idempotency-key": key } : {}) },
      });
    const notes = "# Budget notes\n\nThe bridge budget was revised to 52 million in June 2024.";
    const first = await send("budget-notes.md", notes, "file-1");
    expect(first.status).toBe(202);
    const started = (await first.json()) as Job;
    expect(started.source).toBe("budget-notes.md");
    const retry = await send("budget-notes.md", notes, "file-1");
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(((await retry.json()) as Job).id).toBe(started.id);
    // The same key with another file is another request: refused, nothing made.
    expect((await send("budget-notes.md", `${notes} Revised.`, "file-1")).status).toBe(409);
    expect((await finished(started.id)).result).toMatchObject({ documentsAdded: 1, errors: 0 });

    const exe = await send("setup.exe", "MZ");
    expect(exe.status).toBe(415);
    expect(((await exe.json()) as ErrorBody).error).toMatchObject({
      field: "filename",
      message: expect.stringContaining(".pdf"),
    });
    const unnamed = await callApi({
      method: "POST",
      path: "/api/v1/corpora/{name}/files",
      params: { name: "cms" },
      token: writer,
      body: notes,
      headers: { "content-type": "text/markdown" },
    });
    expect(((await unnamed.json()) as ErrorBody).error.field).toBe("filename");
  });

  it("refuses documents without the scope, with a broken field, or for a corpus that does not exist", async () => {
    const push = (token: string, name: string, body: unknown) =>
      callApi({ method: "POST", path: "/api/v1/corpora/{name}/documents", params: { name }, token, body });
    expect((await push(reader, "cms", { documents: [article("x", "t")] })).status).toBe(403);
    const noText = await push(writer, "cms", { documents: [{ id: "x" }] });
    expect(noText.status).toBe(400);
    expect(((await noText.json()) as ErrorBody).error.field).toBe("documents.0.text");
    const empty = await push(writer, "cms", { documents: [] });
    expect(((await empty.json()) as ErrorBody).error.field).toBe("documents");
    expect((await push(writer, "nowhere", { documents: [article("x", "t")] })).status).toBe(404);
  });

  it("lists corpora by name with a cursor and absolute next links", async () => {
    for (const name of ["b-desk", "c-archive"])
      expect((await callApi({ method: "POST", path: "/api/v1/corpora", token: writer, body: { name } })).status).toBe(
        201,
      );
    const names: string[] = [];
    let next: string | null = "http://127.0.0.1:3000/api/v1/corpora?limit=2";
    while (next) {
      expect(next).toMatch(/^http:\/\/127\.0\.0\.1:3000\/api\/v1\/corpora\?/);
      const url: URL = new URL(next);
      const res = await callApi({
        method: "GET",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        token: reader,
      });
      const page = (await res.json()) as { corpora: Array<{ name: string }>; next: string | null };
      names.push(...page.corpora.map((c) => c.name));
      next = page.next;
    }
    expect(names).toEqual(["b-desk", "c-archive", "cms"]);
    const bad = await callApi({ method: "GET", path: "/api/v1/corpora", query: { cursor: "!!" }, token: reader });
    expect(((await bad.json()) as ErrorBody).error.field).toBe("cursor");
    expect(await h.db.select().from(s.corpora).where(eq(s.corpora.name, "cms"))).toHaveLength(1);
  });
});
