import { INTERVENTION_KINDS } from "./interventions/contract";
import { z } from "zod";
import "zod-openapi";
import { DEBATE_STATUSES } from "@/db/schema";
import { matchDecisionSchema } from "@/lib/matching/decision";
import type { DebateEvent, LiveTurn } from "./events";
import type { DebateView } from "./view";

/*
 * The contract of a debate's event stream (lib/debate/event-stream.ts), in zod: every event the
 * stream sends, with its payload and what it means in words. The OpenAPI document of
 * /api/v1/debates/{id}/events is generated from these schemas, and the checks at the end of this
 * file fail the build when the engine's types (DebateEvent in events.ts, DebateView, LiveTurn)
 * gain an event or a field these schemas do not describe.
 */

const int = () => z.number().int();
const record = () => z.record(z.string(), z.unknown());

export const turnInfoSchema = z
  .object({
    seq: int().meta({ description: "The step's number in the debate (1, 2, ...); later events name the step by it." }),
    round: int(),
    phase: z.string().meta({ description: "The method's name for the step (opening, rebuttal-1, verdict ...)." }),
    role: z.string().meta({ description: "Who speaks (politician, judge, rag-agent ...)." }),
    kind: z.string().meta({
      description:
        "`speech` (a debater), `judge` or a method's own judging kind (RADAR's `checkpoint`), `analysis` (a computed step) or `tool` (a search).",
    }),
    model: z.string().meta({ description: "The model that speaks (provider:model); empty for a step without one." }),
  })
  .meta({ id: "DebateTurnInfo", description: "A step of the debate as it starts." });

const finishedTurnSchema = turnInfoSchema
  .extend({
    content: z.string().meta({ description: "The step's whole text." }),
    promptTokens: z.number(),
    completionTokens: z.number(),
    costUsd: z.number().nullable().meta({ description: "Null when the model's price is unknown." }),
    latencyMs: z.number(),
    citations: z.array(int()).meta({ description: "The evidence ranks the step cites ([E3] is 3)." }),
    scores: record().nullable().meta({
      description: "Probabilities read from the model (a stop agent's STOP/CONTINUE, a label's); null: none.",
    }),
    metadata: record()
      .nullable()
      .optional()
      .meta({ description: "The method's signals for the step (parsed answer, computed values, a search's record)." }),
  })
  .meta({ id: "DebateFinishedTurn" });

export const evidenceSchema = z
  .object({
    rank: int().meta({ description: "1-based; cited as [E<rank>]." }),
    text: z.string(),
    source: z.string().meta({ description: "`retrieved`, `gold`, `supplied`, `tool` or `earlier-check`." }),
    title: z.string().nullable().optional(),
    url: z.string().nullable().optional(),
    publishedAt: z.string().nullable().optional(),
    passageId: z.number().nullable().optional(),
    externalId: z.string().nullable().optional(),
    score: z.number().nullable().optional(),
    denseRank: z.number().nullable().optional(),
    lexicalRank: z.number().nullable().optional(),
    origin: z.string().optional().meta({
      description: "`claim` for the pool the debate started with, else the tool that found it (`tool:corpus`).",
    }),
    addedSeq: int()
      .nullable()
      .optional()
      .meta({ description: "The step that added it; absent for the starting pool." }),
    visibleTo: z
      .array(z.string())
      .nullable()
      .optional()
      .meta({ description: "The roles that may read it; absent or null: everyone." }),
    metadata: record().nullable().optional(),
  })
  .meta({ id: "DebateEvidence", description: "A passage of the debate's evidence pool." });

const labelProbs = () => z.record(z.string(), z.number()).nullable();

const verdictRecordSchema = z
  .object({
    label: z.string().meta({ description: "The method's own label (TRUE, REFUTES, FAKE, NOT SUPPORTED ...)." }),
    reason: z.string().nullable(),
    rawText: z.string().meta({ description: "The judge's answer as written." }),
    confidence: z.number().nullable(),
    labelProbs: labelProbs(),
    stoppedEarly: z.boolean(),
    stopAfter: z.string().nullable().meta({ description: "The step after which the debate stopped early." }),
    roundsCompleted: int(),
    decidedBy: z.string().optional().meta({ description: "How it was reached: `judge`, `consensus`, `panel` ..." }),
    stopReason: z.string().optional().meta({ description: "Why the debate stopped: `rounds`, `early-stop` ..." }),
    details: record().optional(),
    panel: z
      .array(
        z.object({
          judgeRole: z.string(),
          label: z.string(),
          reason: z.string().nullable(),
          rawText: z.string(),
          confidence: z.number().nullable(),
          labelProbs: labelProbs(),
          details: record().optional(),
        }),
      )
      .optional()
      .meta({ description: "A judge panel's individual ballots." }),
  })
  .meta({ id: "DebateVerdictRecord" });

export const viewExtrasSchema = z.record(z.string(), z.unknown()).meta({
  id: "DebateViewExtras",
  description:
    "What a method reads from its own steps for the page, its own fields (RADAR: `domain`, the field a domain expert speaks for; null until known).",
});

/**
 * Every `debate` event, by its `type`, with a one-line meaning. Adding an event to the engine
 * (DebateEvent) without adding it here fails `tsc`; the OpenAPI document lists these.
 */
export const interventionViewSchema = z
  .object({
    id: z.string(),
    kind: z.enum(INTERVENTION_KINDS),
    by: z.string().meta({ description: "The person's display name." }),
    at: z.string().meta({ description: "When it was submitted (ISO 8601)." }),
    summary: z.string().meta({ description: "One line in words." }),
    status: z.enum(["waiting", "applied", "refused"]),
    refusal: z.string().nullable().meta({ description: "Why the method refused it." }),
    beforeSeq: int().nullable().meta({ description: "The stored turn it was applied before; null while waiting." }),
    answeredBySeq: int().nullable().meta({ description: "A question: the turn whose prompt carried it." }),
    evidenceRank: int().nullable().meta({ description: "Added evidence: its rank once applied." }),
  })
  .meta({ id: "Intervention", description: "A person's intervention in a running debate." });

export const DEBATE_EVENTS = {
  status: {
    meaning:
      "The debate's status changed (running, queued when handed to another worker, completed, failed with `error`, cancelled); the stream ends after a final one.",
    schema: z.object({
      type: z.literal("status"),
      status: z.enum(DEBATE_STATUSES),
      error: z.string().optional().meta({ description: "Why the debate failed, in words." }),
    }),
  },
  "turn-start": {
    meaning: "A step began; its text follows in `delta` events with the same seq.",
    schema: z.object({ type: z.literal("turn-start"), turn: turnInfoSchema }),
  },
  delta: {
    meaning: "More text of a step in progress: append `text` at `offset` of what the step has written so far.",
    schema: z.object({
      type: z.literal("delta"),
      seq: int(),
      text: z.string(),
      offset: int()
        .optional()
        .meta({ description: "Where `text` starts in the step's text so far (UTF-16 code units)." }),
    }),
  },
  "turn-reset": {
    meaning: "A failed attempt of a step is retried: throw away its text so far; it starts again after `delayMs`.",
    schema: z.object({
      type: z.literal("turn-reset"),
      seq: int(),
      attempt: int().meta({ description: "The attempt that failed (1-based)." }),
      maxAttempts: int(),
      reason: z.string().meta({ description: "Why, in words (e.g. `a rate limit`)." }),
      delayMs: z.number(),
      error: z.string(),
    }),
  },
  "turn-end": {
    meaning: "A step finished and was saved: its whole text and numbers (replaces what the deltas built).",
    schema: z.object({ type: z.literal("turn-end"), turn: finishedTurnSchema }),
  },
  "turn-error": {
    meaning:
      "A step ended unfinished: `failed` (run again on resume) or `stopped` by a user (kept with what it wrote).",
    schema: z.object({
      type: z.literal("turn-error"),
      seq: int(),
      error: z.string(),
      status: z.enum(["failed", "stopped"]),
      content: z.string().meta({ description: "What the step had written." }),
    }),
  },
  note: {
    meaning:
      "A method's own record beside its steps, by `name` (RADAR's `checkpoint`: the judge's scores between rounds).",
    schema: z.object({
      type: z.literal("note"),
      name: z.string().meta({ description: "The note's kind, declared by the method." }),
      key: z
        .string()
        .meta({ description: "Its identity within the debate: a note with the same name and key replaces it." }),
      value: z
        .unknown()
        .meta({ description: "The record; its shape is the method's (RADAR's checkpoint: after, round, pStop ...)." }),
    }),
  },
  evidence: {
    meaning: "Passages a step (a search) added to the evidence pool during the debate.",
    schema: z.object({ type: z.literal("evidence"), evidence: z.array(evidenceSchema) }),
  },
  verdict: {
    meaning: "The judge's verdict, just before the `completed` status.",
    schema: z.object({ type: z.literal("verdict"), verdict: verdictRecordSchema }),
  },
  intervention: {
    meaning:
      "A person's intervention (added evidence, a question, a struck source, a hold on the verdict): sent when submitted, and again when the debate applies or refuses it.",
    schema: z.object({ type: z.literal("intervention"), intervention: interventionViewSchema }),
  },
  "view-extras": {
    meaning:
      "Sent by the stream right after a `turn-end` when the method reads something from that step for the page (only the fields found).",
    schema: z.object({ type: z.literal("view-extras"), extras: viewExtrasSchema }),
  },
} as const;

export type DebateEventType = keyof typeof DEBATE_EVENTS;

/**
 * What a viewer who may still label the debate (blind annotation) does not get: the judge's
 * opinion in every form. Said in the OpenAPI document; applied by lib/debate/visible-events.ts and
 * lib/annotation/judge-reveal.ts.
 */
export const WITHHELD_FROM_LABELLERS =
  "Someone who may still label the debate (blind annotation) gets the debaters' speeches only: no `verdict` or `note` events; no `turn-start`, `delta`, `turn-reset`, `turn-error` or `turn-end` of a step that is not a `speech`; `turn.scores` is null on every `turn-end`. Their snapshot has `verdict` null, `checkpoints` empty, only `speech` turns (with `scores` null), only live turns that are speeches, earlier fact-checks' ratings taken out of the evidence and of `matchDecision`.";

export const debateEventSchema = z
  .discriminatedUnion(
    "type",
    Object.values(DEBATE_EVENTS).map((e) => e.schema) as unknown as [
      (typeof DEBATE_EVENTS)[DebateEventType]["schema"],
      ...(typeof DEBATE_EVENTS)[DebateEventType]["schema"][],
    ],
  )
  .meta({
    id: "DebateEvent",
    description: `One change of the debate, by \`type\`:\n${Object.entries(DEBATE_EVENTS)
      .map(([type, e]) => `- \`${type}\`: ${e.meaning}`)
      .join("\n")}`,
  });

const liveTurnSchema = z
  .object({
    turn: turnInfoSchema,
    text: z.string().meta({ description: "Its text so far." }),
    retry: z
      .object({ attempt: int(), maxAttempts: int(), reason: z.string() })
      .optional()
      .meta({ description: "A retry in progress (as in `turn-reset`)." }),
  })
  .meta({ id: "DebateLiveTurn", description: "A step in progress." });

const iso = () => z.string().nullable().meta({ description: "ISO 8601, or null." });

export const debateViewSchema = z
  .object({
    id: z.string(),
    status: z.enum(DEBATE_STATUSES),
    protocol: z.string().meta({ description: "The method (radar, tool-mad, zofia, proclaim)." }),
    variant: z.string().nullable(),
    config: record(),
    models: z.record(z.string(), z.string()).meta({ description: "Model id per role." }),
    evidenceMode: z.string(),
    extras: viewExtrasSchema,
    error: z.string().nullable(),
    createdAt: iso(),
    startedAt: iso(),
    finishedAt: iso(),
    matchDecision: matchDecisionSchema
      .nullable()
      .meta({ description: "Claim matching before the start; null when it was not asked for." }),
    claim: z.object({ text: z.string(), date: iso(), title: z.string().nullable(), url: z.string().nullable() }),
    evidence: z.array(evidenceSchema),
    turns: z.array(
      turnInfoSchema.omit({ model: true }).extend({
        status: z.string().meta({ description: "`running`, `completed`, `failed` or `stopped`." }),
        model: z.string().nullable(),
        content: z.string(),
        promptTokens: z.number().nullable(),
        completionTokens: z.number().nullable(),
        costUsd: z.number().nullable(),
        latencyMs: z.number().nullable(),
        citations: z.array(int()),
        scores: record().nullable(),
        metadata: record().nullable(),
        error: z.string().nullable(),
      }),
    ),
    interventions: z.array(interventionViewSchema).meta({
      description: "What people put into the debate while it ran (added evidence, questions, struck sources, holds).",
    }),
    notes: z.array(z.object({ kind: z.string(), key: z.string(), value: z.unknown() })).meta({
      description: "The method's own records (the `note` events, stored; RADAR's early-stopping checkpoints).",
    }),
    verdict: z
      .object({
        label: z.string(),
        reason: z.string().nullable(),
        confidence: z.number().nullable(),
        labelProbs: labelProbs(),
        stoppedEarly: z.boolean(),
        stopAfter: z.string().nullable(),
        roundsCompleted: z.number().nullable(),
        details: record().nullable(),
      })
      .nullable(),
    totals: z
      .object({
        calls: z.number(),
        promptTokens: z.number(),
        completionTokens: z.number(),
        costUsd: z.number().nullable(),
        unpricedCalls: z.number(),
      })
      .meta({ description: "Model calls and tokens spent so far." }),
  })
  .meta({ id: "DebateSnapshotView", description: "The debate so far, with every stored step." });

export const STREAM_EVENTS = {
  snapshot: {
    meaning:
      "Always first: the debate so far (`debate`) and the text of the steps in progress (`live`). After a reconnect a fresh snapshot replaces everything.",
    schema: z.object({ debate: debateViewSchema, live: z.array(liveTurnSchema) }).meta({ id: "DebateSnapshot" }),
  },
  debate: { meaning: "One change of the debate (a DebateEvent, by its `type`).", schema: debateEventSchema },
  revoked: {
    meaning: "Last event when the API token (or share link) that opened the stream is revoked or expires.",
    schema: z
      .object({ message: z.string().meta({ description: "What happened, in a sentence." }) })
      .meta({ id: "DebateStreamRevoked" }),
  },
  end: {
    meaning:
      "Last event when the debate has finished (completed, failed, cancelled or interrupted), with its status; the server then closes the stream. Its `id:` is `end`: a client that reconnects anyway sends it back as `Last-Event-ID` and gets 204 No Content, which stops a standard EventSource client. Close your client on this event.",
    schema: z
      .object({
        status: z
          .enum(["completed", "failed", "cancelled", "interrupted"])
          .meta({ description: "How the debate ended." }),
      })
      .meta({ id: "DebateStreamEnd" }),
  },
  missing: {
    meaning: "Last event when the debate was deleted while the stream opened.",
    schema: z.object({ id: z.string() }).meta({ id: "DebateStreamMissing" }),
  },
} as const;

export type StreamEventName = keyof typeof STREAM_EVENTS;

/** One server-sent event, as its `event:` name and parsed `data:`, for the OpenAPI document. */
export const streamMessageSchema = z
  .union(
    Object.entries(STREAM_EVENTS).map(([event, e]) =>
      z.object({ event: z.literal(event), data: e.schema }).meta({ description: e.meaning }),
    ) as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]],
  )
  .meta({
    id: "DebateStreamMessage",
    description:
      "One server-sent event: its `event:` line names it, its `data:` line holds `data` as one JSON object. `retry:`, `id:` (only on `end`) and `: keep-alive` comment lines carry no event.",
  });

/*
 * Compile-time checks that the engine's types are described: the same event names both ways, and
 * every payload the engine may send matches its schema. Fails `tsc` with the offending name.
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Check<T extends true> = T;
type EngineEvent<K extends DebateEventType> = Extract<DebateEvent, { type: K }>;
type Documented<K extends DebateEventType> = z.input<(typeof DEBATE_EVENTS)[K]["schema"]>;
/** A field the schema does not name (an object type accepts extra fields, so these are checked by name). */
type Unnamed<A, B> = Exclude<keyof A, keyof B>;
type Undescribed = {
  [K in DebateEventType]: EngineEvent<K> extends Documented<K>
    ? Unnamed<EngineEvent<K>, Documented<K>> extends never
      ? never
      : `${K}: ${Unnamed<EngineEvent<K>, Documented<K>> & string}`
    : K;
}[DebateEventType];
type TurnEnd = EngineEvent<"turn-end">["turn"];

export type EventSchemaChecks = [
  Check<Same<DebateEvent["type"], DebateEventType>>,
  Check<Same<Undescribed, never>>,
  Check<Same<Unnamed<TurnEnd, Documented<"turn-end">["turn"]>, never>>,
  Check<DebateView extends z.input<typeof debateViewSchema> ? true : false>,
  Check<Same<Unnamed<DebateView, z.input<typeof debateViewSchema>>, never>>,
  Check<Same<Unnamed<DebateView["turns"][number], z.input<typeof debateViewSchema>["turns"][number]>, never>>,
  Check<LiveTurn extends z.input<typeof liveTurnSchema> ? true : false>,
];
