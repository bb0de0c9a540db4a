/**
 * Runs once when the server starts: opens the database and applies migrations before the first
 * request, and marks work a previous process left unfinished (debates, ingest jobs) as
 * interrupted, so that users see it and can resume it.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Before any request: the client address every limit uses comes from the socket, not a header.
  (await import("@/lib/auth/client-ip")).stampPeerAddresses();
  // The same process-wide services as the CLI's (lib/process/services.ts), before the database opens.
  (await import("@/lib/process/services")).installProcessServices();
  const { getConfig } = await import("@/lib/config");
  const { getDb } = await import("@/db/client");
  try {
    getConfig();
    // Feeds and ClaimReview need PUBLIC_URL (lib/net/public-url.ts): say so before anyone asks for them.
    if (!getConfig().publicUrl)
      console.warn(`[counterpoint] ${(await import("@/lib/net/public-url")).PUBLIC_URL_NEEDED}`);
    const handle = await getDb();
    console.log(`[counterpoint] database ready: ${handle.backend} at ${handle.location}`);
    // The home page tells a new operator the code is in the console: it must be there before anyone opens /setup.
    const { startupSetupCode, setupCodeMessage } = await import("@/lib/auth/setup");
    const code = await startupSetupCode(handle.db, getConfig().dataDir);
    if (code) console.log(setupCodeMessage(code, getConfig().dataDir));
    if (handle.backend === "postgres") {
      // Many processes share this database: provider limits are counted in it (lib/process/services.ts),
      // and debates whose process died are taken over by a queue worker once their lease lapses (not marked interrupted).
      const worker = getConfig().inProcessWorker;
      if (worker.enabled) {
        const { startInProcessWorker } = await import("@/lib/debate/queue");
        startInProcessWorker(handle, worker.concurrency);
        console.log(
          `[counterpoint] in-process debates worker: up to ${worker.concurrency} at once (IN_PROCESS_WORKER=false to leave debates to \`counterpoint worker\`)`,
        );
      }
    } else {
      const { recoverOrphans } = await import("@/lib/debate/runner");
      const interrupted = await recoverOrphans(handle.db, handle.backend);
      if (interrupted.length)
        console.log(
          `[counterpoint] ${interrupted.length} debate(s) were interrupted by a restart; they can be resumed from their pages`,
        );
    }
    // Webhook deliveries: on PostgreSQL with the debates worker (IN_PROCESS_WORKER; `counterpoint
    // worker` sends them too), on PGlite always (only this process can open the database).
    if (handle.backend !== "postgres" || getConfig().inProcessWorker.enabled)
      (await import("@/lib/webhooks/queue")).startAppWebhookWorker(handle);
    const { markOrphanedJobsInterrupted } = await import("@/lib/corpus/ingest");
    const jobs = await markOrphanedJobsInterrupted(handle.db);
    if (jobs) console.log(`[counterpoint] ${jobs} ingest job(s) were interrupted by a restart; they can be resumed`);
  } catch (e) {
    // Keep serving: /api/health and the home page show the problem and what to do about it.
    console.error(`[counterpoint] start-up check failed: ${(e as Error).message}`);
  }
}
