import type { SourceRecord } from "./types";

/** The importers a job can name in its `kind`, so a resume can read the same records again. */
export const DATASET_IMPORTERS = ["politifact-hidden", "check-covid", "feverous-gold"] as const;
export type DatasetImporter = (typeof DATASET_IMPORTERS)[number];

export async function datasetRecords(name: string, dataDir: string): Promise<AsyncIterable<SourceRecord>> {
  if (name === "politifact-hidden")
    return (await import("@/lib/datasets/politifact-hidden-corpus")).politifactHiddenCorpus(dataDir);
  if (name === "check-covid") return (await import("@/lib/datasets/check-covid-corpus")).checkCovidCorpus(dataDir);
  if (name === "feverous-gold") return (await import("@/lib/datasets/feverous-corpus")).feverousGoldCorpus(dataDir);
  throw new Error(`unknown dataset "${name}"; available: ${DATASET_IMPORTERS.join(", ")}`);
}

/** Null when the kind's records came from a caller and cannot be produced again here. */
export async function reopenRecords(
  kind: string,
  _source: string,
  data?: string,
): Promise<AsyncIterable<SourceRecord> | null> {
  if (kind === "sample") return (await import("./sample")).sampleRecords();
  if (kind.startsWith("dataset:") && data) return datasetRecords(kind.slice("dataset:".length), data);
  return null;
}
