import type { Database } from "@/db/client";
import {
  cardActionsWithWho,
  cardsOfLines,
  getLiveSession,
  liveLines,
  type LiveCardActionWithWho,
  type LiveLine,
} from "@/db/queries/live";
import { csvCell } from "@/lib/export/formats";
import { cardViews, sessionView } from "./board";
import { timeCode, type LiveCardView } from "./view";

/*
 * A session's archive: the transcript in order of arrival, each line with its highlights (the
 * cards made from its sentences) and what the desk did with each card, who and when. Written as
 * JSON or CSV while it is read, a page of lines at a time, so a ten-hour session's archive never
 * sits whole in memory: at most LINES_PER_PAGE lines, their cards and those cards' actions.
 */

export type ArchiveFormat = "json" | "csv";
export const ARCHIVE_FORMATS: readonly ArchiveFormat[] = ["json", "csv"];

/** Lines read per statement (and their cards with them). */
const LINES_PER_PAGE = 200;

export type ArchiveAction = { action: string; at: string; by: string | null; detail: Record<string, unknown> | null };
export type ArchiveCard = LiveCardView & { actions: ArchiveAction[] };
export type ArchiveLine = {
  seq: number;
  lineId: string;
  timeCode: string;
  atMs: number;
  speaker: string | null;
  text: string;
  state: string;
  receivedAt: string;
  cards: ArchiveCard[];
};

function who(a: LiveCardActionWithWho): string | null {
  return a.userName || a.userEmail || null;
}

/** The transcript page by page, each line with its cards and their actions. */
async function* archiveLines(db: Database, sessionId: string): AsyncGenerator<ArchiveLine[]> {
  let after = 0;
  for (;;) {
    const lines: LiveLine[] = await liveLines(db, sessionId, after, LINES_PER_PAGE);
    if (!lines.length) return;
    const cards = await cardViews(db, await cardsOfLines(db, sessionId, lines[0]!.seq, lines.at(-1)!.seq));
    const actions = await cardActionsWithWho(
      db,
      cards.map((c) => c.id),
    );
    const actionsOf = new Map<string, ArchiveAction[]>();
    for (const a of actions)
      actionsOf.set(a.cardId, [
        ...(actionsOf.get(a.cardId) ?? []),
        { action: a.action, at: a.createdAt.toISOString(), by: who(a), detail: a.detail ?? null },
      ]);
    const cardsOf = new Map<string, ArchiveCard[]>();
    for (const c of cards)
      cardsOf.set(c.lineId, [...(cardsOf.get(c.lineId) ?? []), { ...c, actions: actionsOf.get(c.id) ?? [] }]);
    yield lines.map((l) => ({
      seq: l.seq,
      lineId: l.lineId,
      timeCode: timeCode(l.atMs),
      atMs: l.atMs,
      speaker: l.speaker,
      text: l.text,
      state: l.state,
      receivedAt: l.receivedAt.toISOString(),
      cards: cardsOf.get(l.lineId) ?? [],
    }));
    if (lines.length < LINES_PER_PAGE) return;
    after = lines.at(-1)!.seq;
  }
}

/** `{session, transcript: [line with cards]}`, in pieces. */
async function* jsonArchive(db: Database, sessionId: string, head: unknown): AsyncGenerator<string> {
  yield `{"session":${JSON.stringify(head)},"transcript":[`;
  let first = true;
  for await (const page of archiveLines(db, sessionId))
    for (const line of page) {
      yield `${first ? "" : ","}\n${JSON.stringify(line)}`;
      first = false;
    }
  yield "\n]}\n";
}

/**
 * One row per transcript line (`kind` line), each followed by a row per card made from it (`kind`
 * card) with the earlier check, the debate's verdict and what was done, who and when.
 */
export const ARCHIVE_CSV_COLUMNS = [
  "kind",
  "seq",
  "line_id",
  "time_code",
  "speaker",
  "text",
  "line_state",
  "card_id",
  "score",
  "checked_before",
  "repeat_of",
  "repeats",
  "card_state",
  "debate_id",
  "debate_verdict",
  "fact_check_id",
  "actions",
] as const;

const row = (cells: unknown[]) => `${cells.map(csvCell).join(",")}\r\n`;

async function* csvArchive(db: Database, sessionId: string): AsyncGenerator<string> {
  yield row([...ARCHIVE_CSV_COLUMNS]);
  for await (const page of archiveLines(db, sessionId)) {
    let out = "";
    for (const l of page) {
      out += row(["line", l.seq, l.lineId, l.timeCode, l.speaker, l.text, l.state]);
      for (const c of l.cards)
        out += row([
          "card",
          l.seq,
          l.lineId,
          c.timeCode,
          c.speaker,
          c.sentence,
          l.state,
          c.id,
          c.unreadable ? `not scored: ${c.unreadable}` : c.score.toFixed(3),
          c.checkedBefore,
          c.groupOf,
          c.repeats,
          c.state,
          c.debate?.id,
          c.debate?.verdict,
          c.factCheckId,
          c.actions.map((a) => `${a.action} by ${a.by ?? "a deleted user"} at ${a.at}`).join("; "),
        ]);
    }
    yield out;
  }
}

/** The archive in pieces as it is read, or null when there is no such session. */
export async function archivePieces(
  db: Database,
  sessionId: string,
  format: ArchiveFormat,
): Promise<AsyncGenerator<string> | null> {
  const session = await getLiveSession(db, sessionId);
  if (!session) return null;
  const head = { ...sessionView(session), exportedAt: new Date().toISOString() };
  return format === "csv" ? csvArchive(db, sessionId) : jsonArchive(db, sessionId, head);
}

/** The archive as a download, or null when there is no such session. */
export async function archiveResponse(
  db: Database,
  sessionId: string,
  format: ArchiveFormat,
): Promise<Response | null> {
  const pieces = await archivePieces(db, sessionId, format);
  if (!pieces) return null;
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await pieces.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await pieces.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="live-${sessionId.slice(0, 8)}.${format}"`,
      "cache-control": "no-store",
    },
  });
}
