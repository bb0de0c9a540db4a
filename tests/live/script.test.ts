import { describe, expect, it } from "vitest";
import { unreadableScript } from "@/lib/live/script";

describe("lines the English scorer cannot read", () => {
  it("names the script of a line whose letters are mostly not Latin", () => {
    expect(unreadableScript("Безработица упала до трёх процентов.")).toBe("Cyrillic");
    expect(unreadableScript("انخفضت البطالة إلى ثلاثة في المئة")).toBe("Arabic");
    expect(unreadableScript("失業率は3パーセントに下がった")).toBe("Japanese");
    expect(unreadableScript("失业率降至百分之三")).toBe("Chinese characters");
    // A Cyrillic line quoting an English name is still Cyrillic.
    expect(unreadableScript("Смит сказал: «Freedonia» — это ложь и неправда.")).toBe("Cyrillic");
  });

  it("leaves English, accented Latin, numbers and short lines to the scorer", () => {
    expect(unreadableScript("Unemployment fell to 3 percent last year.")).toBeNull();
    expect(unreadableScript("Le chômage a baissé à 3 % l'an dernier.")).toBeNull();
    expect(unreadableScript("3,000,000 — 42%")).toBeNull();
    // Too few letters to tell (a name, an interjection).
    expect(unreadableScript("Да!")).toBeNull();
    // An English line with a foreign name in it.
    expect(unreadableScript("The minister, Иванов, said unemployment fell to 3 percent.")).toBeNull();
  });
});
