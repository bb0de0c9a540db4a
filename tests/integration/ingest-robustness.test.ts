import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import iconv from "iconv-lite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as s from "@/db/schema";
import { getIngestJob, startIngest } from "@/lib/corpus/ingest";
import { toJobView } from "@/lib/corpus/job-view";
import { fakeEmbedder } from "../helpers/fake-embedder";
import { freshDatabase } from "./test-db";

let h: Awaited<ReturnType<typeof freshDatabase>>;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cp-ingest-robust-"));
const embedder = fakeEmbedder();
let n = 0;
const corpusName = () => `r${++n}-${Math.random().toString(36).slice(2, 8)}`;
const write = (name: string, content: string | Buffer) => {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, content);
  return file;
};

beforeAll(async () => {
  h = await freshDatabase();
});
afterAll(async () => {
  await h?.close();
});

async function passagesOf(corpus: string) {
  const [c] = await h.db.select().from(s.corpora).where(eq(s.corpora.name, corpus));
  if (!c) return [];
  return (await h.db.select({ text: s.passages.text }).from(s.passages).where(eq(s.passages.corpusId, c.id))).map(
    (p) => p.text,
  );
}

/** Runs an ingest the way the upload route does and waits for its job to end. */
async function runJob(file: string, corpus: string) {
  const { jobId, done } = await startIngest(h.db, file, { corpus, embedder });
  await done.catch(() => {});
  return (await getIngestJob(h.db, jobId))!;
}

describe("ingestion robustness", () => {
  it("decodes text in a legacy encoding instead of storing mojibake", async () => {
    const text =
      "Le conseil municipal a voté la réforme. Les élus ont débattu trois heures à propos de l'école et du théâtre.";
    const corpus = corpusName();
    const job = await runJob(write("latin1.txt", iconv.encode(text, "latin1")), corpus);
    expect(job.status).toBe("completed");
    const stored = (await passagesOf(corpus)).join(" ");
    expect(stored).toContain("réforme");
    expect(stored).not.toContain("\uFFFD");
  });

  it("refuses a binary file named .txt with the reason, and the job ends failed", async () => {
    const binary = Buffer.alloc(4096);
    for (let i = 0; i < binary.length; i++) binary[i] = (i * 7919) % 256;
    const corpus = corpusName();
    const job = await runJob(write("photo.txt", binary), corpus);
    expect(job.status).toBe("failed");
    expect(job.error).toMatch(/not text|binary/i);
    expect(await passagesOf(corpus)).toEqual([]);
  });

  it("strips NUL characters from JSONL fields, says so, and keeps the batch", async () => {
    const corpus = corpusName();
    const rows = [
      { id: "a", text: "The mayor opened the bridge in May." },
      { id: "b", text: "The council\u0000 approved the budget.", title: "Budget\u0000" },
      { id: "c", text: "The bridge cost four million." },
    ];
    const job = await runJob(write("nul.jsonl", rows.map((r) => JSON.stringify(r)).join("\n") + "\n"), corpus);
    expect(job.status).toBe("completed");
    expect(job.docsAdded).toBe(3);
    expect((await passagesOf(corpus)).sort()).toEqual([
      "The bridge cost four million.",
      "The council approved the budget.",
      "The mayor opened the bridge in May.",
    ]);
    expect(job.recentErrors.map((e) => e.message).join("\n")).toMatch(/line 2: .*NUL/);
  });

  it("marks the job failed with its reason even when the error itself holds characters the database refuses", async () => {
    const corpus = corpusName();
    const crashing = {
      ...embedder,
      async embed(): Promise<number[][]> {
        throw new Error("model server said \u0000\u0000 overloaded");
      },
    };
    const file = write("crash.jsonl", JSON.stringify({ id: "x", text: "Some text about the harbour." }) + "\n");
    const { jobId, done } = await startIngest(h.db, file, { corpus, embedder: crashing });
    await done.catch(() => {});
    const job = (await getIngestJob(h.db, jobId))!;
    expect(job.status).toBe("failed");
    expect(job.error).toBe("model server said  overloaded");
    expect(toJobView(job).resumable).toBe(true);
  });
});

describe("URL ingestion", () => {
  let server: http.Server;
  let base = "";
  beforeAll(async () => {
    server = http.createServer((_req, res) =>
      res
        .writeHead(200, { "content-type": "text/plain" })
        .end("Internal admin page: the database password is hunter2."),
    );
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it("refuses a loopback address that is not allow-listed, in plain words, and stores nothing", async () => {
    const corpus = corpusName();
    const err = await startIngest(h.db, `${base}/`, { corpus, embedder }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/private or local network .* FETCH_ALLOW_HOSTS/);
    expect(await passagesOf(corpus)).toEqual([]);
  });
});
