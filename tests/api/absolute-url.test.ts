import { afterEach, describe, expect, it, vi } from "vitest";
import { apiUrl, withRequestOrigin } from "@/lib/api/absolute-url";
import { PEER_HEADER } from "@/lib/auth/client-ip";
import { resetConfigForTests } from "@/lib/config";

/*
 * The base of every URL the API answers: PUBLIC_URL, else the request's origin as the trusted-proxy
 * rules allow (lib/net/public-url.ts), else the path as it is.
 */

const request = (headers: Record<string, string>) => ({
  headers: new Headers(headers),
  url: "http://0.0.0.0:3100/api/v1/debates",
});
const inRequest = (headers: Record<string, string>, path: string | null) =>
  withRequestOrigin(request(headers), async () => apiUrl(path));

function env(vars: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(vars)) vi.stubEnv(k, v);
  resetConfigForTests();
}
afterEach(() => {
  vi.unstubAllEnvs();
  resetConfigForTests();
});

describe("the API's absolute URLs", () => {
  it("are on PUBLIC_URL when it is set, whatever the request's headers say", async () => {
    env({ PUBLIC_URL: "https://cp.newsroom.example", TRUSTED_PROXIES: "" });
    const forged = { host: "forged.example", "x-forwarded-host": "forged.example" };
    expect(await inRequest(forged, "/api/v1/debates?cursor=x")).toBe(
      "https://cp.newsroom.example/api/v1/debates?cursor=x",
    );
    // Already absolute (a source's own URL) or absent: left as it is.
    expect(await inRequest(forged, "https://elsewhere.example/a")).toBe("https://elsewhere.example/a");
    expect(await inRequest(forged, null)).toBeNull();
    // Outside a request there is no origin to use.
    expect(apiUrl("/api/v1/debates")).toBe("/api/v1/debates");
  });

  it("take X-Forwarded-Host only from a trusted proxy in production, and stay paths without an origin", async () => {
    env({ PUBLIC_URL: undefined, APP_URL: undefined, NODE_ENV: "production", TRUSTED_PROXIES: "10.0.0.1" });
    const forwarded = {
      host: "internal:3000",
      "x-forwarded-host": "cp.newsroom.example",
      "x-forwarded-proto": "https",
    };
    expect(await inRequest({ ...forwarded, [PEER_HEADER]: "10.0.0.1" }, "/api/v1/debates/1")).toBe(
      "https://cp.newsroom.example/api/v1/debates/1",
    );
    // The same headers from any other peer build nothing: a relative path, not a forged host.
    expect(await inRequest({ ...forwarded, [PEER_HEADER]: "203.0.113.9" }, "/api/v1/debates/1")).toBe(
      "/api/v1/debates/1",
    );
  });
});
