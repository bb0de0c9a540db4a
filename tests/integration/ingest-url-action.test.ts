import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { count } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { signedInAs, useDatabase } from "../helpers/next-request";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { hashPassword } from "@/lib/auth/password";
import { createSession } from "@/lib/auth/sessions";
import { resetConfigForTests } from "@/lib/config";
import { createCorpusAction, ingestUrlAction } from "@/app/corpora/actions";
import { freshDatabase } from "./test-db";

/* URL ingestion as a fact-checker uses it from the corpus page, against loopback servers only. */

let h: DbHandle;
let server: http.Server;
let base = "";
let closedPort = 0;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-url-action-"));
const form = (values: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(values)) f.set(k, v);
  return f;
};

beforeAll(async () => {
  h = await freshDatabase();
  useDatabase(h);
  vi.stubEnv("DATA_DIR", dataDir);
  resetConfigForTests();
  const u = await createUser(h.db, {
    email: "checker@x.org",
    passwordHash: await hashPassword("correct horse battery"),
    roles: ["fact-checker"],
  });
  signedInAs((await createSession(h.db, u.id)).token);
  await createCorpusAction({}, form({ name: "web" })).catch(() => {});
  server = http.createServer((_req, res) =>
    res.writeHead(200, { "content-type": "text/plain" }).end("Internal admin page: the database password is hunter2."),
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const probe = http.createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
});

it("refuses this server's own network in plain words and stores nothing", async () => {
  for (const url of [
    `${base}/`,
    `http://2130706433:${base.split(":")[2]}/`,
    "http://[::ffff:127.0.0.1]/",
    "http://169.254.169.254/latest/meta-data/",
  ]) {
    const state = await ingestUrlAction({}, form({ corpus: "web", url }));
    expect(state.error).toMatch(
      /is on a private or local network \(or this server itself\), which is not fetched for safety\. An administrator can allow intranet hosts with FETCH_ALLOW_HOSTS\./,
    );
  }
  expect((await h.db.select({ n: count() }).from(s.ingestJobs))[0]!.n).toBe(0);
  expect((await h.db.select({ n: count() }).from(s.passages))[0]!.n).toBe(0);
});

it("says a site could not be reached, without Node's error codes and the same way for a closed port", async () => {
  vi.stubEnv("FETCH_ALLOW_HOSTS", "127.0.0.1");
  resetConfigForTests();
  try {
    const state = await ingestUrlAction({}, form({ corpus: "web", url: `http://127.0.0.1:${closedPort}/` }));
    expect(state.error).toBe(
      `127.0.0.1:${closedPort}: the site could not be reached (it may be down, or the address may be wrong)`,
    );
  } finally {
    vi.stubEnv("FETCH_ALLOW_HOSTS", "");
    resetConfigForTests();
  }
});
