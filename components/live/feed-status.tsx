"use client";

import { useEffect, useState } from "react";
import type { LiveFeedView } from "@/lib/live/feed-view";

/** Refreshed this often: the feed's state changes at most once a poll, and a stall is a matter of minutes. */
const REFRESH_MS = 10_000;

const TONE: Record<LiveFeedView["state"], string> = {
  growing: "border-green-700/40 bg-green-50",
  waiting: "border-black/20 bg-white",
  stalled: "border-amber-700/50 bg-amber-50",
  failing: "border-red-700/50 bg-red-50",
  stopped: "border-black/20 bg-black/5",
};

const TITLE: Record<LiveFeedView["state"], string> = {
  growing: "Feed: growing",
  waiting: "Feed: waiting for the next line",
  stalled: "Feed: stalled",
  failing: "Feed: not answering",
  stopped: "Feed: stopped",
};

/** How the session's polled transcript feed stands, in words (lib/live/feed.ts); nothing when it follows none. */
export function FeedStatus({ sessionId, initial }: { sessionId: string; initial: LiveFeedView | null }) {
  const [feed, setFeed] = useState(initial);
  useEffect(() => {
    if (!initial || initial.state === "stopped") return;
    const t = setInterval(() => {
      fetch(`/api/v1/live/${sessionId}/feed`, { cache: "no-store" })
        .then((r) => (r.ok ? (r.json() as Promise<{ feed: LiveFeedView | null }>) : null))
        .then((j) => j && setFeed(j.feed))
        .catch(() => undefined);
    }, REFRESH_MS);
    return () => clearInterval(t);
  }, [sessionId, initial]);
  if (!feed) return null;
  return (
    <div role="status" className={`rounded border px-3 py-2 text-sm ${TONE[feed.state]}`}>
      <p className="font-medium">{TITLE[feed.state]}</p>
      {feed.message && <p>{feed.message}</p>}
      <p className="break-all text-black/60">{feed.url}</p>
    </div>
  );
}
