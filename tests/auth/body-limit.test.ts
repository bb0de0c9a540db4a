import { describe, expect, it } from "vitest";
import { bodyOverLimit, gate } from "@/lib/auth/request-gate";
import { BODY_MAX_BYTES } from "@/lib/forms/body-limit";

/*
 * Issue 33, item 3: a body over the form/API limit is answered 413 in words by the gate, before
 * Next cuts it (the proxy's copy) and fails with a 500; a body under it goes on to the action,
 * which says "over 900 KB" beside its field. Chunked bodies (no Content-Length) are counted.
 */

const MB = 1024 * 1024;

function chunked(bytes: number): ReadableStream<Uint8Array> {
  let sent = 0;
  const chunk = new Uint8Array(64 * 1024).fill(120);
  return new ReadableStream({
    pull(c) {
      if (sent >= bytes) return c.close();
      const n = Math.min(chunk.length, bytes - sent);
      c.enqueue(chunk.subarray(0, n));
      sent += n;
    },
  });
}

function post(path: string, bytes: number, how: "chunked" | "declared") {
  const headers = new Headers({ host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" });
  headers.set("content-type", "multipart/form-data; boundary=x");
  if (how === "declared") headers.set("content-length", String(bytes));
  return new Request(`http://localhost:3000${path}`, {
    method: "POST",
    headers,
    body: how === "chunked" ? chunked(bytes) : new Uint8Array(bytes),
    duplex: "half",
  } as RequestInit);
}

describe("bodies over the limit", () => {
  it("a 5 MB chunked post to a page's action is answered 413 with what to do, not passed on", async () => {
    const g = await gate(post("/check-text", 5 * MB, "chunked"));
    expect(g.outcome).toBe("refuse");
    const res = (g as { response: Response }).response;
    expect(res.status).toBe(413);
    expect(await res.text()).toMatch(/over the 2\.0 MB a form or API request here may send.*up to 900 KB/);
  });

  it("a 5 MB post to the API is a 413 in the API's error shape", async () => {
    for (const how of ["chunked", "declared"] as const) {
      const g = await gate(post("/api/v1/fact-checks", 5 * MB, how));
      const res = (g as { response: Response }).response;
      expect(res.status).toBe(413);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("payload_too_large");
      expect(body.error.message).toMatch(how === "declared" ? /The request's 5\.0 MB is over/ : /The request is over/);
    }
  });

  it("a 1.9 MB post, chunked or not, goes on to the action (which refuses the file beside its field)", async () => {
    expect(await bodyOverLimit(post("/check-text", 1.9 * MB, "chunked"))).toBe(false);
    expect(await bodyOverLimit(post("/check-text", 1.9 * MB, "declared"))).toBe(false);
    expect(await bodyOverLimit(post("/check-text", BODY_MAX_BYTES + 1, "chunked"))).toBeNull();
    expect(await bodyOverLimit(post("/check-text", BODY_MAX_BYTES + 1, "declared"))).toBe(BODY_MAX_BYTES + 1);
  });
});
