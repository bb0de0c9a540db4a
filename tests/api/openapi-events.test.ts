import { describe, expect, it } from "vitest";
import { API_VERSION, ENDPOINTS } from "@/lib/api/v1";
import { openApiDocument } from "@/lib/api/openapi";
import { DEBATE_EVENTS, STREAM_EVENTS } from "@/lib/debate/event-schema";

/*
 * The OpenAPI document describes the debate event stream precisely: every stream event and every
 * `debate` event type, each with its payload's schema and its meaning in words, and what a viewer
 * who may still label the debate does not get.
 */

type Schema = {
  $ref?: string;
  oneOf?: Schema[];
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  const?: string;
  enum?: string[];
  description?: string;
  required?: string[];
};

const doc = openApiDocument(ENDPOINTS, API_VERSION) as unknown as {
  paths: Record<
    string,
    Record<string, { description?: string; responses: Record<string, { content: Record<string, { schema: Schema }> }> }>
  >;
  components: { schemas: Record<string, Schema> };
};
const deref = (s: Schema): Schema => (s.$ref ? deref(doc.components.schemas[s.$ref.split("/").pop()!]!) : s);
const options = (s: Schema) => (deref(s).oneOf ?? deref(s).anyOf ?? []).map(deref);
const literal = (s: Schema | undefined) => (s ? (deref(s).const ?? deref(s).enum?.[0]) : undefined);

describe("the OpenAPI document of GET /api/v1/debates/{id}/events", () => {
  const op = doc.paths["/api/v1/debates/{id}/events"]!.get!;
  const stream = op.responses["200"]!.content["text/event-stream"]!.schema;

  it("lists every stream event with the schema of its data", () => {
    const messages = options(stream);
    expect(messages.map((m) => literal(m.properties!.event)).sort()).toEqual(Object.keys(STREAM_EVENTS).sort());
    for (const m of messages) {
      expect(m.required).toEqual(expect.arrayContaining(["event", "data"]));
      expect(m.description, `${literal(m.properties!.event)}`).toBeTruthy();
    }
    const snapshot = deref(messages.find((m) => literal(m.properties!.event) === "snapshot")!.properties!.data!);
    expect(Object.keys(snapshot.properties!).sort()).toEqual(["debate", "live"]);
    expect(Object.keys(deref(snapshot.properties!.debate!).properties!)).toEqual(
      expect.arrayContaining(["status", "turns", "evidence", "verdict", "notes", "extras", "claim"]),
    );
    const revoked = deref(messages.find((m) => literal(m.properties!.event) === "revoked")!.properties!.data!);
    expect(revoked.required).toEqual(["message"]);
    // A finished debate's stream ends with `end`, and a reconnect after it is answered 204 (the standard's stop).
    const end = messages.find((m) => literal(m.properties!.event) === "end")!;
    expect(deref(end.properties!.data!).required).toEqual(["status"]);
    expect(end.description).toMatch(/204/);
    expect((op.responses["204"] as { description?: string }).description).toMatch(/Last-Event-ID: end/);
  });

  it("lists every debate event type with its payload, and says what each means", () => {
    const debate = options(stream).find((m) => literal(m.properties!.event) === "debate")!.properties!.data!;
    const types = options(debate);
    expect(types.map((t) => literal(t.properties!.type)).sort()).toEqual(Object.keys(DEBATE_EVENTS).sort());
    for (const t of types)
      expect(Object.keys(t.properties!).length, `${literal(t.properties!.type)}`).toBeGreaterThan(1);
    const turnEnd = types.find((t) => literal(t.properties!.type) === "turn-end")!;
    expect(Object.keys(deref(turnEnd.properties!.turn!).properties!)).toEqual(
      expect.arrayContaining(["seq", "content", "scores", "citations"]),
    );
    for (const [type, e] of Object.entries(DEBATE_EVENTS)) {
      expect(e.meaning.length, type).toBeGreaterThan(20);
      expect(op.description).toContain(`\`${type}\`: ${e.meaning}`);
    }
    for (const [name, e] of Object.entries(STREAM_EVENTS))
      expect(op.description).toContain(`\`${name}\`: ${e.meaning}`);
  });

  it("says what someone who may still label the debate does not get", () => {
    expect(op.description).toMatch(/may still label the debate/);
    expect(op.description).toMatch(/no `verdict` or `note` events/);
  });
});
