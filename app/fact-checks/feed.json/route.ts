import { getDb } from "@/db/client";
import { listPublished } from "@/db/queries/fact-checks";
import { getConfig } from "@/lib/config";
import { jsonFeed } from "@/lib/fact-checks/feeds";
import { publicOrigin } from "@/lib/net/public-url";
import { FEED_NEEDS_URL, FEED_SIZE } from "@/lib/fact-checks/feed-limits";

/** The newest published fact-checks as a JSON Feed 1.1 (https://jsonfeed.org/version/1.1). */
export async function GET(request: Request) {
  const base = publicOrigin(request);
  if (!base) return Response.json({ error: FEED_NEEDS_URL }, { status: 503 });
  const { db } = await getDb();
  const feed = jsonFeed(await listPublished(db, { limit: FEED_SIZE }), base, getConfig().organisation);
  return new Response(JSON.stringify(feed), {
    headers: { "content-type": "application/feed+json; charset=utf-8", "cache-control": "public, max-age=60" },
  });
}
