import { describe, expect, it } from "vitest";
import { chunks, inChunks, MAX_ROWS_PER_STATEMENT } from "@/db/bulk";

describe("statement bound (db/bulk.ts)", () => {
  const rows = (n: number) => Array.from({ length: n }, (_, i) => i);

  it("keeps the bound in one statement and splits one past it into two, in order, nothing lost", () => {
    expect(chunks(rows(MAX_ROWS_PER_STATEMENT)).map((c) => c.length)).toEqual([MAX_ROWS_PER_STATEMENT]);
    const past = chunks(rows(MAX_ROWS_PER_STATEMENT + 1));
    expect(past.map((c) => c.length)).toEqual([MAX_ROWS_PER_STATEMENT, 1]);
    expect(past.flat()).toEqual(rows(MAX_ROWS_PER_STATEMENT + 1));
    expect(chunks([])).toEqual([]);
  });

  it("runs one slice at a time and concatenates what each returns", async () => {
    const sizes: number[] = [];
    let running = 0;
    const out = await inChunks(rows(2 * MAX_ROWS_PER_STATEMENT + 1), async (slice) => {
      expect(++running).toBe(1);
      sizes.push(slice.length);
      await new Promise((r) => setTimeout(r, 1));
      running--;
      return slice.map((x) => x * 2);
    });
    expect(sizes).toEqual([MAX_ROWS_PER_STATEMENT, MAX_ROWS_PER_STATEMENT, 1]);
    expect(out).toEqual(rows(2 * MAX_ROWS_PER_STATEMENT + 1).map((x) => x * 2));
  });

  it("refuses a size that is not a whole number of rows", () => {
    expect(() => chunks(rows(3), 0)).toThrow(/whole number >= 1/);
  });
});
