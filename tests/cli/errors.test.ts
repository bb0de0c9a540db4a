import { DrizzleQueryError } from "drizzle-orm/errors";
import { describe, expect, it } from "vitest";
import { errorCode, jsonError, userMessage } from "@/lib/cli/errors";

describe("the CLI's error messages", () => {
  it("give a database error's reason in a sentence, never the query or its parameters", () => {
    const e = new DrizzleQueryError(
      'select "id" from "eval_runs" where "id" = $1',
      ["no-such-run"],
      new Error('invalid input syntax for type uuid: "no-such-run"'),
    );
    const m = userMessage(e);
    expect(m).toBe(
      'The database refused the request: invalid input syntax for type uuid: "no-such-run". Run with DEBUG=1 to see the query.',
    );
    expect(errorCode(e)).toBe("database");
  });

  it("take the query out of a message that wraps drizzle's", () => {
    const m = userMessage(new Error('saving failed: Failed query: insert into "x" values ($1)\nparams: secret'));
    expect(m).not.toMatch(/insert|secret/);
    expect(m).toMatch(/^saving failed: /);
  });

  it("print one JSON line, with the code only when there is one", () => {
    expect(JSON.parse(jsonError("bad", "usage"))).toEqual({ error: { message: "bad", code: "usage" } });
    expect(JSON.parse(jsonError("bad"))).toEqual({ error: { message: "bad" } });
  });
});
