import { afterAll, beforeAll, expect, it } from "vitest";
import { signedInAs, useDatabase } from "../helpers/next-request";
import type { DbHandle } from "@/db/client";
import { findCorpus, listCorpora } from "@/db/queries/corpus";
import { createUser } from "@/db/queries/users";
import { hashPassword } from "@/lib/auth/password";
import { createSession } from "@/lib/auth/sessions";
import { ingestRecords, listIngestJobs } from "@/lib/corpus/ingest";
import { reembedCorpusAction } from "@/app/corpora/actions";
import { search } from "@/lib/retrieval/search";
import { fakeEmbedder } from "../helpers/fake-embedder";
import { freshDatabase } from "./test-db";

/* The corpus page's Re-embed button, as its server action sees it. */

let h: DbHandle;
let checker = "";
let annotator = "";
const form = (values: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(values)) f.set(k, v);
  return f;
};

beforeAll(async () => {
  h = await freshDatabase();
  useDatabase(h);
  const c = await createUser(h.db, {
    email: "checker@x.org",
    passwordHash: await hashPassword("correct horse battery"),
    roles: ["fact-checker"],
  });
  const a = await createUser(h.db, {
    email: "annotator@x.org",
    passwordHash: await hashPassword("correct horse battery"),
    roles: ["annotator"],
  });
  checker = (await createSession(h.db, c.id)).token;
  annotator = (await createSession(h.db, a.id)).token;
  const records = ["The ferry budget passed.", "The council met on Tuesday.", "Gas prices rose in 2008."].map(
    (text, i) => ({ kind: "document" as const, document: { id: `d${i}`, text } }),
  );
  await ingestRecords(h.db, records, { corpus: "old", embedder: fakeEmbedder(), source: "t", kind: "records" });
});
afterAll(async () => {
  await h?.close();
});

it("refuses an annotator, and a model the server does not offer, starting nothing", async () => {
  signedInAs(annotator);
  expect((await reembedCorpusAction({}, form({ corpus: "old", model: "local:minilm-l6" }))).error).toMatch(
    /fact-checker or an admin/,
  );
  signedInAs(checker);
  expect(
    (await reembedCorpusAction({}, form({ corpus: "old", model: "openai:text-embedding-3-small" }))).error,
  ).toMatch(/openai:text-embedding-3-small is not offered here; choose one of local:minilm-l6, local:use-lite/);
  expect((await reembedCorpusAction({}, form({ corpus: "old", model: "" }))).error).toMatch(
    /choose an embedding model/,
  );
  expect((await reembedCorpusAction({}, form({ corpus: "gone", model: "local:minilm-l6" }))).error).toMatch(
    /no corpus named "gone"/,
  );
  const corpus = (await findCorpus(h.db, "old"))!;
  expect(await listIngestJobs(h.db, corpus.id)).toHaveLength(1); // only the ingest
});

it("a fact-checker starts a re-embed job with the real MiniLM; the corpus then searches with it and keeps its old vectors", async () => {
  signedInAs(checker);
  const state = await reembedCorpusAction({}, form({ corpus: "old", model: "local:minilm-l6" }));
  expect(state.error).toBeUndefined();
  expect(state.message).toMatch(/Re-embedding with local:minilm-l6/);
  const corpus = (await findCorpus(h.db, "old"))!;
  let job = (await listIngestJobs(h.db, corpus.id)).find((j) => j.kind === "reembed")!;
  expect(job.source).toBe("local:minilm-l6");
  for (let i = 0; i < 300 && job.status === "running"; i++) {
    await new Promise((r) => setTimeout(r, 100));
    job = (await listIngestJobs(h.db, corpus.id)).find((j) => j.kind === "reembed")!;
  }
  expect(job).toMatchObject({ status: "completed", recordsDone: 3 });
  const listed = (await listCorpora(h.db)).find((c) => c.name === "old")!;
  expect(listed.embeddingModel).toBe("local:minilm-l6");
  expect(listed.vectorModels).toEqual([
    { model: "local:minilm-l6", passages: 3 },
    { model: "test:hash-16", passages: 3 },
  ]);
  const res = await search(h.db, { text: "How much did gasoline cost in 2008?", corpus: "old", mode: "dense", k: 1 });
  expect(res.model).toBe("local:minilm-l6");
  expect(res.hits[0]!.passageExternalId).toBe("d2#0");
});
