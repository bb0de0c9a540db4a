import nextEnv from "@next/env";
import { CommanderError } from "commander";
import { ConfigError } from "@/lib/config";
import { closeDb } from "@/db/client";
import { MatchedBeforeStart } from "./match-first";
import { installProcessServices } from "@/lib/process/services";
import { errorCode, jsonError, userMessage } from "./errors";
import { red } from "./output";
import { buildProgram } from "./program";

// The same .env files, in the same order, as the Next.js server reads.
nextEnv.loadEnvConfig(process.env.COUNTERPOINT_ROOT ?? process.cwd(), false, { info: () => {}, error: console.error });

// What every process runs beside its commands (the same as the app's, see instrumentation.ts).
installProcessServices();

// Options after "--" belong to the command's arguments, not to the CLI.
const argv = process.argv.slice(2);
const json = (argv.includes("--") ? argv.slice(0, argv.indexOf("--")) : argv).includes("--json");
const program = buildProgram({ json });

/** One error, in words or (under --json) as one JSON line, both on stderr. */
function report(message: string, code: string | undefined, human = message) {
  process.stderr.write(json ? jsonError(message, code) : `${human}\n`);
}

/**
 * Commander answers `counterpoint nosuch --help` with the general help and exit code 0, as if the
 * command existed: a script would take that for success. The first word that is not an option must
 * name a command (the root program takes no option with a value).
 */
function refuseUnknownCommand(argv: readonly string[]) {
  const first = argv.slice(2).find((a) => !a.startsWith("-"));
  if (!first || first === "help") return;
  if (program.commands.some((c) => c.name() === first || c.aliases().includes(first))) return;
  program.error(
    `error: unknown command '${first}'; the commands are ${program.commands.map((c) => c.name()).join(", ")}`,
    { code: "commander.unknownCommand", exitCode: 1 },
  );
}

async function main() {
  try {
    refuseUnknownCommand(process.argv);
    await program.parseAsync(process.argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version end here too, with exit code 0.
      process.exitCode = e.exitCode;
    } else if (e instanceof MatchedBeforeStart) {
      // Not a failure: earlier checks matched and the person has to say what to do with them.
      report(e.message, "matched");
      process.exitCode = e.exitCode;
    } else if (e instanceof ConfigError) {
      report(e.message, "config");
      process.exitCode = 2;
    } else {
      // Never the query text (see errors.ts); the whole error, query included, only under DEBUG.
      const message = userMessage(e);
      report(message, errorCode(e), red(`Error: ${message}`));
      if (process.env.DEBUG) console.error(e);
      process.exitCode = 1;
    }
  } finally {
    await closeDb().catch(() => {});
  }
}

await main();
