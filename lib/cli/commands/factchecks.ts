import { InvalidArgumentError, type Command } from "commander";
import cliProgress from "cli-progress";
import { getDb } from "@/db/client";
import { claimIndexSize } from "@/db/queries/claim-index";
import { getSetting, setSetting } from "@/db/queries/settings";
import { importFactChecks, type ImportProgress } from "@/lib/matching/import/run";
import { embedMissingClaims, indexStoredImports } from "@/lib/matching/store";
import { dim, emit, yellow } from "../output";

/** A bar on a terminal, a line per phase otherwise (logs stay readable). */
function progress(enabled: boolean) {
  if (!enabled) return { update: (_p: ImportProgress) => {}, stop: () => {} };
  if (!process.stderr.isTTY) {
    let last = "";
    let lastAt = 0;
    return {
      update(p: ImportProgress) {
        const now = Date.now();
        if (p.phase === last && now - lastAt < 5_000 && !(p.phase !== "download" && p.total === p.done)) return;
        last = p.phase;
        lastAt = now;
        if (p.phase === "download") process.stderr.write(`downloading: ${Math.round(p.bytes / 1024)} kB\n`);
        else process.stderr.write(`${p.phase === "store" ? "storing" : "embedding"}: ${p.done} of ${p.total}\n`);
      },
      stop: () => {},
    };
  }
  const bar = new cliProgress.SingleBar(
    { format: "{phase} {bar} {value}/{total}", stream: process.stderr, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  let phase = "";
  return {
    update(p: ImportProgress) {
      const [value, total] = p.phase === "download" ? [p.bytes, p.total ?? p.bytes] : [p.done, p.total];
      if (p.phase !== phase) {
        if (phase) bar.stop();
        phase = p.phase;
        bar.start(total || 1, value, { phase: phase.padEnd(8) });
      }
      bar.setTotal(total || 1);
      bar.update(value, { phase: phase.padEnd(8) });
    },
    stop: () => phase && bar.stop(),
  };
}

function fraction(v: string) {
  const n = Number(v);
  if (!(n >= 0 && n <= 1)) throw new InvalidArgumentError("expected a number from 0 to 1, e.g. 0.5");
  return n;
}

function days(v: string) {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a whole number of days >= 1");
  return n;
}

export function register(program: Command) {
  const fc = program.command("factchecks").description("Earlier fact-checks that new claims are matched against.");

  fc.command("import")
    .description(
      "Import fact-checks from a file or URL: a schema.org ClaimReview DataFeed (JSON), HTML pages with ClaimReview JSON-LD, CSV (claim, rating, url, publisher, date) or CheckThat! JSONL. Deduplicated by URL.",
    )
    .argument("<source>", "a file path or an http(s) URL (fetched through the guarded fetcher)")
    .option("--no-embed", "store and index by words only; `factchecks reindex` embeds later")
    .option("--json", "print JSON")
    .action(async (source: string, opts: { embed: boolean; json?: boolean }) => {
      const { db } = await getDb();
      const bar = progress(true);
      let report;
      try {
        report = await importFactChecks({ db }, source, { onProgress: (p) => bar.update(p), embed: opts.embed });
      } finally {
        bar.stop();
      }
      emit(!!opts.json, report, () => {
        const lines = [
          `${report.source} (${report.format}): ${report.read} records read, ${report.imported} imported, ${report.duplicates} already stored, ${report.invalid.length} skipped as malformed.`,
        ];
        for (const p of report.invalid.slice(0, 20)) lines.push(yellow(`  skipped ${p.at}: ${p.problem}`));
        if (report.invalid.length > 20)
          lines.push(yellow(`  ... and ${report.invalid.length - 20} more (--json lists all)`));
        if (report.unembedded)
          lines.push(`${report.unembedded} stored checks have no vector yet: run npx counterpoint factchecks reindex`);
        lines.push(
          dim(
            `${report.embedded} embedded; ${(report.ms.total / 1000).toFixed(1)} s (read ${(report.ms.read / 1000).toFixed(1)} s, store ${(report.ms.store / 1000).toFixed(1)} s, embed ${(report.ms.embed / 1000).toFixed(1)} s)`,
          ),
        );
        return lines.join("\n");
      });
      if (report.read > 0 && report.imported + report.duplicates === 0) process.exitCode = 1;
    });

  fc.command("reindex")
    .description(
      "Embed stored checks that have no vector of the current EMBEDDING_MODEL (after a model change or --no-embed).",
    )
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const { db } = await getDb();
      const bar = progress(true);
      let r;
      try {
        // Checks an interrupted import stored but did not index become searchable first.
        await indexStoredImports(db);
        r = await embedMissingClaims({ db }, { onProgress: (p) => bar.update({ phase: "embed", ...p }) });
      } finally {
        bar.stop();
      }
      const size = await claimIndexSize(db);
      emit(!!opts.json, { ...r, stored: size }, () => `${r.embedded} embedded; ${size} stored checks in the index.`);
    });

  fc.command("settings")
    .description("Show or set the matching threshold and date window (stored in the database, shared by app and CLI).")
    .option("--threshold <0..1>", "lowest similarity shown as a match", fraction)
    .option("--date-window-days <n>", "checks of claims further apart are flagged, with both dates", days)
    .option("--json", "print JSON")
    .action(async (opts: { threshold?: number; dateWindowDays?: number; json?: boolean }) => {
      const { db } = await getDb();
      if (opts.threshold !== undefined) await setSetting(db, "match_threshold", opts.threshold);
      if (opts.dateWindowDays !== undefined) await setSetting(db, "match_date_window_days", opts.dateWindowDays);
      const now = {
        threshold: await getSetting(db, "match_threshold"),
        dateWindowDays: await getSetting(db, "match_date_window_days"),
      };
      emit(!!opts.json, now, () => `threshold ${now.threshold}; date window ${now.dateWindowDays} days`);
    });
}
