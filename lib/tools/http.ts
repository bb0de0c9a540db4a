import { z } from "zod";
import { EMPTY_ALLOW_LIST, parseAllowList, type AllowList } from "@/lib/net/address-policy";
import { FetchError, safeFetch, type Resolver } from "@/lib/net/safe-fetch";
import { PROVIDER_NAMES, SearchToolError } from "./errors";
import type { SearchProviderName } from "./types";

/**
 * Every web search request goes through safeFetch (address checks on every hop), with bounded
 * retries for the failures that pass (429, 5xx, a dropped connection) and a zod check of the
 * answer: a provider's JSON is untrusted input like any other.
 */

/** The spec's "up to 2 retries": three attempts in all. */
export const MAX_RETRIES = 2;
const BASE_DELAY_MS = 1_000;
/** A provider asking us to wait longer than this is treated as down for now, not waited for. */
const MAX_WAIT_MS = 30_000;
/** Search answers are a few kilobytes; anything near this is not a search answer. */
const MAX_BYTES = 5 * 1024 ** 2;

export type HttpDeps = {
  /** FETCH_ALLOW_HOSTS; the host of an explicitly configured *_BASE_URL is added by the adapter. */
  allow?: AllowList;
  timeoutMs?: number;
  /** Replaceable in tests, so retries are checked without waiting and without timing assertions. */
  sleep?: (ms: number) => Promise<void>;
  /** DNS, replaceable in tests (see safeFetch). */
  resolve?: Resolver;
};

export type JsonRequest = {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal;
};

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** An operator who points a provider at an intranet address (a self-hosted SearXNG) has allowed that host. */
export function allowConfiguredHost(allow: AllowList | undefined, configuredBaseUrl: string | undefined): AllowList {
  const base = allow ?? EMPTY_ALLOW_LIST;
  if (!configuredBaseUrl) return base;
  const own = parseAllowList(new URL(configuredBaseUrl).hostname.replace(/^\[(.*)\]$/, "$1"));
  return { hosts: [...base.hosts, ...own.hosts], ranges: [...base.ranges, ...own.ranges] };
}

/** Seconds or an HTTP date, as RFC 9110 allows; null when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * A short, single-line excerpt of what the provider said, for the error message. Header values
 * (the API key) are blanked: some APIs echo the key they refused, and messages reach the page.
 */
function providerSays(body: Buffer, secrets: string[]): string {
  let text = body.toString("utf8");
  try {
    const json = JSON.parse(text) as unknown;
    const found = z
      .union([
        z.object({ detail: z.object({ error: z.string() }) }).transform((j) => j.detail.error),
        z.object({ detail: z.string() }).transform((j) => j.detail),
        z.object({ error: z.object({ detail: z.string() }) }).transform((j) => j.error.detail),
        z.object({ error: z.string() }).transform((j) => j.error),
        z.object({ message: z.string() }).transform((j) => j.message),
      ])
      .safeParse(json);
    if (found.success) text = found.data;
  } catch {
    // Not JSON: the raw text will do.
  }
  for (const secret of secrets) if (secret.length >= 8) text = text.split(secret).join("[key]");
  const line = text.replace(/\s+/g, " ").trim().slice(0, 200);
  return line ? `: "${line}"` : "";
}

function hintFor(provider: SearchProviderName, status: number): string {
  if (status === 401 || status === 403) {
    if (provider === "tavily") return " Check TAVILY_API_KEY.";
    if (provider === "brave") return " Check BRAVE_API_KEY.";
    if (provider === "searxng")
      return " The instance must allow the JSON format (search.formats: [html, json] in its settings.yml).";
  }
  return "";
}

/**
 * GET or POST a JSON API and validate the answer. Throws SearchToolError naming the provider:
 * `unavailable` after the retries, `rejected` at once for answers retrying cannot change.
 */
export async function requestJson<S extends z.ZodType>(
  provider: SearchProviderName,
  req: JsonRequest,
  schema: S,
  deps: HttpDeps = {},
): Promise<z.output<S>> {
  const name = PROVIDER_NAMES[provider];
  const sleep = deps.sleep ?? defaultSleep;
  const secrets = Object.values(req.headers ?? {}).flatMap((v) => [v, v.replace(/^Bearer /i, "")]);
  let lastProblem = "";
  let lastStatus: number | undefined;
  for (let attempt = 1; attempt <= MAX_RETRIES + 1; attempt++) {
    let wait = BASE_DELAY_MS * 2 ** (attempt - 1);
    try {
      const res = await safeFetch(req.url, {
        method: req.method ?? "GET",
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        headers: {
          accept: "application/json",
          ...(req.body === undefined ? {} : { "content-type": "application/json" }),
          ...req.headers,
        },
        allow: deps.allow,
        timeoutMs: deps.timeoutMs ?? 20_000,
        maxBytes: MAX_BYTES,
        maxRedirects: 3,
        signal: req.signal,
        resolve: deps.resolve,
      });
      const body = await res.body();
      if (res.status >= 200 && res.status < 300) {
        let json: unknown;
        try {
          json = JSON.parse(body.toString("utf8"));
        } catch {
          throw new SearchToolError(
            provider,
            "invalid-response",
            `${name} answered with something that is not JSON (${res.headers["content-type"] || "no content type"}); no results were used. Check the provider's address.`,
            { status: res.status, attempts: attempt },
          );
        }
        const parsed = schema.safeParse(json);
        if (!parsed.success) {
          const where = parsed.error.issues
            .slice(0, 3)
            .map((i) => `${i.path.join(".") || "(top level)"}: ${i.message}`)
            .join("; ");
          throw new SearchToolError(
            provider,
            "invalid-response",
            `${name} answered in an unexpected format (${where}); no results were used. The API may have changed, or the address points at something else.`,
            {
              status: res.status,
              attempts: attempt,
            },
          );
        }
        return parsed.data;
      }
      const status = `${res.status}${res.statusText ? ` ${res.statusText}` : ""}`;
      if (res.status === 429 || res.status >= 500) {
        lastStatus = res.status;
        lastProblem = `answered ${status}${providerSays(body, secrets)}`;
        const asked = retryAfterMs(res.headers["retry-after"]);
        if (asked !== null && asked > MAX_WAIT_MS) {
          throw new SearchToolError(
            provider,
            "unavailable",
            `${name} search failed: it ${lastProblem} and asks to wait ${Math.ceil(asked / 1000)} s before trying again. No results were used; try again later.`,
            { status: res.status, attempts: attempt },
          );
        }
        if (asked !== null) wait = Math.max(asked, 0);
      } else {
        throw new SearchToolError(
          provider,
          "rejected",
          `${name} search failed: it answered ${status}${providerSays(body, secrets)}; no results were used.${hintFor(provider, res.status)}`,
          { status: res.status, attempts: attempt },
        );
      }
    } catch (e) {
      if (e instanceof SearchToolError) throw e;
      if (!(e instanceof FetchError)) throw e;
      if (e.reason === "aborted")
        throw new SearchToolError(provider, "aborted", `${name} search was cancelled`, { attempts: attempt });
      if (e.reason === "refused-address" || e.reason === "scheme")
        throw new SearchToolError(provider, "refused", `${name} search was not sent: ${e.message}`, {
          attempts: attempt,
        });
      if (e.reason !== "unreachable" && e.reason !== "timeout" && e.reason !== "protocol") {
        throw new SearchToolError(provider, "rejected", `${name} search failed: ${e.message}`, { attempts: attempt });
      }
      // safeFetch's wording already names the host; the provider's name says enough here.
      lastProblem =
        e.reason === "timeout"
          ? `did not answer within ${(deps.timeoutMs ?? 20_000) / 1000} s`
          : e.reason === "protocol"
            ? "did not answer with valid HTTP"
            : "could not be reached";
      lastStatus = undefined;
    }
    if (attempt <= MAX_RETRIES) await sleep(wait);
  }
  throw new SearchToolError(
    provider,
    "unavailable",
    `${name} search failed after ${MAX_RETRIES + 1} attempts: it ${lastProblem}. No results were used; try again later, or set WEB_SEARCH_PROVIDER=corpus to use the offline stand-in.`,
    {
      status: lastStatus,
      attempts: MAX_RETRIES + 1,
    },
  );
}

/**
 * A result's address as the page will link it: http(s) only, so a provider (or whatever answers at
 * its address) cannot put a javascript: or data: link in front of a journalist.
 */
export const webUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) address" });

/** Plain text from the snippets providers send with <strong>, <span class="searchmatch"> and entities. */
export function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, code: string) => {
      const c = code.toLowerCase();
      const point = c.startsWith("#x") ? parseInt(c.slice(2), 16) : c.startsWith("#") ? Number(c.slice(1)) : null;
      // An out-of-range reference from an untrusted snippet stays as written rather than throwing.
      if (point !== null) return point <= 0x10ffff ? String.fromCodePoint(point) : m;
      return ({ amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " } as Record<string, string>)[c] ?? m;
    })
    .replace(/\s+/g, " ")
    .trim();
}

export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, "")}${path}`;
}
