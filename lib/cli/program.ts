import { Command } from "commander";
import pkg from "../../package.json";
import { jsonError } from "./errors";
import { MATCHED_EXIT_CODE } from "./match-first";
import * as doctor from "./commands/doctor";
import * as ingest from "./commands/ingest";
import * as migrate from "./commands/migrate";
import * as search from "./commands/search";
import * as bench from "./commands/bench";
import * as dataset from "./commands/dataset";
import * as debate from "./commands/debate";
import * as benchDebate from "./commands/bench-debate";
import * as benchNer from "./commands/bench-ner";
import * as benchCheckworthy from "./commands/bench-checkworthy";
import * as evalCommand from "./commands/eval";
import * as worker from "./commands/worker";
import * as calibrate from "./commands/calibrate";
import * as user from "./commands/user";
import * as agreement from "./commands/agreement";
import * as exportCommand from "./commands/export";
import * as match from "./commands/match";
import * as factchecks from "./commands/factchecks";
import * as benchMatch from "./commands/bench-match";
import * as benchSize from "./commands/bench-size";
import * as tokens from "./commands/tokens";
import * as webhooks from "./commands/webhooks";
import * as live from "./commands/live";
import * as benchLive from "./commands/bench-live";
import * as methods from "./commands/methods";

/**
 * The CLI's commands, in the order they register (the bench subcommands need `bench` first). Kept apart
 * from main.ts, which runs on import, so the manual's test can read the same program users get.
 */
export function buildProgram(opts: { json?: boolean } = {}): Command {
  const program = new Command()
    .name("counterpoint")
    .description("Check claims with debating AI agents over a corpus you control.")
    .version(pkg.version, "-V, --version", "print the version")
    .addHelpText("after", EXIT_CODES)
    .exitOverride();
  // Subcommands inherit both settings (commander copies them to each command made after this point).
  if (opts.json)
    // A usage error under --json is the same JSON document as any other error, without the help after it.
    program.configureOutput({
      outputError: (text, write) => write(jsonError(text.trim().replace(/^error: /, ""), "usage")),
    });
  else program.showHelpAfterError();

  // One module per command; each adds itself to the program.
  for (const command of [
    migrate,
    doctor,
    ingest,
    search,
    debate,
    methods,
    bench,
    benchDebate,
    benchNer,
    benchCheckworthy,
    dataset,
    evalCommand,
    worker,
    calibrate,
    user,
    agreement,
    exportCommand,
    match,
    factchecks,
    benchMatch,
    benchSize,
    tokens,
    webhooks,
    live,
    benchLive,
  ])
    command.register(program);
  return program;
}

/** Shown after the general help: what a script can rely on. Kept here beside the codes main.ts sets. */
const EXIT_CODES = `
Exit codes:
  0  success (also --help and --version)
  1  the command failed, or the command line was wrong (the reason is on stderr)
  2  the configuration is invalid (environment variables; see .env.example)
  ${MATCHED_EXIT_CODE}  earlier checks of the claim matched and nothing was started: run again with
     --attach-matches, --debate-anyway or --no-match (debate, eval)

With --json, results are one JSON document on stdout and an error is one line on stderr:
  {"error": {"message": "...", "code": "..."}}   (code only when there is one), with the same exit code.`;
