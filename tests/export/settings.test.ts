import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";

describe("PUBLIC_URL (formerly APP_URL) and TRUSTED_PROXIES", () => {
  it("are read and checked at start-up, naming the bad entry", () => {
    expect(
      parseConfig({ TRUSTED_PROXIES: "10.0.0.0/8, loopback", APP_URL: "https://factcheck.example.org/" }),
    ).toMatchObject({
      trustedProxies: ["10.0.0.0/8", "loopback"],
      publicUrl: "https://factcheck.example.org",
    });
    expect(parseConfig({})).toMatchObject({ trustedProxies: [], publicUrl: undefined });
    expect(() => parseConfig({ TRUSTED_PROXIES: "10.0.0.0/8, nonsense" })).toThrow(/TRUSTED_PROXIES: "nonsense"/);
    expect(() => parseConfig({ APP_URL: "javascript:alert(1)" })).toThrow(/APP_URL/);
  });

  it("PUBLIC_URL is the base of every absolute link: an origin, refused at start-up with what to write when malformed", () => {
    expect(
      parseConfig({ PUBLIC_URL: "https://factcheck.example.org/", APP_URL: "https://old.example.org" }),
    ).toMatchObject({ publicUrl: "https://factcheck.example.org" });
    expect(parseConfig({ PUBLIC_URL: "http://127.0.0.1:3100" })).toMatchObject({ publicUrl: "http://127.0.0.1:3100" });
    for (const bad of [
      "factcheck.example.org",
      "ftp://factcheck.example.org",
      "https://factcheck.example.org/app?x=1",
      "https://user:pw@factcheck.example.org",
      "http://0.0.0.0:3100",
      "https://factcheck.example.org/#top",
    ]) {
      expect(() => parseConfig({ PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL/);
    }
  });
});
