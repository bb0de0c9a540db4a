import { expect, it } from "vitest";
import { sampleDocuments } from "@/lib/corpus/sample";

it("gives the demo documents no made-up source links, and says they are fictional", () => {
  for (const d of sampleDocuments()) {
    expect(d.url).toBeUndefined();
    expect(d.metadata).toMatchObject({
      fictional: true,
      source: expect.stringMatching(/fictional .* no original article/),
    });
  }
});
