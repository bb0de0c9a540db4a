import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { count } from "drizzle-orm";
import { signedInAs, useDatabase } from "../helpers/next-request";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { hashPassword } from "@/lib/auth/password";
import { createSession } from "@/lib/auth/sessions";
import { resetConfigForTests } from "@/lib/config";
import { startDebateAction } from "@/app/debates/actions";
import { claimLengthError } from "@/lib/debate/claim-length";
import { freshDatabase } from "./test-db";

/* An over-long claim is refused by the server in the words the form shows, and never cut short. */

let h: DbHandle;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-claimlen-"));

beforeAll(async () => {
  h = await freshDatabase();
  useDatabase(h);
  vi.stubEnv("DATA_DIR", dataDir);
  vi.stubEnv("DEFAULT_MODEL", "openai:gpt-4o-mini");
  vi.stubEnv("OPENAI_API_KEY", "sk-test");
  vi.stubEnv("DEBATE_RATE_LIMIT", "1/hour");
  resetConfigForTests();
  const u = await createUser(h.db, {
    email: "checker@x.org",
    passwordHash: await hashPassword("correct horse battery"),
    roles: ["fact-checker"],
  });
  signedInAs((await createSession(h.db, u.id)).token);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
});

const form = (values: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(values)) f.set(k, v);
  return f;
};

describe("an over-long claim", () => {
  it("is refused with the form's words, the text kept for editing, and no debate or rate-limit use", async () => {
    const claim = `${"The boxer sold his medal to help children. ".repeat(50)}`.trim();
    expect(claim.length).toBe(2149);
    const state = await startDebateAction(
      {},
      form({ claim, evidenceMode: "gold", goldEvidence: "A passage.", variant: "single" }),
    );
    expect(state.error).toBe(
      "The claim is 2,149 characters; the limit is 2,000. Shorten it by 149: quote only the part to check.",
    );
    expect(state.error).toBe(claimLengthError(claim));
    expect(state.field).toBe("claim");
    expect(state.values?.claim).toBe(claim);
    expect((await h.db.select({ n: count() }).from(s.debates))[0]!.n).toBe(0);
    expect((await h.db.select({ n: count() }).from(s.rateLimits))[0]!.n).toBe(0);
  });

  it("counts a line break as one character, as the form does, though the browser sends CRLF", () => {
    const claim = `${"a".repeat(1000)}\n${"b".repeat(999)}`;
    expect(claimLengthError(claim)).toBeNull();
    expect(claimLengthError(claim.replace("\n", "\r\n"))).toBeNull();
    expect(claimLengthError(`${claim}c`)).toMatch(/2,001 characters/);
  });
});
