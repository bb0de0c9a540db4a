import { useDatabase } from "../helpers/next-request";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import { createUser } from "@/db/queries/users";
import { createApiToken, revokeApiToken } from "@/lib/auth/api-tokens";
import { announceRevoked } from "@/lib/auth/revocations";
import type { Principal } from "@/lib/auth/policy";
import { API_VERSION, ENDPOINTS } from "@/lib/api/v1";
import { openApiDocument } from "@/lib/api/openapi";
import { createPresetDebate, ensureBenchCorpus } from "@/lib/bench/protocols";
import { scriptedEmbedder } from "@/lib/bench/scripted-embedder";
import { scriptedModel, type Script } from "@/lib/bench/scripted-model";
import { parseConfig, resetConfigForTests } from "@/lib/config";
import { DEBATE_EVENTS, STREAM_EVENTS } from "@/lib/debate/event-schema";
import { getProtocol, PROTOCOL_NAMES } from "@/lib/debate/protocols";
import { runDebate } from "@/lib/debate/runner";
import { submitIntervention } from "@/lib/debate/interventions/service";
import { callApi, readEvents } from "../helpers/api";
import { backend, freshDatabase } from "./test-db";

/*
 * What the v1 event stream sends is what the OpenAPI document says: a scripted debate of every
 * method is followed through GET /api/v1/debates/{id}/events, and every event it sends is checked
 * against the document's schema of a stream message (undocumented fields refused). A retried and a
 * failed step and a revoked token add the events a smooth debate never sends; together the runs
 * must have sent every documented event type.
 */

let h: DbHandle;
let owner: Principal;
let token = "";
let annotatorToken = "";
type Message = { event: string; data: unknown };
let ajv: Ajv2020;
let validate: ReturnType<Ajv2020["compile"]>;
const seen = new Set<string>();

beforeAll(async () => {
  vi.stubEnv("LLM_MAX_RETRIES", "1");
  resetConfigForTests();
  h = await freshDatabase();
  useDatabase(h);
  await ensureBenchCorpus(h.db);
  const u = await createUser(h.db, { email: "client@x.org", passwordHash: null, roles: ["fact-checker"] });
  owner = { id: u.id, email: "client@x.org", name: null, roles: ["fact-checker"] };
  token = (await createApiToken(h.db, owner, { name: "client" })).token;
  const a = await createUser(h.db, { email: "labeller@x.org", passwordHash: null, roles: ["annotator"] });
  const annotator: Principal = { id: a.id, email: "labeller@x.org", name: null, roles: ["annotator"] };
  annotatorToken = (await createApiToken(h.db, annotator, { name: "labeller" })).token;
  const doc = openApiDocument(ENDPOINTS, API_VERSION);
  ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema(doc as object, "doc");
  validate = ajv.getSchema("doc#/components/schemas/DebateStreamMessage")!;
});
afterAll(async () => {
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
});

/** Opens the stream and reads it in the background; `snapshot` resolves once the first event is in. */
async function follow(id: string, as = token) {
  const res = await callApi({ method: "GET", path: "/api/v1/debates/{id}/events", params: { id }, token: as });
  expect(res.status).toBe(200);
  const messages: Message[] = [];
  // The shared reader; its `stop` callback sees each event as it arrives, so the test can look mid-stream.
  const ended = readEvents(res, (e) => {
    messages.push(e);
    return false;
  }).then(() => messages);
  await vi.waitFor(() => expect(messages.length).toBeGreaterThan(0), { timeout: 20_000 });
  return { messages, ended };
}

/** The errors of the one schema the message's name or type points to (the union's errors list every branch). */
const OWN_SCHEMA: Record<string, string> = {
  snapshot: "DebateSnapshot",
  revoked: "DebateStreamRevoked",
  missing: "DebateStreamMissing",
  end: "DebateStreamEnd",
};
function whyNot(m: Message) {
  const type = (m.data as { type?: string }).type ?? "";
  const own =
    m.event === "debate" && type in DEBATE_EVENTS
      ? `DebateEvent/oneOf/${Object.keys(DEBATE_EVENTS).indexOf(type)}`
      : OWN_SCHEMA[m.event];
  const check = own ? ajv.getSchema(`doc#/components/schemas/${own}`) : undefined;
  return check && !check(m.data) ? check.errors : validate.errors;
}

/** Every message matches the document; records which events and types were seen. */
function expectDocumented(messages: Message[]) {
  expect(messages[0]!.event).toBe("snapshot");
  for (const [i, m] of messages.entries()) {
    const type = m.event === "debate" ? (m.data as { type?: string }).type : undefined;
    const name = type ? `debate:${type}` : m.event;
    expect(Object.keys(STREAM_EVENTS), `event ${i} (${name}) is documented`).toContain(m.event);
    if (m.event === "debate") expect(Object.keys(DEBATE_EVENTS), `event ${i} (${name}) is documented`).toContain(type);
    expect(validate(m) ? [] : whyNot(m), `event ${i} (${name}) matches its documented schema`).toEqual([]);
    seen.add(name);
  }
}

const PRESET: Record<string, string> = { radar: "radar-four-agent", proclaim: "standard-mad" };

function runOptions(script: Script = {}) {
  const model = scriptedModel("openai:gpt-4o-mini", { pStop: 0.2, verdictProb: 0.9, ...script });
  const embedder = scriptedEmbedder();
  return {
    resolve: () => model.resolved,
    embedder,
    search: { config: parseConfig({}, process.cwd()).search, deps: { db: h.db, embedder } },
  };
}

async function watchRun(protocol: string, script: Script = {}, before?: (id: string) => Promise<unknown>) {
  const id = await createPresetDebate(
    h.db,
    protocol,
    PRESET[protocol] ?? Object.keys(getProtocol(protocol).presets)[0]!,
  );
  await before?.(id);
  const stream = await follow(id);
  // Someone who may still label it follows the same debate: what they get is documented too.
  const labeller = await follow(id, annotatorToken);
  const outcome = await runDebate(h.db, id, runOptions(script));
  const messages = await stream.ended;
  expectDocumented(messages);
  const withheld = await labeller.ended;
  expectDocumented(withheld);
  return { outcome, messages, withheld };
}

describe(`the v1 event stream sends only what the OpenAPI document describes (${backend})`, () => {
  it.each(PROTOCOL_NAMES)("%s: every event of a scripted debate matches its documented schema", async (name) => {
    const { outcome, messages, withheld } = await watchRun(name);
    expect(outcome.status).toBe("completed");
    // The debate's last change, then the documented end of the stream.
    expect(messages.slice(-2)).toEqual([
      { event: "debate", data: { type: "status", status: "completed" } },
      { event: "end", data: { status: "completed" } },
    ]);
    // The document's promise to someone who may still label it: no verdict, notes or judging steps.
    const types = (ms: Message[]) =>
      ms.filter((m) => m.event === "debate").map((m) => (m.data as { type: string }).type);
    expect(types(messages)).toContain("verdict");
    expect(types(withheld)).not.toContain("verdict");
    expect(types(withheld)).not.toContain("note");
    const kinds = withheld.flatMap((m) => {
      const d = m.data as { type?: string; turn?: { kind: string; scores: unknown } };
      return d.turn ? [`${d.type} ${d.turn.kind} ${d.type === "turn-end" ? d.turn.scores : ""}`.trim()] : [];
    });
    expect(new Set(kinds)).toEqual(new Set(["turn-start speech", "turn-end speech null"]));
    expect((withheld[0]!.data as { debate: { verdict: unknown } }).debate.verdict).toBeNull();
  });

  it("a retried step, a failed debate, an intervention and a revoked token send documented events too", async () => {
    const retried = await watchRun(
      "radar",
      { failOnCall: { n: 1, error: Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }) } },
      // A person's question, applied at the first turn: its `intervention` event is documented too.
      (id) => submitIntervention(owner, id, { kind: "ask", question: "Which year?" }, h.db),
    );
    expect(retried.outcome.status).toBe("completed");
    const failed = await watchRun("radar", { failOnCall: { n: 1, error: new Error("model exploded") } });
    expect(failed.outcome.status).toBe("failed");
    expect(failed.messages.at(-2)!.data).toMatchObject({ type: "status", status: "failed" });
    expect(failed.messages.at(-1)).toEqual({ event: "end", data: { status: "failed" } });

    const made = await createApiToken(h.db, owner, { name: "short-lived" });
    const queued = await createPresetDebate(h.db, "radar", "radar-single");
    const stream = await follow(queued, made.token);
    await revokeApiToken(h.db, owner, made.row.id);
    announceRevoked(`api-token:${made.row.id}`);
    const messages = await stream.ended;
    expect(messages.map((m) => m.event)).toEqual(["snapshot", "revoked"]);
    expectDocumented(messages);
  });

  it("together the runs sent every documented debate event type", () => {
    const debateTypes = Object.keys(DEBATE_EVENTS).map((t) => `debate:${t}`);
    expect([...seen].sort()).toEqual([...debateTypes, "end", "revoked", "snapshot"].sort());
  });
});
