import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { ARTICLE_MAX_CHARS, cutText } from "@/lib/article/limits";
import type { ClaimRecord } from "./claims";

/*
 * News-article datasets for ZoFia (whole articles, labelled fake or real) to our claims format.
 * The article body is the claim text, cut to ZoFia's 20,000-character limit (the cut is recorded
 * in metadata, never silent); headline, address and the native label travel in metadata. Labels
 * are ZoFia's REAL / FAKE, which reports read on the product scale as TRUE / FALSE.
 *
 * - PolitiFact++ human-written (Su et al. 2023, the release ZoFia evaluates on): `HF.json` (fake)
 *   and `HR.json` (real), objects keyed by index, `{id, title, text, description}`; no dates.
 * - FakeNewsNet v1 PolitiFact: one JSON Lines file, `{id, label: fake|real, title, text, url,
 *   source, publish_date: {"$date": ms} | null, authors}`.
 * - GossipCop, FakeNewsNet's layout (no data here): the same JSON Lines rows, or the crawler's
 *   folders `gossipcop/{fake,real}/<id>/news content.json` (`publish_date` in epoch seconds).
 */

export const NEWS_LABELS = { fake: "FAKE", real: "REAL" } as const;
export type NewsLabel = (typeof NEWS_LABELS)[keyof typeof NEWS_LABELS];

export const POLITIFACT_NEWS_SOURCES = ["politifact-pp", "fakenewsnet-v1"] as const;
export type PolitifactNewsSource = (typeof POLITIFACT_NEWS_SOURCES)[number];

export type NewsOptions = { source?: PolitifactNewsSource; limit?: number; maxChars?: number };

const ppEntry = z.object({
  id: z.string().min(1),
  title: z.string().nullable().optional(),
  text: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
});

const epochDate = z
  .union([z.object({ $date: z.union([z.number(), z.string()]) }), z.number(), z.string(), z.null()])
  .optional();
const fnnRow = z.object({
  id: z.union([z.string().min(1), z.number()]).transform(String),
  label: z.enum(["fake", "real"], { error: 'label must be "fake" or "real"' }),
  title: z.string().nullable().optional(),
  text: z.string().nullable().optional(),
  url: z.string().nullable().optional(),
  source: z.string().nullable().optional(),
  publish_date: epochDate,
  authors: z.array(z.string()).nullable().optional(),
});
/** One `news content.json` of FakeNewsNet's crawler; the label and id are the folders. */
const fnnContent = fnnRow.omit({ id: true, label: true }).extend({ publish_date: epochDate });

/**
 * FakeNewsNet dates: Mongo exports hold `{"$date": ms}`, the crawler writes epoch seconds.
 * Numbers below 1e11 are seconds (1e11 ms is March 1973, before any article here).
 */
export function fakeNewsNetDate(raw: z.infer<typeof epochDate>): string | undefined {
  if (raw === null || raw === undefined) return undefined;
  const v = typeof raw === "object" ? raw.$date : raw;
  const n = typeof v === "number" ? v : /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : NaN;
  const d = Number.isFinite(n) ? new Date(n < 1e11 ? n * 1000 : n) : new Date(String(v));
  if (Number.isNaN(d.getTime())) return undefined;
  return d.toISOString().slice(0, 10);
}

/** The article as a claim record: body cut to the limit; an article without a body keeps its headline, flagged. */
function article(
  id: string,
  label: NewsLabel,
  fields: {
    title?: string | null;
    text?: string | null;
    url?: string | null;
    date?: string;
    extra?: Record<string, unknown>;
  },
  maxChars: number,
): ClaimRecord {
  const title = (fields.title ?? "").trim();
  const body = (fields.text ?? "").replace(/\r\n?/g, "\n").trim();
  const cut = cutText(body || title, maxChars);
  if (!cut.text) throw new Error(`${id}: neither text nor title`);
  return {
    id,
    claim: cut.text,
    label,
    ...(fields.date ? { date: fields.date } : {}),
    metadata: {
      ...(title ? { title } : {}),
      ...(fields.url ? { url: fields.url } : {}),
      nativeLabel: label === "FAKE" ? "fake" : "real",
      ...(cut.truncated ? { truncated: true, originalChars: cut.originalChars } : {}),
      // Two FakeNewsNet v1 pages were scraped empty: the headline alone is all there is, and a report says so.
      ...(!body ? { textMissing: true } : {}),
      ...fields.extra,
    },
  };
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(`${file}: not readable JSON (${(e as Error).message})`);
  }
}

function firstExisting(candidates: string[], what: string, dir: string): string {
  const hit = candidates.find((p) => fs.existsSync(p));
  if (!hit)
    throw new Error(
      `${dir}: no ${what} here (looked for ${candidates.map((c) => path.relative(dir, c) || c).join(", ")}); pass the politifact_news folder`,
    );
  return hit;
}

/** PolitiFact++ human-written: every fake article (HF.json), then every real one (HR.json). */
export function convertPolitifactPlusPlus(dir: string, opts: NewsOptions = {}): ClaimRecord[] {
  const folder = path.dirname(
    firstExisting([path.join(dir, "politifact_pp", "HF.json"), path.join(dir, "HF.json")], "PolitiFact++ HF.json", dir),
  );
  const out: ClaimRecord[] = [];
  for (const [file, label] of [
    ["HF.json", "FAKE"],
    ["HR.json", "REAL"],
  ] as const) {
    const full = path.join(folder, file);
    if (!fs.existsSync(full))
      throw new Error(`${full}: missing; PolitiFact++ needs both HF.json (fake) and HR.json (real)`);
    const raw = readJson(full);
    if (!raw || typeof raw !== "object" || Array.isArray(raw))
      throw new Error(`${full}: expected an object of articles keyed by index`);
    // Keyed "0", "1", … "10": numeric order, so --limit takes the same articles every time.
    const keys = Object.keys(raw).sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
    for (const key of keys) {
      const r = ppEntry.safeParse((raw as Record<string, unknown>)[key]);
      if (!r.success)
        throw new Error(
          `${full}: article "${key}": ${r.error.issues[0]!.path.join(".") || "(record)"}: ${r.error.issues[0]!.message}`,
        );
      out.push(
        article(
          r.data.id,
          label,
          { title: r.data.title, text: r.data.text, extra: { dataset: "politifact-pp" } },
          opts.maxChars ?? ARTICLE_MAX_CHARS,
        ),
      );
    }
  }
  return limitBalanced(out, opts.limit);
}

/** FakeNewsNet rows from one JSON Lines file; a bad line stops the import with its number. */
export function fakeNewsNetJsonl(file: string, dataset: string, maxChars = ARTICLE_MAX_CHARS): ClaimRecord[] {
  const out: ClaimRecord[] = [];
  const seen = new Set<string>();
  fs.readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (!line.trim()) return;
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch (e) {
        throw new Error(`${file}:${i + 1}: not JSON (${(e as Error).message})`);
      }
      const r = fnnRow.safeParse(raw);
      if (!r.success)
        throw new Error(
          `${file}:${i + 1}: ${r.error.issues[0]!.path.join(".") || "(record)"}: ${r.error.issues[0]!.message}`,
        );
      const d = r.data;
      if (seen.has(d.id)) throw new Error(`${file}:${i + 1}: duplicate id ${d.id}`);
      seen.add(d.id);
      out.push(
        article(
          d.id,
          NEWS_LABELS[d.label],
          {
            title: d.title,
            text: d.text,
            url: d.url,
            date: fakeNewsNetDate(d.publish_date),
            extra: { dataset, ...(d.source ? { source: d.source } : {}) },
          },
          maxChars,
        ),
      );
    });
  return out;
}

/** FakeNewsNet v1 PolitiFact, 120 fake / 120 real, with publication dates where the crawl found one. */
export function convertFakeNewsNetV1(dir: string, opts: NewsOptions = {}): ClaimRecord[] {
  const file =
    dir.endsWith(".jsonl") && fs.existsSync(dir)
      ? dir
      : firstExisting(
          [path.join(dir, "fakenewsnet_v1", "politifact_v1_240.jsonl"), path.join(dir, "politifact_v1_240.jsonl")],
          "fakenewsnet_v1/politifact_v1_240.jsonl",
          dir,
        );
  return limitBalanced(fakeNewsNetJsonl(file, "fakenewsnet-v1", opts.maxChars), opts.limit);
}

export function convertPolitifactNews(dir: string, opts: NewsOptions = {}): ClaimRecord[] {
  return (opts.source ?? "politifact-pp") === "politifact-pp"
    ? convertPolitifactPlusPlus(dir, opts)
    : convertFakeNewsNetV1(dir, opts);
}

/**
 * GossipCop in FakeNewsNet's layout: `gossipcop_*.jsonl` rows as above, or the crawler's
 * `{fake,real}/<id>/news content.json` folders (under `gossipcop/` or the folder itself).
 */
export function convertGossipcop(dir: string, opts: NewsOptions = {}): ClaimRecord[] {
  const maxChars = opts.maxChars ?? ARTICLE_MAX_CHARS;
  if (dir.endsWith(".jsonl") && fs.existsSync(dir))
    return limitBalanced(fakeNewsNetJsonl(dir, "gossipcop", maxChars), opts.limit);
  if (!fs.existsSync(dir)) throw new Error(`${dir}: no such folder`);
  const jsonl = fs
    .readdirSync(dir)
    .filter((f) => /^gossipcop.*\.jsonl$/i.test(f))
    .sort();
  if (jsonl.length)
    return limitBalanced(
      jsonl.flatMap((f) => fakeNewsNetJsonl(path.join(dir, f), "gossipcop", maxChars)),
      opts.limit,
    );
  const root = [path.join(dir, "gossipcop"), dir].find(
    (d) => fs.existsSync(path.join(d, "fake")) || fs.existsSync(path.join(d, "real")),
  );
  if (!root)
    throw new Error(
      `${dir}: no GossipCop articles here: expected gossipcop*.jsonl, or FakeNewsNet's gossipcop/{fake,real}/<id>/news content.json folders`,
    );
  const out: ClaimRecord[] = [];
  let empty = 0;
  for (const native of ["fake", "real"] as const) {
    const sub = path.join(root, native);
    if (!fs.existsSync(sub)) continue;
    for (const id of fs.readdirSync(sub).sort()) {
      const file = path.join(sub, id, "news content.json");
      // The crawler leaves a folder without content for pages it could not fetch: nothing to check.
      if (!fs.existsSync(file)) {
        empty++;
        continue;
      }
      const r = fnnContent.safeParse(readJson(file));
      if (!r.success)
        throw new Error(`${file}: ${r.error.issues[0]!.path.join(".") || "(record)"}: ${r.error.issues[0]!.message}`);
      if (!(r.data.text ?? "").trim() && !(r.data.title ?? "").trim()) {
        empty++;
        continue;
      }
      out.push(
        article(
          id,
          NEWS_LABELS[native],
          {
            title: r.data.title,
            text: r.data.text,
            url: r.data.url,
            date: fakeNewsNetDate(r.data.publish_date),
            extra: { dataset: "gossipcop", ...(r.data.source ? { source: r.data.source } : {}) },
          },
          maxChars,
        ),
      );
    }
  }
  if (!out.length) throw new Error(`${root}: no article with text in fake/ or real/ (${empty} empty folders)`);
  return limitBalanced(out, opts.limit);
}

/** The first n, taken alternately from fake and real so a small --limit still has both classes. */
function limitBalanced(all: ClaimRecord[], limit: number | undefined): ClaimRecord[] {
  if (limit === undefined || limit >= all.length) return all;
  const fake = all.filter((c) => c.label === "FAKE");
  const real = all.filter((c) => c.label === "REAL");
  const out: ClaimRecord[] = [];
  for (let i = 0; out.length < limit && (i < fake.length || i < real.length); i++) {
    if (i < fake.length) out.push(fake[i]!);
    if (out.length < limit && i < real.length) out.push(real[i]!);
  }
  return out;
}
