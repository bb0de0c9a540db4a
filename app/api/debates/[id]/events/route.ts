import { getDb } from "@/db/client";
import { canReadDebate } from "@/lib/auth/access";
import { principalFromRequest } from "@/lib/auth/server";
import { debateEventStream } from "@/lib/debate/event-stream";

export const dynamic = "force-dynamic";

/** The debate page's live stream (lib/debate/event-stream.ts), opened by a session or a share link. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!/^[0-9a-f-]{36}$/i.test(id)) return Response.json({ error: "not a debate id" }, { status: 400 });
  const { db } = await getDb();
  // A share link's page passes its token on, so the stream opens for exactly that debate.
  const share = new URL(request.url).searchParams.get("share");
  const principal = await principalFromRequest(request);
  if (!(await canReadDebate(db, principal, id, share))) {
    return Response.json({ error: "Sign in to read this debate." }, { status: 401 });
  }
  return debateEventStream(db, request, id, principal, share);
}
