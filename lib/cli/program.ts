import { Command } from "commander";
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

/**
 * The CLI's commands, in the order they register (the bench subcommands need `bench` first). Kept apart
 * from main.ts, which runs on import, so the manual's test can read the same program users get.
 */
export function buildProgram(): Command {
  const program = new Command()
    .name("counterpoint")
    .description("Check claims with debating AI agents over a corpus you control.")
    .showHelpAfterError()
    .exitOverride();

  // One module per command; each adds itself to the program.
  for (const command of [
    migrate,
    doctor,
    ingest,
    search,
    debate,
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
  ])
    command.register(program);
  return program;
}
