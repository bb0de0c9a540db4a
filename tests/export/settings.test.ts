import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";

describe("APP_URL and TRUSTED_PROXIES", () => {
  it("are read and checked at start-up, naming the bad entry", () => {
    expect(parseConfig({ TRUSTED_PROXIES: "10.0.0.0/8, loopback", APP_URL: "https://factcheck.example.org/" })).toMatchObject({
      trustedProxies: ["10.0.0.0/8", "loopback"],
      appUrl: "https://factcheck.example.org",
    });
    expect(parseConfig({})).toMatchObject({ trustedProxies: [], appUrl: undefined });
    expect(() => parseConfig({ TRUSTED_PROXIES: "10.0.0.0/8, nonsense" })).toThrow(/TRUSTED_PROXIES: "nonsense"/);
    expect(() => parseConfig({ APP_URL: "javascript:alert(1)" })).toThrow(/APP_URL/);
  });
});
