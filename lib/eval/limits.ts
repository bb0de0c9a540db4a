/**
 * The claims file's size limit for runs started from the web: one constant for the page, the
 * upload route and the browser's pre-check. Pure (no Node imports): the form reads it too. How many
 * claims and runs a web run may have is configuration (EVAL_WEB_* in lib/config.ts).
 */

export const MAX_CLAIMS_FILE_BYTES = 50 * 1024 * 1024;

export function formatFileLimit(bytes: number = MAX_CLAIMS_FILE_BYTES): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MiB` : `${Math.round(bytes / 1024)} KiB`;
}
