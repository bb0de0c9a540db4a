import { z } from "zod";
import { safeFetch } from "@/lib/net/safe-fetch";
import { allowConfiguredHost } from "@/lib/tools/http";
import type { AllowList } from "@/lib/net/address-policy";
import { NerError, type NerProvider, type NerToken } from "./types";

/**
 * An NER endpoint that answers like Hugging Face's token-classification pipeline without
 * aggregation: [{word, entity, score, start, end}] (e.g. dslim/bert-base-NER behind a small
 * server). The operator configured the address, so its host is allowed; everything else goes
 * through the same SSRF rules as every other fetch.
 */
const answerSchema = z.array(
  z.object({
    word: z.string(),
    entity: z.string().optional(),
    entity_group: z.string().optional(),
    score: z.number().min(0).max(1),
    start: z.number().int().nonnegative(),
    end: z.number().int().nonnegative(),
  }),
);

export function httpNer(cfg: { url: string; allow?: AllowList; timeoutMs?: number }): NerProvider {
  const allow = allowConfiguredHost(cfg.allow, cfg.url);
  return {
    id: "http",
    label: `NER endpoint ${new URL(cfg.url).host}`,
    heuristic: false,
    async recognise(text, opts = {}) {
      const res = await safeFetch(cfg.url, {
        method: "POST",
        body: JSON.stringify({ inputs: text }),
        headers: { "content-type": "application/json", accept: "application/json" },
        allow,
        timeoutMs: cfg.timeoutMs ?? 60_000,
        maxBytes: 10 * 1024 ** 2,
        signal: opts.signal,
      });
      const body = (await res.body()).toString("utf8");
      if (res.status < 200 || res.status >= 300)
        throw new NerError(
          `The NER endpoint (NER_URL) answered ${res.status}; check that it is running and accepts POST {"inputs": text}.`,
        );
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        throw new NerError(
          "The NER endpoint (NER_URL) answered with something that is not JSON; it must return [{word, entity, score, start, end}].",
        );
      }
      const parsed = answerSchema.safeParse(json);
      if (!parsed.success) {
        const where = parsed.error.issues
          .slice(0, 3)
          .map((i) => `${i.path.join(".") || "(top level)"}: ${i.message}`)
          .join("; ");
        throw new NerError(
          `The NER endpoint (NER_URL) answered in an unexpected format (${where}); it must return [{word, entity, score, start, end}].`,
        );
      }
      return parsed.data.map(
        (t): NerToken => ({
          text: t.word,
          tag: t.entity ?? (t.entity_group ? `B-${t.entity_group}` : "O"),
          confidence: t.score,
          start: t.start,
          end: t.end,
        }),
      );
    },
  };
}
