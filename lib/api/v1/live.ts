import { z } from "zod";
import "zod-openapi";
import { createLiveSession, getLiveSession } from "@/db/queries/live";
import { getLiveFeed } from "@/db/queries/live-feeds";
import { demand } from "@/lib/auth/policy";
import { getProtocol, PROTOCOL_NAMES } from "@/lib/debate/protocols";
import { DEFAULT_METHOD } from "@/lib/debate/methods";
import { StartRateLimited } from "@/lib/debate/start-service";
import { scorerFor } from "@/lib/checkworthy";
import { CARD_ACTIONS, actOnLiveCard } from "@/lib/live/actions";
import { ARCHIVE_FORMATS, archiveResponse } from "@/lib/live/archive";
import { cardViews, readBoard, sessionView } from "@/lib/live/board";
import { closeSession } from "@/lib/live/close";
import { feedView } from "@/lib/live/feed-view";
import { LiveError, MAX_LINE_CHARS, MAX_LINES_PER_BATCH, receiveLines } from "@/lib/live/service";
import { liveBoardStream } from "@/lib/live/stream";
import { ApiError, endpoint, type Endpoint } from "../endpoint";
import { startRefusal, strictObject, uuidParam } from "./common";

/*
 * The live desk's endpoints (docs/live.md): create a session, push its transcript line by line,
 * read its board, follow it as server-sent events, act on a card. Who may: the route table
 * (lib/auth/route-policy.ts): reading as debates, writing needs `debate:start`.
 */

const sessionSchema = z
  .object({
    id: z.string().uuid(),
    title: z.string(),
    method: z.string(),
    corpus: z.string().nullable(),
    threshold: z.number(),
    status: z.enum(["open", "closed"]),
    lines: z.number().int().meta({ description: "Lines received so far." }),
    rev: z.number().int().meta({ description: "The board's latest revision (the stream's last event id)." }),
    createdAt: z.string(),
  })
  .meta({ id: "LiveSession" });

const cardSchema = z
  .looseObject({
    id: z.string().uuid(),
    rev: z.number().int(),
    lineId: z.string(),
    speaker: z.string().nullable(),
    sentence: z.string(),
    atMs: z.number().int(),
    timeCode: z.string().meta({ example: "00:12:03" }),
    score: z.number(),
    checkedBefore: z
      .string()
      .nullable()
      .meta({ example: "Checked before: False, 12 March 2025, by Full Fact", description: "Null: nothing matched." }),
    unreadable: z.string().nullable().meta({
      example: "Cyrillic",
      description:
        "The script of a line the check-worthiness scorer cannot read: the card is the whole line, not scored (score 0). Null: scored.",
    }),
    groupOf: z.string().uuid().nullable().meta({ description: "The first card of the same claim; null on that card." }),
    repeats: z.number().int().meta({ description: "On a first card: how many times the claim was said." }),
    state: z.enum(["new", "debating", "attached", "dismissed", "drafted"]),
  })
  .meta({ id: "LiveCard" });

const wrap = (e: unknown): never => {
  if (e instanceof LiveError)
    throw new ApiError(
      e.status,
      e.status === 404 ? "not_found" : e.status === 409 ? "conflict" : "invalid_request",
      e.message,
      e.field,
    );
  throw e;
};

export const createLive = endpoint({
  id: "createLiveSession",
  method: "POST",
  path: "/api/v1/live",
  tag: "Live desk",
  summary: "Open a live session",
  description: "A board for one live event. Needs the scope `debate:start`.",
  body: strictObject({
    title: z.string().trim().min(1, "title is required: name the event").max(200),
    method: z
      .string()
      .trim()
      .optional()
      .meta({ description: "The method a card's debate uses; the default when left out." }),
    corpus: z.string().trim().max(64).optional(),
    threshold: z
      .number()
      .min(0, "threshold must be within 0..1")
      .max(1, "threshold must be within 0..1")
      .optional()
      .meta({
        description: "Sentences scoring at or above it become cards; the scorer's own threshold when left out.",
      }),
  }).meta({ id: "CreateLiveSession" }),
  idempotent: true,
  responses: { 201: { description: "The session.", schema: sessionSchema } },
  async handle({ db, principal, body }) {
    const me = demand(principal, "debate:start");
    const method = body.method || DEFAULT_METHOD;
    if (!PROTOCOL_NAMES.includes(method))
      throw new ApiError(
        400,
        "invalid_request",
        `There is no method "${method}"; choose one of: ${PROTOCOL_NAMES.join(", ")}.`,
        "method",
      );
    getProtocol(method);
    const row = await createLiveSession(db, {
      title: body.title,
      method,
      corpus: body.corpus || null,
      threshold: body.threshold ?? scorerFor("offline").threshold,
      createdBy: me.id,
    });
    return { status: 201, json: sessionView(row) };
  },
});

const lineSchema = strictObject({
  id: z.string().trim().min(1, "id is required: the line's own id, so a retry is not stored twice").max(200),
  speaker: z.string().trim().max(200).nullable().optional(),
  text: z.string().max(MAX_LINE_CHARS, `a line may have at most ${MAX_LINE_CHARS} characters: split it`),
  at: z
    .number()
    .int("at is whole milliseconds")
    .min(0, "at is milliseconds from the start of the event, 0 or more")
    .meta({ description: "When it was said: milliseconds from the start of the event." }),
});

export const pushLines = endpoint({
  id: "pushLiveLines",
  method: "POST",
  path: "/api/v1/live/{id}/lines",
  tag: "Live desk",
  summary: "Send transcript lines",
  description: `Up to ${MAX_LINES_PER_BATCH} lines per request, each with its own id: a line id the session has is answered as a duplicate and never stored or counted twice, so a sender may retry freely. An empty line is kept (state \`empty\`); a line timed before one already received is kept as \`late\` and takes its place on the board by time. Needs the scope \`debate:start\`.`,
  params: uuidParam,
  body: strictObject({
    lines: z
      .array(lineSchema)
      .min(1, "send at least one line")
      .max(MAX_LINES_PER_BATCH, `send at most ${MAX_LINES_PER_BATCH} lines at a time`),
  }).meta({ id: "LiveLines" }),
  responses: {
    200: {
      description: "What was stored, what was a duplicate, and the cards added or changed.",
      schema: z.object({
        accepted: z.array(
          z.object({
            lineId: z.string(),
            seq: z.number().int(),
            state: z.enum(["ok", "empty", "late"]),
            sentences: z.number().int(),
            cards: z.number().int(),
          }),
        ),
        duplicates: z.array(z.string()),
        cards: z.array(cardSchema),
      }),
    },
    409: { description: "The session is closed.", schema: z.unknown() },
  },
  async handle({ db, principal, params, body }) {
    demand(principal, "debate:start");
    const out = await receiveLines(
      { db },
      params.id,
      body.lines.map((l) => ({ lineId: l.id, speaker: l.speaker ?? null, text: l.text, atMs: l.at })),
    ).catch(wrap);
    return {
      status: 200,
      json: { accepted: out.accepted, duplicates: out.duplicates, cards: await cardViews(db, out.cards) },
    };
  },
});

export const readLive = endpoint({
  id: "readLiveSession",
  method: "GET",
  path: "/api/v1/live/{id}",
  tag: "Live desk",
  summary: "A live session and its board",
  description:
    "The session and its newest 200 cards, newest time code first; a matched card says the earlier verdict first (`checkedBefore`).",
  params: uuidParam,
  responses: {
    200: { description: "The board.", schema: z.object({ session: sessionSchema, cards: z.array(cardSchema) }) },
  },
  async handle({ db, params }) {
    const board = await readBoard(db, params.id);
    if (!board) throw new ApiError(404, "not_found", "There is no live session with this id.");
    return { status: 200, json: board };
  },
});

export const liveEvents = endpoint({
  id: "liveSessionEvents",
  method: "GET",
  path: "/api/v1/live/{id}/events",
  tag: "Live desk",
  summary: "Follow a board live (server-sent events)",
  description:
    "`session` first, then `cards` events (data: `{cards: LiveCard[]}`) whose id is the board's revision: reconnect with `Last-Event-ID` (or `?after=`) and every card changed since comes, none twice.",
  params: uuidParam,
  responses: { 200: { description: "Server-sent events.", contentType: "text/event-stream" } },
  async handle({ db, params, request }) {
    if (!(await getLiveSession(db, params.id)))
      throw new ApiError(404, "not_found", "There is no live session with this id.");
    return liveBoardStream(db, request, params.id);
  },
});

export const actOnCard = endpoint({
  id: "actOnLiveCard",
  method: "POST",
  path: "/api/v1/live/{id}/cards/{card}",
  tag: "Live desk",
  summary: "Act on a card",
  description:
    "`debate` starts a debate on the card's sentence with the session's method (the debate form's start service; a matched earlier check is attached as evidence); `attach` marks the earlier check attached; `dismiss`; `draft` sends the card to an editor as a fact-check draft with its time code (needs a finished debate and the scope `fact-check:write`). Stored with who and when.",
  params: z.object({ id: uuidParam.shape.id, card: uuidParam.shape.id }),
  body: strictObject({
    action: z.enum(CARD_ACTIONS, { error: `action must be one of: ${CARD_ACTIONS.join(", ")}` }),
  }).meta({ id: "LiveCardAction" }),
  // `debate` starts (and pays for) a debate: a retry with the same key answers the first result.
  idempotent: true,
  responses: {
    200: { description: "The card as changed.", schema: cardSchema },
    409: { description: "Not possible on this card now.", schema: z.unknown() },
  },
  async handle({ handle, principal, params, body }) {
    try {
      return { status: 200, json: await actOnLiveCard(handle, principal, params.id, params.card, body.action) };
    } catch (e) {
      if (e instanceof LiveError) wrap(e);
      if (e instanceof StartRateLimited)
        throw new ApiError(429, "rate_limited", e.message, undefined, { "retry-after": String(e.retryAfterSeconds) });
      if (e instanceof ApiError) throw e;
      return startRefusal(e, { protocol: "method" });
    }
  },
});

export const closeLive = endpoint({
  id: "closeLiveSession",
  method: "POST",
  path: "/api/v1/live/{id}/close",
  tag: "Live desk",
  summary: "Close a live session",
  description:
    "The event is over: the session takes no more lines (a push is answered 409 with what to do) and stays readable as an archive (`GET /api/v1/live/{id}/archive`). Closing a closed session changes nothing. Needs the scope `debate:start`.",
  params: uuidParam,
  responses: { 200: { description: "The session, closed.", schema: sessionSchema } },
  async handle({ db, principal, params }) {
    demand(principal, "debate:start");
    const session = await closeSession(db, params.id);
    if (!session) throw new ApiError(404, "not_found", "There is no live session with this id.");
    return { status: 200, json: session };
  },
});

export const liveArchive = endpoint({
  id: "liveSessionArchive",
  method: "GET",
  path: "/api/v1/live/{id}/archive",
  tag: "Live desk",
  summary: "A session's archive (JSON or CSV)",
  description:
    "The transcript in order of arrival, each line with the cards made from its sentences (score, the earlier check, the debate's verdict) and what the desk did with each card, who and when. JSON: `{session, transcript: [line with cards and their actions]}`. CSV: one `line` row per line followed by a `card` row per card; cells that a spreadsheet would run as a formula are prefixed with `'`. Written as it is read, so a long session's archive is not held in memory. Readable by whoever may read debates; an open session's archive is what it has so far.",
  params: uuidParam,
  query: z.object({
    format: z.enum(ARCHIVE_FORMATS, { error: `format must be one of: ${ARCHIVE_FORMATS.join(", ")}` }).default("json"),
  }),
  responses: {
    200: {
      description: "The archive as a download: JSON by default, CSV with `format=csv`.",
      schema: z
        .object({
          session: z.record(z.string(), z.unknown()),
          transcript: z.array(z.record(z.string(), z.unknown())),
        })
        .meta({ id: "LiveArchive" }),
      alsoAs: ["text/csv"],
    },
  },
  async handle({ db, params, query }) {
    const res = await archiveResponse(db, params.id, query.format);
    if (!res) throw new ApiError(404, "not_found", "There is no live session with this id.");
    return res;
  },
});

const feedSchema = z
  .object({
    url: z.string(),
    state: z.enum(["waiting", "growing", "stalled", "failing", "stopped"]),
    message: z.string().nullable().meta({
      example: "The feed has not grown for 2 minutes (last new line at 20:14:03 UTC).",
      description: "How the feed stands, in words, as the board says it.",
    }),
    lines: z.number().int().meta({ description: "Lines of the document taken so far." }),
    restarts: z
      .number()
      .int()
      .meta({ description: "Times the feed started again (its early lines were not counted twice)." }),
    lastGrowthAt: z.string().nullable(),
    polledAt: z.string().nullable(),
  })
  .meta({ id: "LiveFeed" });

export const readFeed = endpoint({
  id: "readLiveFeed",
  method: "GET",
  path: "/api/v1/live/{id}/feed",
  tag: "Live desk",
  summary: "How a session's polled transcript feed stands",
  description:
    "A session can follow a growing transcript at an address (`counterpoint live follow <url> --session <id>`): this says how it stands (`growing`, `waiting`, `stalled` after 2 minutes without a new line, `failing`, `stopped` once the session closed) and where it is. `feed` is null when the session follows none.",
  params: uuidParam,
  responses: { 200: { description: "The feed.", schema: z.object({ feed: feedSchema.nullable() }) } },
  async handle({ db, params }) {
    if (!(await getLiveSession(db, params.id)))
      throw new ApiError(404, "not_found", "There is no live session with this id.");
    return { status: 200, json: { feed: feedView(await getLiveFeed(db, params.id)) } };
  },
});

export const LIVE_ENDPOINTS: readonly Endpoint[] = [
  readFeed,
  createLive,
  pushLines,
  readLive,
  liveEvents,
  actOnCard,
  closeLive,
  liveArchive,
];
