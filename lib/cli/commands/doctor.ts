import type { Command } from "commander";
import { runDoctor, type CheckStatus } from "@/lib/doctor";
import { dim, emit, green, red, yellow } from "../output";

const mark: Record<CheckStatus, string> = {
  ok: green("✔"),
  missing: yellow("✗"),
  failed: red("✗"),
  skipped: dim("–"),
  warn: yellow("!"),
};

export function register(program: Command) {
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
}
