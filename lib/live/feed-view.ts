import type { LiveFeed } from "@/db/queries/live-feeds";

/* A session's feed as readers get it (GET /api/v1/live/{id}/feed and the board). */

export type LiveFeedView = {
  url: string;
  state: LiveFeed["state"];
  message: string | null;
  lines: number;
  restarts: number;
  lastGrowthAt: string | null;
  polledAt: string | null;
};

export function feedView(f: LiveFeed | null): LiveFeedView | null {
  if (!f) return null;
  return {
    url: f.url,
    state: f.state,
    message: f.message,
    lines: f.taken,
    restarts: f.restarts,
    lastGrowthAt: f.lastGrowthAt?.toISOString() ?? null,
    polledAt: f.polledAt?.toISOString() ?? null,
  };
}
