import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openSource } from "@/lib/corpus/formats";
import { parseAllowList } from "@/lib/net/address-policy";
import type { SourceRecord } from "@/lib/corpus/types";

// 17 MiB, just over html-to-text's default input limit (16 MiB), with a marker at the very end.
const para = "<p>The committee met again and discussed the harbour plans at length.</p>\n";
const page = `<html><head><title>Minutes</title></head><body>${para.repeat(Math.ceil((17 * 1024 * 1024) / para.length))}<p>FINAL-MARKER closing paragraph.</p></body></html>`;

let server: http.Server;
let base = "";
beforeAll(async () => {
  server = http.createServer((_req, res) =>
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page),
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

it("reads a page over 16 MiB to its end, and parses it without blocking the server", async () => {
  // The download is complete when openSource returns; what follows is only the parse.
  const opened = await openSource(`${base}/minutes.html`, { allow: parseAllowList("127.0.0.1") });
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  const records: SourceRecord[] = [];
  try {
    for await (const r of opened.records()) records.push(r);
  } finally {
    clearInterval(timer);
  }
  const doc = records[0];
  expect(doc?.kind).toBe("document");
  const text = (doc as Extract<SourceRecord, { kind: "document" }>).document.text;
  expect(text.trimEnd().endsWith("FINAL-MARKER closing paragraph.")).toBe(true);
  // A parse on the main thread lets no timer run until it is done (health checks waited 8.6 s).
  expect(ticks).toBeGreaterThan(0);
}, 180_000);
