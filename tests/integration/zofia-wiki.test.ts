import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestRecords } from "@/lib/corpus/ingest";
import { wikiProviderFor } from "@/lib/tools/wiki";
import { fakeEmbedder } from "../helpers/fake-embedder";
import { freshDatabase } from "./test-db";

/** WIKI_PROVIDER=corpus: an encyclopedia kept as a corpus, its documents' titles the entries. */

let h: Awaited<ReturnType<typeof freshDatabase>>;

beforeAll(async () => {
  h = await freshDatabase();
  await ingestRecords(
    h.db,
    [
      {
        kind: "document",
        document: {
          id: "ew",
          title: "Elizabeth Warren",
          text: "Elizabeth Warren is an American politician. She is a senator from Massachusetts. She taught law. She ran for president.",
        },
      },
      {
        kind: "document",
        document: {
          id: "wc",
          title: "Warren (comics)",
          text: "Warren is a fictional character in comics. He first appeared in 1970.",
        },
      },
      {
        kind: "document",
        document: { id: "nb", title: "Nairobi", text: "Nairobi is the capital of Kenya, where Warren once spoke." },
      },
    ],
    { corpus: "encyclo", embedder: fakeEmbedder(), source: "t", kind: "records" },
  );
});
afterAll(async () => {
  await h?.close();
});

describe("encyclopedia corpus", () => {
  it("lists the entries whose title holds the keyword, described by their first sentence, and gives the chosen entry's text", async () => {
    const wiki = wikiProviderFor("corpus", { corpus: "encyclo", db: h.db })!;
    expect(wiki).toMatchObject({ id: "corpus", live: false, label: 'encyclopedia corpus "encyclo"' });
    const senses = await wiki.candidates("Warren");
    // Nairobi mentions Warren in its text, but its title is not a sense of "Warren".
    expect(senses.map((s) => s.title).sort()).toEqual(["Elizabeth Warren", "Warren (comics)"]);
    expect(senses.find((s) => s.title === "Elizabeth Warren")!.description).toBe(
      "Elizabeth Warren is an American politician.",
    );
    const summary = await wiki.summary(senses.find((s) => s.title === "Warren (comics)")!);
    expect(summary.extract).toBe("Warren is a fictional character in comics. He first appeared in 1970.");
    // A fresh provider (a resumed debate) finds the entry's text again from its title.
    const again = await wikiProviderFor("corpus", { corpus: "encyclo", db: h.db })!.summary(
      senses.find((s) => s.title === "Elizabeth Warren")!,
    );
    expect(again.extract).toMatch(/^Elizabeth Warren is an American politician\./);
    expect(await wiki.candidates("Atlantis")).toEqual([]);
  });

  it("without WIKI_CORPUS the choice is refused in words; `none` builds nothing", () => {
    expect(() => wikiProviderFor("corpus", {})).toThrow(/WIKI_CORPUS is not set/);
    expect(wikiProviderFor("none", {})).toBeNull();
  });
});
