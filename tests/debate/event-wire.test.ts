import { describe, expect, it } from "vitest";
import {
  encodeMessage,
  NOTIFY_LIMIT_BYTES,
  Reassembler,
  spliceDelta,
  splitByBytes,
  wireSchema,
} from "@/lib/debate/event-wire";
import { joinDelta } from "@/components/debate/debate-live";
import {
  liveTurns,
  publish,
  receiveRemote,
  receiveSync,
  setRunning,
  subscribe,
  type DebateEvent,
} from "@/lib/debate/events";

describe("spliceDelta: a delta at its offset joins the text held", () => {
  it("appends a delta that starts where the text ends", () => {
    expect(spliceDelta("Hello", 5, ", world")).toEqual({ kind: "append", text: "Hello, world", added: ", world" });
    expect(spliceDelta("", 0, "A")).toEqual({ kind: "append", text: "A", added: "A" });
  });
  it("drops a delta the text already holds (a snapshot taken after it was sent)", () => {
    expect(spliceDelta("Hello, world", 5, ", wo")).toEqual({ kind: "duplicate" });
    expect(spliceDelta("Hello", 0, "Hello")).toEqual({ kind: "duplicate" });
    expect(spliceDelta("Hello", 5, "")).toEqual({ kind: "duplicate" });
  });
  it("keeps only the new part of an overlapping delta", () => {
    expect(spliceDelta("Hello, wo", 5, ", world!")).toEqual({ kind: "append", text: "Hello, world!", added: "rld!" });
  });
  it("reports a gap when the delta starts past the end", () => {
    expect(spliceDelta("Hello", 7, "world")).toEqual({ kind: "gap", missing: 2 });
  });
  it("rebuilds a text from a snapshot at any point and deltas sent in batches", () => {
    const full = "The boxer auctioned his Olympic medal in 2012 — to fund a children's hospital 🏥.";
    const deltas: Array<{ offset: number; text: string }> = [];
    for (let i = 0; i < full.length; i += 7) deltas.push({ offset: i, text: full.slice(i, i + 7) });
    for (let cut = 0; cut <= full.length; cut++) {
      // A snapshot holds `cut` characters; the receiver then sees every delta (some already held).
      let text = full.slice(0, cut);
      for (const d of deltas) {
        const r = spliceDelta(text, d.offset, d.text);
        expect(r.kind).not.toBe("gap");
        if (r.kind === "append") text = r.text;
      }
      expect(text).toBe(full);
    }
  });
});

describe("the browser's reducer joins deltas by offset", () => {
  it("adds a delta without an offset as before, and at its offset when it has one", () => {
    expect(joinDelta("ab", { text: "c" })).toBe("abc");
    expect(joinDelta("abc", { text: "bcd", offset: 1 })).toBe("abcd");
    expect(joinDelta("abcd", { text: "bc", offset: 1 })).toBe("abcd");
  });
});

describe("NOTIFY payloads", () => {
  const bytes = (s: string) => Buffer.byteLength(s, "utf8");

  it("splits by UTF-8 bytes without cutting a surrogate pair", () => {
    const s = "a€😀".repeat(500);
    const pieces = splitByBytes(s, 100);
    expect(pieces.join("")).toBe(s);
    for (const p of pieces) {
      expect(bytes(p)).toBeLessThanOrEqual(100);
      // A lone surrogate would come back as U+FFFD.
      expect(Buffer.from(p, "utf8").toString("utf8")).toBe(p);
    }
  });

  it("keeps a small message whole and cuts a large one into pieces under the limit that reassemble", () => {
    const small = { type: "status", status: "running" };
    expect(encodeMessage("p1", 1, small)).toHaveLength(1);
    const big = { type: "turn-end", turn: { seq: 3, content: "Ünïcödé text 😀 ".repeat(3000) } };
    const payloads = encodeMessage("p1", 2, big);
    expect(payloads.length).toBeGreaterThan(5);
    for (const p of payloads) expect(bytes(p)).toBeLessThan(NOTIFY_LIMIT_BYTES);
    const r = new Reassembler();
    const out = payloads.map((p) => r.accept(wireSchema.parse(JSON.parse(p))));
    expect(out.slice(0, -1).every((x) => x === null)).toBe(true);
    expect(out.at(-1)).toEqual({ message: big });
  });

  it("reports pieces lost in the middle instead of joining the wrong ones", () => {
    const big = { type: "evidence", evidence: [{ text: "x".repeat(20_000) }] };
    const a = encodeMessage("p1", 1, big).map((p) => wireSchema.parse(JSON.parse(p)));
    const b = encodeMessage("p1", 2, big).map((p) => wireSchema.parse(JSON.parse(p)));
    const r = new Reassembler();
    expect(r.accept(a[0]!)).toBeNull();
    // Piece 1 of `a` never came: the next piece is out of place.
    expect(r.accept(a[2]!)).toBe("lost");
    // A new message starting while another was incomplete is also a loss, then collects normally.
    expect(r.accept(b[0]!)).toBeNull();
    let last: unknown = null;
    for (const w of b.slice(1)) last = r.accept(w);
    expect(last).toEqual({ message: big });
  });

  it("tells a piece, a request and a whole message apart", () => {
    expect("p" in wireSchema.parse({ o: "x", k: 1, i: 0, n: 2, p: "{" })).toBe(true);
    expect("q" in wireSchema.parse({ o: "x", q: "sync" })).toBe(true);
    expect("m" in wireSchema.parse({ o: "x", k: 1, m: { type: "status" } })).toBe(true);
    expect(() => wireSchema.parse({ o: "x", k: 1 })).toThrow();
  });
});

describe("a debate running in another process, mirrored in this one's buffer", () => {
  const turn = { seq: 2, round: 0, phase: "opening", role: "politician", kind: "speech", model: "m" };

  it("starts from the runner's text so far, drops what it holds, passes on only what is new, and reports a gap", () => {
    const id = "00000000-0000-4000-8000-000000000001";
    receiveSync(id, [{ turn, text: "Hello" }]);
    const got: DebateEvent[] = [];
    const un = subscribe(id, (e) => got.push(e));
    expect(receiveRemote(id, { type: "delta", seq: 2, text: "lo, w", offset: 3 })).toBe("ok");
    expect(receiveRemote(id, { type: "delta", seq: 2, text: "Hel", offset: 0 })).toBe("ok");
    expect(got).toEqual([{ type: "delta", seq: 2, text: ", w", offset: 5 }]);
    expect(liveTurns(id)[0]!.text).toBe("Hello, w");
    expect(receiveRemote(id, { type: "delta", seq: 2, text: "!", offset: 20 })).toBe("gap");
    expect(receiveRemote(id, { type: "delta", seq: 9, text: "?", offset: 4 })).toBe("gap");
    un();
  });

  it("a run taking the debate over drops the half-written turn of the run that died, so a page opened now does not show it", () => {
    const id = "00000000-0000-4000-8000-000000000003";
    receiveSync(id, [{ turn, text: "Half a sent" }]);
    const un = subscribe(id, () => {});
    expect(liveTurns(id)).toHaveLength(1);
    expect(receiveRemote(id, { type: "status", status: "running" })).toBe("ok");
    expect(liveTurns(id)).toEqual([]);
    // The new run's own turn then fills the buffer from its first delta.
    receiveRemote(id, { type: "turn-start", turn });
    expect(receiveRemote(id, { type: "delta", seq: 2, text: "Whole", offset: 0 })).toBe("ok");
    expect(liveTurns(id)).toEqual([{ turn, text: "Whole" }]);
    un();
  });

  it("a process running the debate itself takes no other voice for it, and numbers its own deltas", () => {
    const id = "00000000-0000-4000-8000-000000000002";
    setRunning(id, true);
    const got: DebateEvent[] = [];
    const un = subscribe(id, (e) => got.push(e));
    publish(id, { type: "turn-start", turn });
    publish(id, { type: "delta", seq: 2, text: "Hi" });
    publish(id, { type: "delta", seq: 2, text: " there" });
    expect(receiveRemote(id, { type: "delta", seq: 2, text: "xx", offset: 8 })).toBe("ignored");
    expect(got.filter((e) => e.type === "delta")).toEqual([
      { type: "delta", seq: 2, text: "Hi", offset: 0 },
      { type: "delta", seq: 2, text: " there", offset: 2 },
    ]);
    expect(liveTurns(id)[0]!.text).toBe("Hi there");
    un();
    setRunning(id, false);
  });
});
