import { dataFeed } from "@/lib/fact-checks/feeds";
import { publishedFeed } from "../published-feed";

/** The newest published fact-checks as a schema.org DataFeed of ClaimReview items (JSON-LD). */
export async function GET(request: Request) {
  return publishedFeed(request, dataFeed, "application/ld+json");
}
