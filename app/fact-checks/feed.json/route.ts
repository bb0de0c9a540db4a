import { jsonFeed } from "@/lib/fact-checks/feeds";
import { publishedFeed } from "../published-feed";

/** The newest published fact-checks as a JSON Feed 1.1 (https://jsonfeed.org/version/1.1). */
export async function GET(request: Request) {
  return publishedFeed(request, jsonFeed, "application/feed+json");
}
