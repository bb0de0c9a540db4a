import type { Command } from "commander";
import { methodList } from "@/lib/api/v1/methods";
import { bold, dim, emit } from "../output";

/** `counterpoint methods`: the methods this install runs, read from the registries as the API's GET /api/v1/methods is. */
export function register(program: Command) {
  program
    .command("methods")
    .description("List the methods this install runs, with their presets (the names --protocol and --preset take).")
    .option("--json", "print JSON (the same document as GET /api/v1/methods)")
    .action((opts: { json?: boolean }) => {
      const list = methodList();
      emit(!!opts.json, list, () =>
        list.methods
          .map(
            (m) =>
              `${bold(m.name)}${m.default ? dim(" (default)") : ""}: ${m.title}. ${m.description}\n  presets: ${m.presets.map((p) => p.name).join(", ") || "none"}`,
          )
          .join("\n"),
      );
    });
}
