import type { NerToken } from "@/lib/tools/ner/types";
import type { ViewNote } from "./view-notes";

/*
 * What a method's protocol (its server definition, lib/debate/<method>/protocol.ts) may offer
 * beyond running a debate, for evaluation and the benchmarks to find through the registry
 * (lib/debate/protocols.ts `getProtocol`, `protocolsWith`) instead of importing a method's folder.
 */

/** The rows of an evaluation run a method reads its calibration scores from (db/queries/eval.ts runNoteRows). */
export type RunNoteRows = {
  /** Every finished debate of the run, in the run's order, with the claim's gold label and the final verdict. */
  debates: ReadonlyArray<{
    debateId: string;
    config: unknown;
    gold: string | null;
    claimId: string | null;
    claimUuid: string;
    label: string | null;
  }>;
  /** The method's notes of the declared kind, of those debates. */
  notes: ReadonlyArray<ViewNote & { debateId: string }>;
  /** Every turn of those debates with its tokens. */
  turns: ReadonlyArray<{
    debateId: string;
    role: string;
    phase: string;
    promptTokens: number | null;
    completionTokens: number | null;
  }>;
};

/**
 * Threshold calibration input from a method's own run notes (RADAR: its early-stopping
 * checkpoints, replayed by lib/eval/calibrate.ts). `fromRun` returns one scores line per claim in
 * the shape of a `calibrate --scores` file; evaluation checks it with that file's schema.
 */
export type MethodEvalScores = {
  /** The kind of note (`ctx.note`) the scores are read from. */
  noteKind: string;
  /** Whether a run made with this stored method configuration (`config[<method>]`) has scores to calibrate on. */
  appliesTo(methodConfig: Record<string, unknown> | undefined): boolean;
  /** The run's scores; throws, saying what to do, when the run cannot give them (a debate that stopped early). */
  fromRun(rows: RunNoteRows): unknown[];
};

/** A recogniser's tokens read as the method reads entities (ZoFia: grouped into units within sentences), for `bench ner`. */
export type EntityReader = (
  tokens: NerToken[],
  text: string,
) => Array<{ start: number; end: number; type: string; text: string }>;
