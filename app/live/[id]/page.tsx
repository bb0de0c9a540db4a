import Link from "next/link";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { can } from "@/lib/auth/policy";
import { pageReadDebates } from "@/lib/auth/server";
import { methodTitle } from "@/lib/debate/methods";
import { readBoard } from "@/lib/live/board";
import { LiveBoard } from "@/components/live/board";
import { CloseSessionForm } from "@/components/live/session-close";
import { FeedStatus } from "@/components/live/feed-status";
import { getLiveFeed } from "@/db/queries/live-feeds";
import { feedView } from "@/lib/live/feed-view";

export const dynamic = "force-dynamic";
export const metadata = { title: "Live board" };

/** One session's board: cards newest first, following the session live (lib/live/stream.ts). */
export default async function LiveBoardPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const principal = await pageReadDebates(`/live/${id}`);
  const { db } = await getDb();
  const board = await readBoard(db, id);
  if (!board) notFound();
  const { session } = board;
  return (
    <div className="mx-auto max-w-4xl space-y-4">
      <div className="space-y-1">
        <p className="text-sm">
          <Link href="/live" className="underline">
            Live desk
          </Link>
        </p>
        <h1 className="text-2xl font-semibold tracking-tight break-words">{session.title}</h1>
        <p className="text-sm text-black/70">
          {session.status === "open" ? "Open" : "Closed: takes no more lines"} · debates with{" "}
          {methodTitle(session.method)} · cards from a score of {session.threshold.toFixed(2)}
        </p>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
          <span>
            {session.status === "open" ? "Transcript and cards so far" : "Archive"}:{" "}
            <a href={`/api/v1/live/${session.id}/archive?format=json`} className="underline" download>
              JSON
            </a>{" "}
            ·{" "}
            <a href={`/api/v1/live/${session.id}/archive?format=csv`} className="underline" download>
              CSV
            </a>
          </span>
          {session.status === "open" && can(principal, "debate:start") && <CloseSessionForm sessionId={session.id} />}
        </div>
      </div>
      <FeedStatus sessionId={session.id} initial={feedView(await getLiveFeed(db, id))} />
      <LiveBoard
        sessionId={session.id}
        initial={board.cards}
        rev={session.rev}
        lines={session.lines}
        mayAct={can(principal, "debate:start")}
        mayDraft={can(principal, "fact-check:write")}
      />
    </div>
  );
}
