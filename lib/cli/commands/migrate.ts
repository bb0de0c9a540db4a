import type { Command } from "commander";
import { getConfig } from "@/lib/config";
import { getDb } from "@/db/client";
import { migrationStatus } from "@/db/migrate";
import { emit, green } from "../output";

export function register(program: Command) {
  program
    .command("migrate")
    .description("Create or upgrade the database schema (the app also does this at start-up).")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const config = getConfig();
      const handle = await getDb();
      const status = await migrationStatus(handle, config.migrationsDir);
      emit(
        !!opts.json,
        { backend: handle.backend, location: handle.location, ...status },
        () =>
          `${green("✔")} ${handle.backend === "pglite" ? "Embedded PGlite" : "PostgreSQL"} at ${handle.location}: ${status.applied}/${status.available} migrations applied (latest ${status.latest}).`,
      );
    });
}
