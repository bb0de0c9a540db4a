import { InvalidArgumentError, type Command } from "commander";
import { getDb } from "@/db/client";
import { search, SEARCH_MODES, type SearchMode, type SearchResponse } from "@/lib/retrieval/search";
import { dim, emit, yellow } from "../output";

export function positiveInt(v: string) {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a whole number >= 1");
  return n;
}

function mode(v: string): SearchMode {
  if (!(SEARCH_MODES as readonly string[]).includes(v))
    throw new InvalidArgumentError(`expected one of ${SEARCH_MODES.join(", ")}`);
  return v as SearchMode;
}

function date(v: string) {
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) throw new InvalidArgumentError("expected a date such as 2021-11-02");
  return d;
}

/** Matched words in yellow; offsets come from the search itself, so CLI and app agree. */
function highlighted(hit: SearchResponse["hits"][number]) {
  let out = "";
  let at = 0;
  for (const h of hit.highlights) {
    out += hit.text.slice(at, h.start) + yellow(hit.text.slice(h.start, h.end));
    at = h.end;
  }
  return out + hit.text.slice(at);
}

export function register(program: Command) {
  program
    .command("search")
    .description("Search a corpus the way debates do: dense, lexical or hybrid (RRF) retrieval.")
    .argument("<query>", "the claim or question")
    .option("--corpus <name...>", "corpus name(s); all corpora when omitted")
    .option("--k <n>", "number of results", positiveInt, 20)
    .option("--mode <mode>", `${SEARCH_MODES.join(" | ")}`, mode, "hybrid")
    .option("--before <date>", "leave out passages published after this date (the claim's date)", date)
    .option("--document <id...>", "only these documents (ids)")
    .option("--mmr", "diversify the results (maximal marginal relevance)")
    .option("--candidates <n>", "candidates per retriever before fusion", positiveInt)
    .option("--json", "print JSON")
    .action(
      async (
        query: string,
        opts: {
          corpus?: string[];
          k: number;
          mode: SearchMode;
          before?: Date;
          document?: string[];
          mmr?: boolean;
          candidates?: number;
          json?: boolean;
        },
      ) => {
        const { db } = await getDb();
        const documentIds = opts.document?.map((d) => {
          const n = Number(d);
          if (!Number.isInteger(n)) throw new InvalidArgumentError(`--document expects numeric document ids, got ${d}`);
          return n;
        });
        const res = await search(db, {
          text: query,
          corpus: opts.corpus,
          k: opts.k,
          mode: opts.mode,
          before: opts.before,
          documentIds,
          mmr: opts.mmr,
          candidates: opts.candidates,
        });
        emit(!!opts.json, res, () => {
          if (res.hits.length === 0) return `No passages found for "${res.query}".`;
          const lines = res.hits.map((h) => {
            const ranks = [h.dense ? `dense #${h.dense.rank}` : null, h.lexical ? `lexical #${h.lexical.rank}` : null]
              .filter(Boolean)
              .join(", ");
            const doc = [h.document.title ?? h.document.externalId, h.document.publishedAt?.slice(0, 10)]
              .filter(Boolean)
              .join(", ");
            return `${String(h.rank).padStart(2)}. ${highlighted(h)}\n    ${dim(`${doc} · passage ${h.passageExternalId} · score ${h.score.toFixed(4)}${ranks ? ` (${ranks})` : ""}`)}`;
          });
          const t = res.timings;
          lines.push(
            dim(
              `${res.mode}${res.model ? ` with ${res.model}` : ""}: ${res.hits.length} results in ${t.totalMs.toFixed(0)} ms (embedding ${t.embedMs.toFixed(0)} ms)`,
            ),
          );
          return lines.join("\n");
        });
      },
    );
}
