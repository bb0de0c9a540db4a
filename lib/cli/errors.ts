import { DrizzleQueryError } from "drizzle-orm/errors";

/**
 * What the CLI tells a person when a command fails. A database error from drizzle carries the query
 * text and its parameters in its message ("Failed query: select … params: …"): that is for a
 * developer (printed under DEBUG), never for the person running the command, so it is replaced by
 * the database's own reason in a sentence.
 */
export function userMessage(e: unknown): string {
  if (e instanceof DrizzleQueryError) {
    const cause = e.cause instanceof Error ? e.cause.message : "";
    return `The database refused the request${cause ? `: ${scrubQueries(cause)}` : ""}. Run with DEBUG=1 to see the query.`;
  }
  return scrubQueries(e instanceof Error ? e.message : String(e));
}

/** A query's text that reached a message some other way (an error wrapping drizzle's in its own words). */
function scrubQueries(message: string): string {
  return message.replace(/Failed query: [\s\S]*?params: [^\n]*/g, "(a database query; run with DEBUG=1 to see it)");
}

/** The code a script can branch on, when the error has one (ConfigError, commander's, Node's). */
export function errorCode(e: unknown): string | undefined {
  if (e instanceof DrizzleQueryError) return "database";
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** Under --json an error is one JSON document on stderr, so stdout holds only results. */
export function jsonError(message: string, code?: string): string {
  return `${JSON.stringify({ error: { message, ...(code ? { code } : {}) } })}\n`;
}
