import { serialize } from "pg-protocol";

/**
 * A named prepared statement on PGlite, for the statements the runner sends on every step. PGlite's
 * `query()` parses, describes and plans its text on every call, in five separate calls into the
 * database; here the statement is parsed once per database handle and each later call is a single
 * message (bind, execute, sync) in one call: about half the CPU per statement (PGlite runs in this
 * process, so its CPU is the runner's). Durability is unchanged: the write is synced to disk like
 * any other statement outside a transaction.
 *
 * Parameters are text the statement casts (`$1::uuid`); rows come back as text by column name.
 */

type PgliteClient = {
  runExclusive<T>(fn: () => Promise<T>): Promise<T>;
  execProtocol(message: Uint8Array): Promise<{ messages: Array<{ name: string }> }>;
};

/** Statement names parsed on each handle (the handle's one session keeps them until it closes). */
const parsed = new WeakMap<object, Set<string>>();
/** What each message sends, so the bench's statement profile can name it (lib/bench/db-profile.ts). */
const texts = new WeakMap<Uint8Array, string>();

/** The statement text a message built here runs (for profiling); undefined for any other message. */
export function preparedStatementText(message: Uint8Array): string | undefined {
  return texts.get(message);
}

export function isPglite(client: unknown): client is PgliteClient {
  return typeof (client as { execProtocol?: unknown }).execProtocol === "function";
}

export async function queryPrepared<T>(
  client: PgliteClient,
  name: string,
  text: string,
  values: unknown[],
): Promise<T[]> {
  let names = parsed.get(client);
  if (!names) parsed.set(client, (names = new Set()));
  const known = names.has(name);
  const parts: Buffer[] = [];
  // Close first: a parse that succeeded in a call that then failed left the name behind (closing a
  // statement that does not exist is no error).
  if (!known) parts.push(serialize.close({ type: "S", name }), serialize.parse({ name, text, types: [] }));
  parts.push(
    serialize.bind({ statement: name, values: values.map((v) => (v === null || v === undefined ? null : String(v))) }),
    serialize.describe({ type: "P" }),
    serialize.execute({}),
    serialize.sync(),
  );
  const message = Buffer.concat(parts);
  texts.set(message, text);
  // The same lock PGlite's own query() takes: statements of concurrent callers do not interleave.
  const { messages } = await client.runExclusive(() => client.execProtocol(message));
  if (!known) names.add(name);
  const columns =
    (messages.find((m) => m.name === "rowDescription") as { fields?: Array<{ name: string }> } | undefined)?.fields ??
    [];
  return messages
    .filter((m) => m.name === "dataRow")
    .map((m) => {
      const fields = (m as unknown as { fields: Array<string | null> }).fields;
      return Object.fromEntries(columns.map((c, i) => [c.name, fields[i] ?? null])) as T;
    });
}
