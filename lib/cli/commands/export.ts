import fs from "node:fs";
import readline from "node:readline";
import { once } from "node:events";
import type { Command } from "commander";
import { getDb } from "@/db/client";
import { getConfig } from "@/lib/config";
import { exportDebates } from "@/lib/export/debates";
import { CLAIMREVIEW_NEEDS_URL, EXPORT_FORMATS, serialise, type ExportFormat } from "@/lib/export/formats";
import { importJsonl } from "@/lib/export/import";
import { emit, green } from "../output";

/** Writes chunks as they come, waiting when the file or pipe is slower than the database. */
export async function writeAll(chunks: AsyncIterable<string>, out: NodeJS.WritableStream) {
  let bytes = 0;
  for await (const chunk of chunks) {
    bytes += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await once(out, "drain");
  }
  return bytes;
}

export function register(program: Command) {
  program
    .command("export")
    .description(
      "Export finished debates with their annotations: JSONL (everything), CSV (one row per debate) or schema.org ClaimReview JSON-LD.",
    )
    .requiredOption("--format <format>", EXPORT_FORMATS.join(" | "))
    .option("--out <file>", "write to a file instead of standard output")
    .option("--corpus <name>", "only debates over this corpus")
    .option("--run <id-or-name>", "only debates of this evaluation run")
    .option("--app-url <url>", "public base address of the debate pages, for ClaimReview urls (default: PUBLIC_URL)")
    .option("--json", "print a JSON summary (with --out)")
    .option("--comparison <id>", "one comparison with its debates (jsonl or csv), as /compare/<id>/export gives it")
    .action(
      async (opts: {
        format: string;
        out?: string;
        corpus?: string;
        run?: string;
        appUrl?: string;
        json?: boolean;
        comparison?: string;
      }) => {
        if (opts.comparison) {
          if (opts.format !== "jsonl" && opts.format !== "csv") throw new Error("--comparison exports jsonl or csv.");
          const { comparisonCsv, comparisonExportRows, comparisonJsonl } = await import("@/lib/compare/export");
          const exp = await comparisonExportRows((await getDb()).db, opts.comparison);
          if (!exp) throw new Error(`There is no comparison "${opts.comparison}"; the ids are on /compare.`);
          const body = opts.format === "csv" ? comparisonCsv(exp.csvRows) : comparisonJsonl(exp);
          if (opts.out) fs.writeFileSync(opts.out, body);
          else process.stdout.write(body);
          if (opts.out)
            emit(
              !!opts.json,
              { file: opts.out, format: opts.format, comparison: exp.comparison.id, debates: exp.debates.length },
              () => `${green("✔")} comparison with ${exp.debates.length} debates to ${opts.out}.`,
            );
          return;
        }
        if (!(EXPORT_FORMATS as readonly string[]).includes(opts.format))
          throw new Error(`--format must be one of ${EXPORT_FORMATS.join(", ")}.`);
        const appUrl = opts.appUrl ?? getConfig().publicUrl;
        if (opts.appUrl && !/^https?:\/\/[^\s/]+/i.test(opts.appUrl))
          throw new Error(
            `--app-url must be an http(s) address such as https://factcheck.example.org, got "${opts.appUrl}".`,
          );
        // Checked before anything is written, so a ClaimReview file is never left half-made.
        if (opts.format === "claimreview" && !appUrl) throw new Error(CLAIMREVIEW_NEEDS_URL);
        const { db } = await getDb();
        const started = Date.now();
        let debates = 0;
        const counted = (async function* () {
          for await (const d of exportDebates(db, { corpus: opts.corpus, run: opts.run })) {
            debates++;
            yield d;
          }
        })();
        const chunks = serialise(counted, opts.format as ExportFormat, getConfig().organisation, appUrl);
        if (!opts.out) {
          await writeAll(chunks, process.stdout);
          return;
        }
        const file = fs.createWriteStream(opts.out);
        const bytes = await writeAll(chunks, file);
        await new Promise<void>((resolve, reject) => file.end((e?: Error | null) => (e ? reject(e) : resolve())));
        const seconds = (Date.now() - started) / 1000;
        emit(
          !!opts.json,
          { file: opts.out, format: opts.format, debates, bytes, seconds },
          () =>
            `${green("✔")} ${debates} debates to ${opts.out} (${(bytes / 1e6).toFixed(1)} MB, ${seconds.toFixed(1)} s).`,
        );
      },
    );

  program
    .command("import")
    .description("Import a JSONL export: missing debates are created, annotation versions added (never overwritten).")
    .requiredOption("--file <file>", "a JSONL file written by `export --format jsonl`")
    .option("--json", "print JSON")
    .action(async (opts: { file: string; json?: boolean }) => {
      const { db } = await getDb();
      const lines = readline.createInterface({ input: fs.createReadStream(opts.file), crlfDelay: Infinity });
      const r = await importJsonl(db, lines);
      emit(
        !!opts.json,
        r,
        () =>
          `${green("✔")} ${r.debates} debates read: ${r.debatesAdded} added, ${r.annotationVersionsAdded} annotation versions added, ${r.annotatorsCreated} annotator accounts created.`,
      );
    });
}
