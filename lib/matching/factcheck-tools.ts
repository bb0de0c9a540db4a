import { z } from "zod";
import type { AppConfig } from "@/lib/config";
import type { AllowList } from "@/lib/net/address-policy";
import { safeFetch, type Resolver } from "@/lib/net/safe-fetch";
import { allowConfiguredHost } from "@/lib/tools/http";

/**
 * Google Fact Check Tools `claims:search`: fact-checks from publishers worldwide that mark up
 * ClaimReview. Asked only when FACTCHECK_TOOLS_API_KEY is set; every request goes through the
 * guarded fetcher, and the answer is untrusted: validated, links other than http(s) dropped,
 * text kept as plain text.
 */

export const FACTCHECK_TOOLS_DEFAULT_BASE_URL = "https://factchecktools.googleapis.com";
const MAX_BYTES = 2 * 1024 ** 2;

const httpUrl = z
  .string()
  .max(2048)
  .refine((u) => /^https?:\/\//i.test(u) && URL.canParse(u), "not an http(s) link");

/** Fields read from the answer; anything else is ignored, a malformed review is skipped, not fatal. */
const review = z.object({
  publisher: z.object({ name: z.string().max(300).optional(), site: z.string().max(300).optional() }).optional(),
  url: z.string().optional(),
  title: z.string().max(2000).optional(),
  reviewDate: z.string().max(64).optional(),
  textualRating: z.string().max(300).optional(),
  languageCode: z.string().max(20).optional(),
});
const answer = z.object({
  claims: z
    .array(
      z.object({
        text: z.string().max(5000).optional(),
        claimant: z.string().max(300).optional(),
        claimDate: z.string().max(64).optional(),
        claimReview: z.array(z.unknown()).optional(),
      }),
    )
    .optional(),
});

export type FactCheckToolsResult = {
  claim: string;
  rating: string | null;
  publisher: string | null;
  url: string;
  claimDate: string | null;
  reviewDate: string | null;
  title: string | null;
};

export class FactCheckToolsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FactCheckToolsError";
  }
}

function isoDate(v: string | undefined): string | null {
  if (!v) return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

const plain = (s: string) =>
  s
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

export function factCheckToolsConfigured(config: Pick<AppConfig, "factcheckTools">): boolean {
  return !!config.factcheckTools.apiKey;
}

/** One `claims:search` request; throws FactCheckToolsError saying what failed and what to check. */
export async function searchFactCheckTools(
  config: Pick<AppConfig, "factcheckTools" | "fetch">,
  query: string,
  opts: { pageSize?: number; signal?: AbortSignal; resolve?: Resolver; allow?: AllowList; timeoutMs?: number } = {},
): Promise<FactCheckToolsResult[]> {
  const cfg = config.factcheckTools;
  if (!cfg.apiKey) throw new FactCheckToolsError("Fact Check Tools is not configured (FACTCHECK_TOOLS_API_KEY)");
  const base = (cfg.baseURL ?? FACTCHECK_TOOLS_DEFAULT_BASE_URL).replace(/\/+$/, "");
  const params = new URLSearchParams({ query: query.slice(0, 500), pageSize: String(opts.pageSize ?? 10) });
  if (cfg.language !== "any") params.set("languageCode", cfg.language);
  if (cfg.maxAgeDays) params.set("maxAgeDays", String(cfg.maxAgeDays));
  params.set("key", cfg.apiKey);
  const url = `${base}/v1alpha1/claims:search?${params}`;
  let res: Awaited<ReturnType<typeof safeFetch>>;
  try {
    res = await safeFetch(url, {
      allow: allowConfiguredHost(opts.allow ?? config.fetch.allow, cfg.baseURL),
      timeoutMs: opts.timeoutMs ?? 15_000,
      maxBytes: MAX_BYTES,
      headers: { accept: "application/json" },
      signal: opts.signal,
      resolve: opts.resolve,
    });
  } catch (e) {
    // The URL carries the key: the message names the host only.
    throw new FactCheckToolsError(
      `Fact Check Tools could not be reached (${new URL(base).host}): ${(e as Error).message.replaceAll(cfg.apiKey, "[key]")}`,
    );
  }
  const body = await res.body();
  if (res.status === 400 || res.status === 401 || res.status === 403)
    throw new FactCheckToolsError(
      `Fact Check Tools refused the request (HTTP ${res.status}); check FACTCHECK_TOOLS_API_KEY and that the Fact Check Tools API is enabled for it`,
    );
  if (res.status !== 200)
    throw new FactCheckToolsError(`Fact Check Tools answered HTTP ${res.status}; try again later`);
  let parsed: z.infer<typeof answer>;
  try {
    parsed = answer.parse(JSON.parse(body.toString("utf8")));
  } catch {
    throw new FactCheckToolsError("Fact Check Tools answered with something that is not its JSON format");
  }
  const out: FactCheckToolsResult[] = [];
  for (const c of parsed.claims ?? []) {
    if (!c.text?.trim()) continue;
    for (const raw of c.claimReview ?? []) {
      const r = review.safeParse(raw);
      if (!r.success || !r.data.url || !httpUrl.safeParse(r.data.url).success) continue;
      out.push({
        claim: plain(c.text),
        rating: r.data.textualRating ? plain(r.data.textualRating) : null,
        publisher: r.data.publisher?.name ? plain(r.data.publisher.name) : (r.data.publisher?.site ?? null),
        url: r.data.url,
        claimDate: isoDate(c.claimDate),
        reviewDate: isoDate(r.data.reviewDate),
        title: r.data.title ? plain(r.data.title) : null,
      });
    }
  }
  return out;
}
