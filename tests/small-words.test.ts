import { describe, expect, it } from "vitest";
import { claimDraft, speakerName } from "@/lib/checkworthy/form";
import { claimWithClaimant } from "@/lib/fact-checks/feeds";
import { addressRefusal, parseAllowList } from "@/lib/net/address-policy";
import { listWords } from "@/lib/plural";

/* Issue 34's small things whose logic needs no server: each failed before the change. */

describe("check-text drafts a claim with the speaker's name as a person writes it", () => {
  it("a transcript's upper-case tag is not copied as it is", () => {
    expect(speakerName("MARSH")).toBe("Marsh");
    expect(speakerName("GOV. ELENA O'NEIL")).toBe("Gov. Elena O'Neil");
    expect(speakerName("Elena Marsh")).toBe("Elena Marsh");
    expect(claimDraft({ speaker: "MARSH", text: "We raised 2.4 million." })).toBe("Marsh said: We raised 2.4 million.");
  });

  it("a name set once for a speaker is used in every draft of theirs", () => {
    expect(claimDraft({ speaker: "MARSH", text: "We raised it." }, { MARSH: "Governor Elena Marsh" })).toBe(
      "Governor Elena Marsh said: We raised it.",
    );
  });
});

describe("the JSON Feed's summary", () => {
  it("does not name the claimant twice when the claim already does", () => {
    expect(claimWithClaimant("Elena Marsh", "Elena Marsh, the governor, collected 2.4 million dollars.")).toBe(
      "Elena Marsh, the governor, collected 2.4 million dollars.",
    );
    expect(claimWithClaimant("Elena Marsh", "The auction raised 2.4 million dollars.")).toBe(
      "Elena Marsh said: The auction raised 2.4 million dollars.",
    );
  });
});

describe("FETCH_ALLOW_HOSTS understands the words TRUSTED_PROXIES does", () => {
  it("loopback allows 127.0.0.0/8 and ::1 (it was a host name nobody fetches)", () => {
    const allow = parseAllowList("loopback");
    expect(allow.hosts).toEqual([]);
    expect(addressRefusal("127.0.0.1", allow)).toBeNull();
    expect(addressRefusal("::1", allow)).toBeNull();
    expect(addressRefusal("10.0.0.1", allow)).not.toBeNull();
    expect(addressRefusal("10.0.0.1", parseAllowList("uniquelocal"))).toBeNull();
  });
});

describe("a list in words", () => {
  it("reads as a sentence", () => {
    expect(listWords(["annotator", "editor"])).toBe("annotator and editor");
    expect(listWords(["a", "b", "c"])).toBe("a, b and c");
  });
});
