import type { DbHandle } from "@/db/client";
import { getConfig } from "@/lib/config";
import { InProcessExecutor, type EvalExecutor } from "./executor";
import type { ExecutorKind } from "./run";

/** pg-boss on PostgreSQL, the in-process executor on the embedded database (or when asked for). */
export async function openExecutor(handle: DbHandle, kind?: ExecutorKind): Promise<EvalExecutor> {
  const chosen = kind ?? (handle.backend === "postgres" ? "pg-boss" : "in-process");
  if (chosen === "pg-boss") {
    const database = getConfig().database;
    if (database.backend !== "postgres")
      throw new Error(
        "The pg-boss executor needs PostgreSQL (DATABASE_URL); the embedded database runs evaluations in-process.",
      );
    const { PgBossExecutor } = await import("./pgboss");
    return new PgBossExecutor(handle.db, database.url);
  }
  return new InProcessExecutor(handle.db, { backend: handle.backend });
}
