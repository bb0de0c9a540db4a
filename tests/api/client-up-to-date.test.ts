import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLIENT_FILE, clientSource } from "@/scripts/generate-client";

/*
 * client/counterpoint-api.ts is generated from the OpenAPI document and never edited by hand: it
 * must be exactly what the document makes now, or a route or schema changed without the client.
 */

describe("the typed TypeScript client", () => {
  it("is what the current OpenAPI document generates (run `npm run client:generate` when this fails)", async () => {
    const committed = readFileSync(CLIENT_FILE, "utf8");
    const fresh = await clientSource();
    // A short first difference reads better in a failure than a 3,000-line diff.
    const at = [...fresh].findIndex((c, i) => c !== committed[i]);
    expect(
      at === -1 && fresh.length === committed.length ? null : fresh.slice(Math.max(0, at - 80), at + 80),
      "client/counterpoint-api.ts differs from the document here; run `npm run client:generate`",
    ).toBeNull();
    // It covers every operation and every webhook of the document.
    expect(fresh).toMatch(/"\/api\/v1\/debates\/\{id\}\/events": \{/);
    expect(fresh).toMatch(/"comparison\.finished": \{/);
  });
});
