import type { Embedder } from "@/lib/embeddings/registry";
import type { ChunkingOptions, IngestCounts } from "@/db/types";
// Defined in db/types.ts (stored shapes flow down to db/); re-exported for lib's callers.
export type { ChunkingOptions, IngestCounts } from "@/db/types";

/**
 * The shapes shared by every way documents get into a corpus (files, URLs, uploads, dataset
 * importers, the sample corpus) and by the retrieval that reads them back.
 */

/** One document as a source yields it, before chunking. */
export type DocumentInput = {
  /** The source's own id: re-ingesting the same id replaces the document if its content changed. */
  id: string;
  text: string;
  title?: string;
  url?: string;
  publishedAt?: Date;
  metadata?: Record<string, unknown>;
  /**
   * Already-split passages whose ids must be kept (dataset importers: one passage per sentence,
   * so gold evidence ids resolve). When present, `text` is not chunked again.
   */
  passages?: Array<{ id: string; text: string; embedding?: number[] }>;
};

/** What a reader yields: a document, or a problem with one record that does not stop the rest. */
export type SourceRecord =
  | { kind: "document"; line?: number; document: DocumentInput; file?: string; bytesEnd?: number }
  | { kind: "error"; line?: number; message: string; file?: string; bytesEnd?: number };
// `file`: the file the record came from when a directory is walked (relative to it).
// `bytesEnd`: how far into the source (all files of a directory together) the reader has got
// after this record; progress bars and resume points are measured in it.

export const DEFAULT_CHUNKING: ChunkingOptions = { maxChars: 800, overlapSentences: 1, minChars: 80 };

export type IngestProgress = IngestCounts & {
  jobId: string;
  status: "running" | "completed" | "failed" | "cancelled" | "interrupted";
  source: string;
  bytesTotal?: number;
  bytesDone: number;
  recordsDone: number;
  /** The last few problems, each with the line it was on when the format has lines. */
  recentErrors: Array<{ line?: number; file?: string; message: string }>;
  passagesPerSecond?: number;
};

export type IngestOptions = {
  corpus: string;
  chunking?: Partial<ChunkingOptions>;
  /** Abort the whole run at the first bad record instead of reporting it and going on. */
  strict?: boolean;
  /** Documents per transaction. */
  batchSize?: number;
  /** Defaults to the configured EMBEDDING_MODEL. */
  embedder?: Embedder;
  signal?: AbortSignal;
  onProgress?: (p: IngestProgress) => void;
};

/** `resumable: false` when a failed run would only fail again on resume (its source is the problem). */
export type IngestSummary = IngestProgress & { corpusId: string; seconds: number; resumable?: boolean };
