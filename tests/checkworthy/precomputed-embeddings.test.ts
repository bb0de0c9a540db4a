import { describe, expect, it, vi } from "vitest";
import { ENCODER_DIM, embedSentences, SENTENCE_ENCODER } from "@/lib/checkworthy/encoder-features";
import { offlineScorer } from "@/lib/checkworthy/offline";
import { resolveProbingEmbedder } from "@/lib/embeddings/registry";

/*
 * The offline scorer takes the sentences' embeddings when its caller has them (the live desk embeds
 * a push once for scoring and matching): the same scores as embedding them itself, and no encoder call.
 */

const sentences = [
  "Unemployment fell from 7.2 percent in 2019 to 4.1 percent last year.",
  "Thank you all for coming tonight.",
  "My opponent voted against the budget three times.",
].map((text, index) => ({ index, text, speaker: null, block: 0 }));

describe("the offline scorer with embeddings given", () => {
  it("scores from the given embeddings, as it would from its own, without calling the encoder", async () => {
    const scorer = offlineScorer();
    const own = await scorer.score(sentences);
    const vectors = await embedSentences(sentences.map((s) => s.text));
    const encoder = resolveProbingEmbedder(SENTENCE_ENCODER);
    const embed = vi.spyOn(encoder, "embed");
    const embedWithProbe = vi.spyOn(encoder, "embedWithProbe");
    try {
      const given = await scorer.score(sentences, { embeddings: vectors });
      expect(given.map((s) => s.score)).toEqual(own.map((s) => s.score));
      expect(given.map((s) => s.reason)).toEqual(own.map((s) => s.reason));
      // Other vectors, other scores: the given ones are what it read.
      const zero = sentences.map(() => new Array<number>(ENCODER_DIM).fill(0));
      const fromZero = await scorer.score(sentences, { embeddings: { vectors: vectors.vectors, probe: zero } });
      expect(fromZero.map((s) => s.score)).not.toEqual(own.map((s) => s.score));
      expect(embed).not.toHaveBeenCalled();
      expect(embedWithProbe).not.toHaveBeenCalled();
      await expect(
        scorer.score(sentences, { embeddings: { vectors: vectors.vectors.slice(1), probe: vectors.probe } }),
      ).rejects.toThrow("3 sentences but 2 embeddings");
    } finally {
      embed.mockRestore();
      embedWithProbe.mockRestore();
    }
  });
});
