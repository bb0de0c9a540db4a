import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { NextRequest } from "next/server";
import { ENDPOINTS } from "@/lib/api/v1";
import { routeModule } from "./api";

/*
 * The API on a real HTTP port on 127.0.0.1, for clients nobody here wrote (openapi-fetch, the
 * `eventsource` package) to talk to as they would to the app: each request goes through the proxy
 * (proxy.ts) and then the route module Next would run for its address, with streamed answers
 * streamed and a client that hangs up cancelling the request. No Next server or build is needed.
 */

const ROUTES = [...new Set(ENDPOINTS.map((e) => e.path))].map((path) => {
  const names: string[] = [];
  const re = new RegExp(
    `^${path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, n: string) => {
      names.push(n);
      return "([^/]+)";
    })}$`,
  );
  return { path, re, names };
});

async function dispatch(request: NextRequest): Promise<Response> {
  const url = new URL(request.url);
  const route = ROUTES.find((r) => r.re.test(url.pathname));
  if (!route) return Response.json({ error: { code: "not_found", message: "no such address" } }, { status: 404 });
  const m = route.re.exec(url.pathname)!;
  const params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]));
  const { proxy } = await import("@/proxy");
  const gate = await proxy(request);
  if (gate.headers.get("x-middleware-next") !== "1") return gate;
  const handler = (await routeModule(route.path))[request.method];
  if (!handler) return new Response(null, { status: 405 });
  return handler(request, { params: Promise.resolve(params) });
}

export async function serveApiOnLoopback(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const aborted = new AbortController();
    res.on("close", () => aborted.abort());
    try {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
      const body = chunks.length && req.method !== "GET" && req.method !== "HEAD" ? Buffer.concat(chunks) : undefined;
      const answer = await dispatch(
        new NextRequest(url, { method: req.method, headers, body, signal: aborted.signal }),
      );
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      if (!answer.body) return void res.end();
      Readable.fromWeb(answer.body as import("node:stream/web").ReadableStream).pipe(res);
    } catch (e) {
      res.writeHead(500, { "content-type": "text/plain" }).end(String(e));
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
