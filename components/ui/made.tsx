/** When a row was made, to the minute, in UTC as stored: `2026-11-28 13:45`. */
export function Made({ at }: { at: Date }) {
  return <time dateTime={at.toISOString()}>{at.toISOString().slice(0, 16).replace("T", " ")}</time>;
}
