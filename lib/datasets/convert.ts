import { convertAveritec } from "./averitec-claims";
import { convertCheckCovid, type CheckCovidSplit, type CheckCovidSubset } from "./check-covid-claims";
import type { ClaimRecord } from "./claims";
import { checkImport } from "./import-checks";
import { convertFaviq, type FaviqSet } from "./faviq-claims";
import { convertFever } from "./fever-claims";
import { convertFeverous } from "./feverous-claims";
import { convertGossipcop, convertPolitifactNews, type PolitifactNewsSource } from "./politifact-news";
import { convertPolitifactHidden, convertPolitifactSubset150 } from "./politifact-hidden-claims";
import { convertProclaimSubset, PROCLAIM_SUBSET_NAMES } from "./proclaim-subsets";

/** Datasets that only have claims (no corpus to ingest): evaluation runs, not retrieval benchmarks. */
export const CLAIM_DATASETS = [
  "politifact-hidden",
  "politifact-hidden-150",
  "averitec",
  "check-covid",
  "fever",
  "feverous",
  "faviq",
  "politifact-news",
  "gossipcop",
  ...PROCLAIM_SUBSET_NAMES,
] as const;
export type ClaimDatasetName = (typeof CLAIM_DATASETS)[number];

export type ConvertOptions = {
  split?: CheckCovidSplit;
  subset?: CheckCovidSubset;
  completeOnly?: boolean;
  limit?: number;
  nei?: "exclude" | "keep";
  labels?: "native" | "radar";
  faviqSet?: FaviqSet;
  source?: PolitifactNewsSource;
};

/**
 * One entry point for every importer, shared by `dataset convert` and `eval --dataset`: what was
 * read is checked against what the dataset promises (import-checks.ts); a file that cannot be the
 * dataset is refused, anything else worth knowing goes to `onNote`.
 */
export async function convertDataset(
  name: ClaimDatasetName,
  data: string,
  opts: ConvertOptions & { onNote?: (note: string) => void } = {},
): Promise<ClaimRecord[]> {
  const claims = await importDataset(name, data, opts);
  for (const note of checkImport(name, data, claims, {
    limited: opts.limit !== undefined || opts.completeOnly === true,
  }))
    opts.onNote?.(note);
  return claims;
}

async function importDataset(name: ClaimDatasetName, data: string, opts: ConvertOptions): Promise<ClaimRecord[]> {
  switch (name) {
    case "politifact-hidden":
      return convertPolitifactHidden(data, { completeOnly: opts.completeOnly, limit: opts.limit });
    case "politifact-hidden-150":
      return convertPolitifactSubset150(data, { limit: opts.limit });
    case "averitec":
      return convertAveritec(data, { nei: opts.nei, labels: opts.labels, limit: opts.limit });
    case "check-covid":
      return convertCheckCovid(data, {
        split: opts.split,
        subset: opts.subset,
        limit: opts.limit,
        labels: opts.labels,
      });
    case "fever":
      return convertFever(data, { limit: opts.limit });
    case "feverous":
      return convertFeverous(data, { limit: opts.limit });
    case "faviq":
      return convertFaviq(data, { set: opts.faviqSet, limit: opts.limit });
    case "politifact-news":
      return convertPolitifactNews(data, { source: opts.source, limit: opts.limit });
    case "gossipcop":
      return convertGossipcop(data, { limit: opts.limit });
    case "proclaim-checkcovid":
    case "proclaim-healthver":
    case "proclaim-feverous":
    case "proclaim-scifact":
      return convertProclaimSubset(data, name, { limit: opts.limit, labels: opts.labels });
  }
}
