import { describe, expect, it } from "vitest";
import { keysetPages } from "@/db/queries/keyset";

describe("keyset paging", () => {
  it("stops with an error when a page does not move the cursor, instead of repeating it forever", async () => {
    const row = { at: "2025-03-01 12:00:00.000001+00", id: "00000000-0000-0000-0000-000000000001" };
    let fetches = 0;
    const pages = keysetPages(
      async () => {
        fetches++;
        return [row];
      },
      (r) => r,
    );
    const seen: unknown[] = [];
    await expect(
      (async () => {
        for await (const p of pages) if (seen.push(p) > 10) break;
      })(),
    ).rejects.toThrow(/did not advance/);
    expect(seen).toHaveLength(1);
    expect(fetches).toBe(2);
  });
});
