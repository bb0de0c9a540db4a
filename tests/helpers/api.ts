import path from "node:path";
import { NextRequest } from "next/server";
import { routePattern } from "@/lib/api/endpoint";

/*
 * A request to /api/v1 as the server takes it: first the proxy (proxy.ts: origin check, route
 * table, API token), then, when the proxy lets it through, the route module Next would run for
 * that address (app/api/v1/.../route.ts). Nothing leaves the process.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");

type RouteModule = Record<
  string,
  (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>
>;

/** The route module for an OpenAPI path (`/api/v1/debates/{id}`). */
export async function routeModule(openApiPath: string): Promise<RouteModule> {
  return (await import(path.join(ROOT, "app", routePattern(openApiPath), "route.ts"))) as RouteModule;
}

export type ApiCall = {
  method: "GET" | "POST" | "HEAD" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";
  /** OpenAPI form with its parameters: `/api/v1/debates/{id}`. */
  path: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
};

export async function callApi(call: ApiCall): Promise<Response> {
  const filled = call.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, k: string) =>
    encodeURIComponent(call.params?.[k] ?? ""),
  );
  const url = new URL(filled, "http://127.0.0.1:3000");
  for (const [k, v] of Object.entries(call.query ?? {})) url.searchParams.set(k, v);
  const headers = new Headers(call.headers);
  if (call.token !== undefined) headers.set("authorization", `Bearer ${call.token}`);
  if (call.body !== undefined && !headers.has("content-type")) headers.set("content-type", "application/json");
  const init = {
    method: call.method,
    headers,
    body: call.body === undefined ? undefined : typeof call.body === "string" ? call.body : JSON.stringify(call.body),
  };
  const { proxy } = await import("@/proxy");
  const gateAnswer = await proxy(new NextRequest(url, init));
  if (gateAnswer.headers.get("x-middleware-next") !== "1") return gateAnswer;
  const handler = (await routeModule(call.path))[call.method];
  if (!handler) return new Response(null, { status: 405 });
  return handler(new Request(url, init), { params: Promise.resolve(call.params ?? {}) });
}

/** A server-sent event stream read to its end (or until `stop` says so): each event's name and parsed data. */
export async function readEvents(
  res: Response,
  stop: (e: { event: string; data: unknown }) => boolean = () => false,
): Promise<Array<{ event: string; data: unknown }>> {
  const out: Array<{ event: string; data: unknown }> = [];
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += value;
    let cut: number;
    while ((cut = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, cut);
      buf = buf.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (!event || data === undefined) continue;
      const e = { event, data: JSON.parse(data) as unknown };
      out.push(e);
      if (stop(e)) {
        await reader.cancel();
        return out;
      }
    }
  }
  return out;
}
