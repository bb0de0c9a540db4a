import { getDb } from "@/db/client";
import { listPublished, type PublishedFactCheck } from "@/db/queries/fact-checks";
import { getConfig } from "@/lib/config";
import type { Publisher } from "@/lib/fact-checks/feeds";
import { publicOrigin } from "@/lib/net/public-url";
import { FEED_NEEDS_URL, FEED_SIZE } from "@/lib/fact-checks/feed-limits";

/**
 * The newest published fact-checks in one feed format: the feeds differ only in how they write
 * the items and the content type they are served as, so the reading, the address they need and
 * the caching live here once.
 */
export async function publishedFeed(
  request: Request,
  write: (items: PublishedFactCheck[], base: string, publisher: Publisher) => unknown,
  contentType: string,
): Promise<Response> {
  const base = publicOrigin(request);
  if (!base) return Response.json({ error: FEED_NEEDS_URL }, { status: 503 });
  const { db } = await getDb();
  const feed = write(await listPublished(db, { limit: FEED_SIZE }), base, getConfig().organisation);
  return new Response(JSON.stringify(feed), {
    headers: { "content-type": `${contentType}; charset=utf-8`, "cache-control": "public, max-age=60" },
  });
}
