import type { Command } from "commander";
import { benchNer, nerBenchMarkdown } from "@/lib/bench/ner";
import { emit } from "../output";

/** `bench ner`: added to the `bench` command registered before it. Needs no database and no network. */
export function register(program: Command) {
  const bench = program.commands.find((c) => c.name() === "bench");
  if (!bench) throw new Error("the bench command must be registered first");
  bench
    .command("ner")
    .description(
      "Precision and recall of ZoFia's offline entity recogniser (PERSON / LOC / ORG) on hand-annotated news sentences, before issue 22's fixes and now.",
    )
    .option("--fixture <file>", "sentences to score, JSON Lines (default tests/fixtures/ner/politifact-50.jsonl)")
    .option("--errors", "list every missed and wrong entity of the current recogniser")
    .option("--json", "print JSON")
    .action(async (opts: { fixture?: string; errors?: boolean; json?: boolean }) => {
      const r = await benchNer({ fixture: opts.fixture });
      emit(!!opts.json, r, () => {
        const now = r.recognisers.at(-1)!;
        const errors = opts.errors
          ? [
              "",
              `Errors of "${now.title}":`,
              ...now.errors.map((e) => `${e.sentence}  ${e.kind.padEnd(6)} ${e.type} ${e.text}`),
            ]
          : [];
        return [nerBenchMarkdown(r), ...errors].join("\n");
      });
    });
}
