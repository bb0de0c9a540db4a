import fs from "node:fs";
import path from "node:path";
import { InvalidArgumentError, type Command } from "commander";
import { getDb } from "@/db/client";
import { getConfig } from "@/lib/config";
import { runSizeBench, SIZE_DEFAULTS, sizeMarkdown } from "@/lib/bench/size";
import { dim, emit } from "../output";
import { positiveInt } from "./search";

function scaleFactor(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0 || n > 10)
    throw new InvalidArgumentError(`expected a factor above 0 and at most 10 (0.1 = a tenth of the sizes), got "${v}"`);
  return n;
}

/** `bench size`: added to the `bench` command registered before it. */
export function register(program: Command) {
  const bench = program.commands.find((c) => c.name() === "bench");
  if (!bench) throw new Error("the bench command must be registered first");
  bench
    .command("size")
    .description(
      `The product at a newsroom's size, from an empty database: import ${SIZE_DEFAULTS.checks} fact-checks, ingest ${SIZE_DEFAULTS.passages} passages, run ${SIZE_DEFAULTS.debates} debates (scripted model), match, search, export and import back, and time the pages. Per step: time, rows/s, index recall against exact search, p95, peak memory, and whether every count came back equal.`,
    )
    .option("--scale <factor>", "multiply every size (0.1 for a quick run)", scaleFactor, 1)
    .option("--port <n>", "port of the app server started for the page step", positiveInt, 3299)
    .option("--no-pages", "skip the page step (it builds and starts the production server)")
    .option("--json", "print JSON")
    .action(async (opts: { scale: number; port: number; pages: boolean; json?: boolean }) => {
      const config = getConfig();
      if (opts.pages && !fs.existsSync(path.join(process.env.COUNTERPOINT_ROOT ?? process.cwd(), ".next", "BUILD_ID")))
        process.stderr.write(dim("No production build yet: the page step builds one first (several minutes).\n"));
      const h = await getDb();
      const serverEnv: Record<string, string> =
        config.database.backend === "postgres"
          ? { DATABASE_URL: config.database.url }
          : { DATABASE_URL: "", DATA_DIR: config.dataDir };
      const r = await runSizeBench(h, {
        scale: opts.scale,
        port: opts.port,
        pages: opts.pages,
        serverEnv,
        log: (line) => process.stderr.write(`${dim(line)}\n`),
      });
      emit(!!opts.json, r, () =>
        [
          sizeMarkdown(r),
          "",
          `${r.backend}, scale ${r.scale}; ${r.machine.cpus} cores, load average ${r.machine.load_average_start.join(" ")} at the start, ${r.machine.load_average_end.join(" ")} at the end`,
          r.all_counts_ok ? "Every count came back equal." : "SOME COUNTS DIFFER: see the counts column.",
          ...r.steps.map((s) => dim(`${s.step}: ${s.counts}`)),
          ...r.notes.map((n) => dim(n)),
        ].join("\n"),
      );
      if (!r.all_counts_ok) process.exitCode = 1;
    });
}
