/**
 * An ILIKE pattern that finds `text` anywhere, matched as itself: `%`, `_` and the escape
 * character (PostgreSQL's default, a backslash) lose their meaning. Every "contains" filter uses it.
 */
export function containing(text: string): string {
  return `%${text.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
}
