import type { Database } from "@/db/client";
import { preparedStatementText } from "@/db/pglite-prepared";

/**
 * Where a debate's database time goes: wraps the driver under a drizzle handle (PGlite's client
 * or node-postgres's pool) and sums the time of each statement by what it does, so the debate
 * benchmark can print a breakdown of the runner's overhead. A measuring instrument: the app never
 * wraps its handle.
 */

export type StatementStats = { statement: string; count: number; ms: number };

/** A statement's purpose from its text: the runner's writes and reads are recognisable by table and verb. */
export function statementKind(text: string): string {
  const t = text.replace(/\s+/g, " ").trim().toLowerCase();
  if (t.startsWith("with updated as")) return "finishTurn (turn update + llm_calls insert)";
  if (t.startsWith("update turns set")) return "finishTurn (turn update)";
  if (t.startsWith("with removed as")) return "completeWithVerdict (verdict + debate completed)";
  // The corpus search behind a tool call: the tool's time, reported apart from the runner's writes.
  if (t.startsWith("set ") || /\bts_(debug|stat)\b|\bpassages\b|\bembedding/.test(t)) return "corpus search (tool)";
  if (t.startsWith("begin") || t.startsWith("commit") || t.startsWith("rollback")) return "transaction begin/commit";
  const verb = /^(insert into|update|delete from|select)\b/.exec(t)?.[1] ?? t.split(" ")[0]!;
  const table =
    verb === "select"
      ? /\bfrom "?([a-z_]+)"?/.exec(t)?.[1]
      : /^(?:insert into|update|delete from) "?([a-z_]+)"?/.exec(t)?.[1];
  const names: Record<string, string> = {
    "insert into turns": "beginTurn / step turn insert",
    "update debates": "claim / finish / heartbeat (debates update)",
    "delete from turns": "dropUnfinishedTurns",
    "insert into llm_calls": "llm_calls insert",
    "delete from verdicts": "saveVerdict (delete)",
    "insert into verdicts": "saveVerdict (insert)",
    "insert into debate_evidence": "addEvidence",
    "select debates": "loadDebate (debate + claim) / status reads",
    "select debate_evidence": "loadDebate (evidence)",
    "select turns": "loadDebate (turns)",
    "select debate_notes": "loadDebate (method notes)",
    "select verdicts": "loadDebate (verdict)",
    "insert into debate_notes": "saveNote (a method note, e.g. RADAR's checkpoint)",
  };
  const key = `${verb} ${table ?? "?"}`;
  return names[key] ?? key;
}

type Client = {
  query: (...args: unknown[]) => Promise<unknown>;
  /** PGlite: the runner's prepared statements go through its protocol (db/pglite-prepared.ts). */
  execProtocol?: (...args: unknown[]) => Promise<unknown>;
  transaction?: (fn: (tx: unknown) => Promise<unknown>) => Promise<unknown>;
};

/** Starts timing every statement on `db`; `stop()` restores the driver and returns the totals. */
export function profileStatements(db: Database): { snapshot(): StatementStats[]; reset(): void; stop(): void } {
  const client = (db as unknown as { $client: Client }).$client;
  // Totals per statement text, named by purpose only when read: the timed window (the debate's
  // overhead) should hold the statement, not the instrument's own regexes.
  const byText = new Map<string, { count: number; ms: number }>();
  const add = (text: string, ms: number) => {
    const s = byText.get(text) ?? { count: 0, ms: 0 };
    s.count++;
    s.ms += ms;
    byText.set(text, s);
  };
  const byKind = () => {
    const stats = new Map<string, StatementStats>();
    for (const [text, t] of byText) {
      const kind = statementKind(text);
      const s = stats.get(kind) ?? { statement: kind, count: 0, ms: 0 };
      s.count += t.count;
      s.ms += t.ms;
      stats.set(kind, s);
    }
    return stats;
  };
  const originalQuery = client.query;
  const timed = (query: Client["query"], self: unknown) =>
    async function (...args: unknown[]) {
      const t0 = performance.now();
      try {
        return await query.apply(self, args);
      } finally {
        const text = typeof args[0] === "string" ? args[0] : ((args[0] as { text?: string })?.text ?? "");
        add(text, performance.now() - t0);
      }
    };
  client.query = timed(originalQuery, client);
  const originalProtocol = client.execProtocol;
  if (originalProtocol) {
    client.execProtocol = async function (...args: unknown[]) {
      const t0 = performance.now();
      try {
        return await originalProtocol.apply(client, args);
      } finally {
        // Only the messages the prepared-statement helper built have a text; PGlite's own calls are timed through query().
        const text = preparedStatementText(args[0] as Uint8Array);
        if (text) add(text, performance.now() - t0);
      }
    };
  }
  // PGlite runs a transaction's statements on a handle of its own: time those too.
  const originalTx = client.transaction;
  if (originalTx) {
    client.transaction = (fn) =>
      originalTx.call(client, (tx) => {
        const t = tx as Client;
        t.query = timed(t.query, t);
        return fn(t);
      });
  }
  return {
    snapshot: () =>
      [...byKind().values()].sort((a, b) => b.ms - a.ms).map((s) => ({ ...s, ms: Math.round(s.ms * 10) / 10 })),
    reset: () => byText.clear(),
    stop() {
      client.query = originalQuery;
      if (originalProtocol) client.execProtocol = originalProtocol;
      if (originalTx) client.transaction = originalTx;
    },
  };
}
