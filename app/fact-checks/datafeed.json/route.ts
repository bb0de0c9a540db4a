import { getDb } from "@/db/client";
import { listPublished } from "@/db/queries/fact-checks";
import { getConfig } from "@/lib/config";
import { dataFeed } from "@/lib/fact-checks/feeds";
import { publicOrigin } from "@/lib/net/public-url";
import { FEED_NEEDS_URL, FEED_SIZE } from "@/lib/fact-checks/feed-limits";

/** The newest published fact-checks as a schema.org DataFeed of ClaimReview items (JSON-LD). */
export async function GET(request: Request) {
  const base = publicOrigin(request);
  if (!base) return Response.json({ error: FEED_NEEDS_URL }, { status: 503 });
  const { db } = await getDb();
  const feed = dataFeed(await listPublished(db, { limit: FEED_SIZE }), base, getConfig().organisation);
  return new Response(JSON.stringify(feed), {
    headers: { "content-type": "application/ld+json; charset=utf-8", "cache-control": "public, max-age=60" },
  });
}
