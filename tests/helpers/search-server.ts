import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A scripted search API on 127.0.0.1: each route answers from a script (status, headers, body
 * in the provider's real format), and every request is logged with its method, path, query,
 * headers and parsed body, so tests check what an adapter sent as well as what it made of the
 * answer. Nothing here ever talks to anything but loopback.
 */

export type ScriptedAnswer =
  | { status?: number; headers?: Record<string, string>; json: unknown }
  | { status?: number; headers?: Record<string, string>; text: string }
  /** Close the connection without an answer: a network failure as the client sees it. */
  | { hangUp: true };

export type LoggedRequest = {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: unknown;
};

type Route = (req: LoggedRequest) => ScriptedAnswer;

export type SearchServer = {
  url: string;
  requests: LoggedRequest[];
  /** `METHOD /path`; answers in order, the last one repeating. A function answers per request (canned JSON per query). */
  script(route: string, answers: ScriptedAnswer[] | Route): void;
  close(): Promise<void>;
};

export async function startSearchServer(): Promise<SearchServer> {
  const routes = new Map<string, Route>();
  const requests: LoggedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown = raw || undefined;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        // Kept as text.
      }
      const logged: LoggedRequest = {
        method: req.method ?? "",
        path: decodeURIComponent(url.pathname),
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body,
      };
      requests.push(logged);
      const route =
        routes.get(`${logged.method} ${logged.path}`) ??
        [...routes.entries()].find(
          ([k]) => k.endsWith("*") && `${logged.method} ${logged.path}`.startsWith(k.slice(0, -1)),
        )?.[1];
      const answer: ScriptedAnswer = route
        ? route(logged)
        : { status: 404, json: { error: `no script for ${logged.method} ${logged.path}` } };
      if ("hangUp" in answer) {
        req.socket.destroy();
        return;
      }
      const isJson = "json" in answer;
      const payload = isJson ? JSON.stringify(answer.json) : answer.text;
      res.writeHead(answer.status ?? 200, {
        "content-type": isJson ? "application/json" : "text/html",
        ...answer.headers,
      });
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(route, answers) {
      if (typeof answers === "function") {
        routes.set(route, answers);
        return;
      }
      let i = 0;
      routes.set(route, () => answers[Math.min(i++, answers.length - 1)]!);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// --- Each provider's documented answer format, built from a list of pages ---

export type Page = { title: string; url: string; text: string; published?: string };

/** Tavily POST /search. */
export const tavilyAnswer = (query: string, pages: Page[]) => ({
  query,
  follow_up_questions: null,
  answer: null,
  images: [],
  results: pages.map((p, i) => ({
    title: p.title,
    url: p.url,
    content: p.text,
    score: 0.9 - i * 0.1,
    raw_content: null,
    ...(p.published ? { published_date: p.published } : {}),
  })),
  response_time: 0.42,
});

/** Brave GET /res/v1/web/search (snippets carry <strong> when text_decorations is on). */
export const braveAnswer = (query: string, pages: Page[]) => ({
  type: "search",
  query: { original: query, more_results_available: false },
  mixed: { type: "mixed", main: pages.map((_, i) => ({ type: "web", index: i, all: false })) },
  web: {
    type: "search",
    family_friendly: true,
    results: pages.map((p) => ({
      type: "search_result",
      title: p.title,
      url: p.url,
      is_source_local: false,
      description: p.text,
      language: "en",
      ...(p.published ? { page_age: p.published, age: "some time ago" } : {}),
      profile: { name: new URL(p.url).hostname },
    })),
  },
});

/** SearXNG GET /search?format=json. */
export const searxAnswer = (query: string, pages: Page[]) => ({
  query,
  number_of_results: 0,
  results: pages.map((p, i) => ({
    url: p.url,
    title: p.title,
    content: p.text,
    engine: "duckduckgo",
    engines: ["duckduckgo"],
    positions: [i + 1],
    score: 1 / (i + 1),
    category: "general",
    publishedDate: p.published ?? null,
  })),
  answers: [],
  corrections: [],
  infoboxes: [],
  suggestions: [],
  unresponsive_engines: [],
});

/** MediaWiki REST GET /w/rest.php/v1/search/page. */
export const wikiSearchAnswer = (pages: Array<{ id: number; key: string; title: string }>) => ({
  pages: pages.map((p) => ({
    id: p.id,
    key: p.key,
    title: p.title,
    excerpt: `<span class="searchmatch">${p.title}</span> is a page`,
    matched_title: null,
    description: "a test page",
    thumbnail: null,
  })),
});

/** Wikimedia REST GET /api/rest_v1/page/summary/{title}. */
export const wikiSummary = (
  base: string,
  p: { id: number; key: string; title: string; extract: string; revision: string; timestamp: string },
) => ({
  type: "standard",
  title: p.title,
  displaytitle: p.title,
  pageid: p.id,
  lang: "en",
  revision: p.revision,
  tid: "00000000-0000-0000-0000-000000000000",
  timestamp: p.timestamp,
  description: "a test page",
  content_urls: { desktop: { page: `${base}/wiki/${p.key}` }, mobile: { page: `${base}/wiki/${p.key}` } },
  extract: p.extract,
  extract_html: `<p>${p.extract}</p>`,
});
