/**
 * Runs once when the server starts: opens the database and applies migrations before the first
 * request, so a fresh install is ready (or fails loudly, with the reason, in the server log).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getConfig } = await import("@/lib/config");
  const { getDb } = await import("@/db/client");
  try {
    getConfig();
    const handle = await getDb();
    console.log(`[counterpoint] database ready: ${handle.backend} at ${handle.location}`);
  } catch (e) {
    // Keep serving: /api/health and the home page show the problem and what to do about it.
    console.error(`[counterpoint] start-up check failed: ${(e as Error).message}`);
  }
}
