import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/api/openapi";
import { API_VERSION, ENDPOINTS } from "@/lib/api/v1";
import { ALL_WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/events";

/*
 * The document describes the conventions the server keeps (lib/api/serve.ts, lib/api/route.ts):
 * request ids and RateLimit headers on answers, ETag with If-None-Match and 304 on JSON reads,
 * 415 on bodies, 405 with Allow, Idempotency-Key on starts, Location on what a POST creates.
 */

type Op = {
  parameters?: Array<{ name: string; in: string }>;
  responses: Record<string, { headers?: Record<string, { $ref: string }> }>;
};
const doc = openApiDocument(ENDPOINTS, API_VERSION) as unknown as {
  paths: Record<string, Record<string, Op>>;
  components: { headers: Record<string, unknown>; responses: Record<string, { headers: Record<string, unknown> }> };
};
const op = (path: string, method: string) => doc.paths[path]![method]!;
const headers = (o: Op, status: string) => Object.keys(o.responses[status]?.headers ?? {});

describe("the OpenAPI document's HTTP conventions", () => {
  it("is valid OpenAPI 3.1 with its headers and responses as components", async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(Object.keys(doc.components.headers)).toEqual(
      expect.arrayContaining([
        "X-Request-Id",
        "RateLimit-Limit",
        "RateLimit-Remaining",
        "RateLimit-Reset",
        "ETag",
        "Allow",
      ]),
    );
    expect(Object.keys(doc.components.responses.MethodNotAllowed!.headers)).toContain("Allow");
    // Redocly's recommended rules warn on a document without a licence.
    expect((doc as unknown as { info: { license?: { name: string } } }).info.license?.name).toBe("Apache-2.0");
  });

  it("lists every webhook event in the `webhooks` section, its body the envelope the emitter builds", () => {
    const webhooks = (doc as unknown as { webhooks: Record<string, { post: Op & { requestBody: unknown } }> }).webhooks;
    expect(Object.keys(webhooks)).toEqual([...ALL_WEBHOOK_EVENT_TYPES]);
    for (const type of ALL_WEBHOOK_EVENT_TYPES) {
      const post = webhooks[type]!.post;
      expect(post.parameters?.map((p) => p.name)).toEqual(["webhook-id", "webhook-timestamp", "webhook-signature"]);
      expect(JSON.stringify(post.requestBody)).toMatch(/#\/components\/schemas\/\w+Event"/);
    }
  });

  it("names the headers and statuses of every operation", () => {
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, o] of Object.entries(ops)) {
        const success = Object.keys(o.responses).find((c) => c.startsWith("2"))!;
        expect(headers(o, success), `${method} ${path}`).toEqual(
          expect.arrayContaining(["X-Request-Id", "RateLimit-Remaining"]),
        );
        expect(headers(o, "429"), `${method} ${path}`).toContain("Retry-After");
      }
    const read = op("/api/v1/debates/{id}", "get");
    expect(headers(read, "200")).toContain("ETag");
    expect(headers(read, "304")).toContain("ETag");
    expect(read.parameters?.map((p) => `${p.in} ${p.name}`)).toContain("header If-None-Match");
    const start = op("/api/v1/debates", "post");
    expect(Object.keys(start.responses)).toEqual(expect.arrayContaining(["201", "409", "415"]));
    expect(start.parameters?.map((p) => `${p.in} ${p.name}`)).toContain("header Idempotency-Key");
    expect(headers(start, "201")).toEqual(expect.arrayContaining(["Location", "Idempotent-Replayed"]));
    const compare = op("/api/v1/comparisons", "post");
    expect(headers(compare, "201")).toContain("Location");
    expect(compare.parameters?.map((p) => p.name)).toContain("Idempotency-Key");
  });

  it("lists and reads every resource a POST creates", () => {
    for (const path of ["/api/v1/debates", "/api/v1/comparisons"])
      expect(Object.keys(doc.paths[path]!).sort()).toEqual(["get", "post"]);
    expect(doc.paths["/api/v1/comparisons/{id}"]?.get).toBeDefined();
    expect(op("/api/v1/debates/{id}/stop", "post").responses["202"]).toBeDefined();
    expect(op("/api/v1/debates/{id}/resume", "post").responses["202"]).toBeDefined();
    const cursor = (p: string) => op(p, "get").parameters?.map((x) => x.name);
    for (const p of ["/api/v1/debates", "/api/v1/comparisons", "/api/v1/eval-runs"])
      expect(cursor(p)).toContain("cursor");
  });

  it("takes an Idempotency-Key on every POST that creates or spends; the others say why they need none", () => {
    // Safe to repeat as they are: a second stop or resume of the same debate is a 409 and pays
    // nothing; matching reads; a line already received is recognised by its own id.
    const safeAsTheyAre: Record<string, string> = {
      stopDebate: "a second stop finds the debate not running (409)",
      resumeDebate: "a second resume finds the debate running (409)",
      matchClaim: "reads earlier checks, creates nothing",
      pushLiveLines: "each line carries its own id; a repeated id is answered as a duplicate",
      closeLiveSession: "closing a closed session changes nothing",
      testWebhook: "each call is meant to send one more test; a repeat sends another, which is what was asked",
    };
    const posts = ENDPOINTS.filter((e) => e.method === "POST");
    const without = posts.filter((e) => !e.idempotent).map((e) => e.id);
    expect(without.sort()).toEqual(Object.keys(safeAsTheyAre).sort());
    for (const e of posts.filter((e) => e.idempotent && !e.rawBody)) {
      const params = op(e.path, "post").parameters ?? [];
      expect(
        params.map((p) => p.name),
        e.id,
      ).toContain("Idempotency-Key");
    }
  });
});
