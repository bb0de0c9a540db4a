import nextEnv from "@next/env";
import { Command, CommanderError } from "commander";
import { ConfigError, getConfig } from "@/lib/config";
import { closeDb, getDb } from "@/db/client";
import { migrationStatus } from "@/db/migrate";
import { runDoctor, type CheckStatus } from "@/lib/doctor";
import { dim, emit, green, red, yellow } from "./output";

// The same .env files, in the same order, as the Next.js server reads.
nextEnv.loadEnvConfig(process.env.COUNTERPOINT_ROOT ?? process.cwd(), false, { info: () => {}, error: console.error });

const program = new Command()
  .name("counterpoint")
  .description("Check claims with debating AI agents over a corpus you control.")
  .showHelpAfterError()
  .exitOverride();

program
  .command("migrate")
  .description("Create or upgrade the database schema (the app also does this at start-up).")
  .option("--json", "print JSON")
  .action(async (opts: { json?: boolean }) => {
    const config = getConfig();
    const handle = await getDb();
    const status = await migrationStatus(handle, config.migrationsDir);
    emit(!!opts.json, { backend: handle.backend, location: handle.location, ...status }, () =>
      `${green("✔")} ${handle.backend === "pglite" ? "Embedded PGlite" : "PostgreSQL"} at ${handle.location}: ${status.applied}/${status.available} migrations applied (latest ${status.latest}).`,
    );
  });

const mark: Record<CheckStatus, string> = { ok: green("✔"), missing: yellow("✗"), failed: red("✗"), skipped: dim("–") };

program
  .command("doctor")
  .description("Check the database, the embedding model and every configured LLM, and say what is missing.")
  .option("--json", "print JSON")
  .option("--skip-models", "do not call the configured LLMs")
  .action(async (opts: { json?: boolean; skipModels?: boolean }) => {
    const report = await runDoctor({ skipModels: opts.skipModels });
    emit(!!opts.json, report, () => {
      const lines = report.checks.map((c) => {
        const ms = c.ms !== undefined ? dim(` (${c.ms} ms)`) : "";
        return `${mark[c.status]} ${c.name}: ${c.detail}${ms}${c.fix ? `\n    ${c.fix}` : ""}`;
      });
      if (report.missing.length) lines.push("", yellow("What is missing:"), ...report.missing.map((m) => `  - ${m}`));
      else lines.push("", green("Everything configured works."));
      return lines.join("\n");
    });
    if (!report.ok) process.exitCode = 1;
  });

async function main() {
  try {
    await program.parseAsync(process.argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version end here too, with exit code 0.
      process.exitCode = e.exitCode;
    } else if (e instanceof ConfigError) {
      console.error(e.message);
      process.exitCode = 2;
    } else {
      console.error(red(`Error: ${(e as Error).message}`));
      if (process.env.DEBUG) console.error(e);
      process.exitCode = 1;
    }
  } finally {
    await closeDb().catch(() => {});
  }
}

await main();
