import { describe, expect, it } from "vitest";
import { errorFor, formEntries, formErrorOf, listOf, refuse } from "@/lib/forms/state";

function form(entries: Array<[string, string | File]>) {
  const f = new FormData();
  for (const [k, v] of entries) f.append(k, v);
  return f;
}

describe("refuse: what a refused form sends back", () => {
  const sent = form([
    ["$ACTION_ID_abc", ""],
    ["name", "Run of Tuesday"],
    ["protocols", "radar"],
    ["protocols", "tool-mad"],
    ["password", "hunter2 hunter2"],
    ["confirm", "hunter2 hunter2"],
    ["claims", new File(['{"id": "1"}\n'], "mine.jsonl")],
    ["empty", new File([], "")],
  ]);

  it("keeps every text field and every ticked box, in order, and names the chosen file", () => {
    const s = refuse(sent, "Limit (claims): write digits only.", "limit");
    expect(s.error).toBe("Limit (claims): write digits only.");
    expect(s.field).toBe("limit");
    expect(s.values).toEqual({ name: "Run of Tuesday", protocols: "radar" });
    expect(s.lists).toEqual({ protocols: ["radar", "tool-mad"] });
    expect(s.files).toEqual({ claims: "mine.jsonl" });
    expect(listOf(s, "protocols")).toEqual(["radar", "tool-mad"]);
  });

  it("never writes a password back, nor Next's own action fields", () => {
    const s = refuse(sent, "no");
    expect(JSON.stringify(s)).not.toContain("hunter2");
    expect(Object.keys(s.values!)).not.toContain("$ACTION_ID_abc");
  });

  it("returns a checkbox group as a list with one box or none ticked, so 'none ticked' is not 'never sent'", () => {
    expect(refuse(form([["protocols", "radar"]]), "x", undefined, ["protocols"]).lists).toEqual({
      protocols: ["radar"],
    });
    const none = refuse(form([["name", "a"]]), "x", undefined, ["protocols"]);
    expect(none.lists).toEqual({ protocols: [] });
    expect(listOf(none, "protocols")).toEqual([]);
    // Without the group named, a single box is a plain value and an empty group is unknown.
    expect(listOf(refuse(form([["name", "a"]]), "x"), "protocols")).toBeUndefined();
  });

  it("survives the trip to the browser: plain JSON, nothing lost", () => {
    const s = refuse(sent, "no", "claims", ["protocols"]);
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    expect(formEntries(sent).values).toEqual(s.values);
  });
});

describe("where a refusal is shown", () => {
  const s = { error: "Max model calls must be at least 2.", field: "budget.maxCalls" };

  it("beside its field, or the group above it, and nowhere else", () => {
    expect(errorFor(s, "budget.maxCalls")).toBe(s.error);
    expect(errorFor(s, "budget")).toBe(s.error);
    expect(errorFor(s, "budgetTokens")).toBeUndefined();
    expect(errorFor(s, "claim")).toBeUndefined();
  });

  it("at the top of the form when it concerns the whole form or a field the form does not show", () => {
    expect(formErrorOf(s, ["budget", "claim"])).toBeUndefined();
    expect(formErrorOf(s, ["claim"])).toBe(s.error);
    expect(formErrorOf({ error: "You have started 20 debates in this period." }, ["claim"])).toMatch(/20 debates/);
    expect(formErrorOf({}, [])).toBeUndefined();
  });
});
