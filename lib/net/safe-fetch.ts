import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import zlib from "node:zlib";
import { addressRefusal, EMPTY_ALLOW_LIST, hostAllowed, isAddressLiteral, type AllowList } from "./address-policy";

/*
 * The one way the product fetches a URL it was given (documents to ingest now; articles and
 * tool results later). Every hop is checked after DNS resolution, and the connection goes to the
 * very address that was checked (a `lookup` that answers with it), so a name that resolves to a
 * public address for the check and to 127.0.0.1 a moment later (DNS rebinding) cannot switch
 * the target. TLS still verifies the certificate against the host name.
 */

export type ResolvedAddress = { address: string; family: 4 | 6 };
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (host) => {
  const all = await dns.promises.lookup(host, { all: true, verbatim: true });
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export type SafeFetchOptions = {
  /** Hosts and networks an administrator allowed (FETCH_ALLOW_HOSTS); default: none. */
  allow?: AllowList;
  /** Whole fetch, redirects and body included; default 30 s. */
  timeoutMs?: number;
  /** Body size cap, counted on the decoded bytes; default 50 MiB. */
  maxBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  headers?: Record<string, string>;
  /** Default GET. A POST body is sent on the first hop only: redirects continue as GET (303 semantics). */
  method?: "GET" | "POST";
  body?: string;
  signal?: AbortSignal;
  /** DNS, replaceable in tests so they never send traffic anywhere but loopback. */
  resolve?: Resolver;
};

export type FetchFailure =
  | "scheme"
  | "refused-address"
  | "no-such-host"
  | "unreachable"
  | "timeout"
  | "tls"
  | "redirects"
  | "too-large"
  | "protocol"
  | "aborted";

/** A fetch that did not produce an answer, with a reason a journalist can act on. */
export class FetchError extends Error {
  constructor(
    readonly url: string,
    readonly reason: FetchFailure,
    message: string,
    /** For server logs only: the underlying code or range, never shown to the person who asked. */
    readonly detail?: string,
  ) {
    super(message);
    this.name = "FetchError";
  }
}

export type SafeResponse = {
  status: number;
  statusText: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The address after redirects. */
  url: string;
  /** Reads the body up to the cap; over the cap it throws a FetchError("too-large"). */
  body(): Promise<Buffer>;
  /** The body chunk by chunk as it arrives (a download writing to disk), with the same cap and errors. */
  stream(): AsyncGenerator<Buffer>;
  /** Drops the body unread. */
  cancel(): void;
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function mib(n: number) {
  return n >= 1024 ** 2 ? `${Math.round((n / 1024 ** 2) * 10) / 10} MiB` : `${n} bytes`;
}

/** Checks a URL's scheme and every address its host resolves to; returns the address to connect to. */
export async function checkUrl(
  raw: string,
  opts: Pick<SafeFetchOptions, "allow" | "resolve"> = {},
): Promise<{ url: URL; address: ResolvedAddress }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchError(raw, "scheme", `${raw} is not a web address`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new FetchError(raw, "scheme", `${raw}: only http:// and https:// addresses can be fetched`);
  if (url.username || url.password)
    throw new FetchError(raw, "scheme", `${raw}: addresses with a user name or password cannot be fetched`);
  const allow = opts.allow ?? EMPTY_ALLOW_LIST;
  // WHATWG URL parsing already turned 2130706433, 0x7f000001, 0177.0.0.1 and 0 into dotted form.
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const refused = (range: string) =>
    new FetchError(
      raw,
      "refused-address",
      `${url.host} is on a private or local network (or this server itself), which is not fetched for safety. An administrator can allow intranet hosts with FETCH_ALLOW_HOSTS.`,
      range,
    );
  let addresses: ResolvedAddress[];
  if (isAddressLiteral(host)) {
    addresses = [{ address: host, family: host.includes(":") ? 6 : 4 }];
  } else {
    try {
      addresses = await (opts.resolve ?? systemResolver)(host);
    } catch (e) {
      throw new FetchError(
        raw,
        "no-such-host",
        `${url.host}: no such site (the name does not resolve); check the address for typos`,
        (e as NodeJS.ErrnoException).code,
      );
    }
    if (addresses.length === 0)
      throw new FetchError(
        raw,
        "no-such-host",
        `${url.host}: no such site (the name does not resolve); check the address for typos`,
      );
  }
  const byName = !isAddressLiteral(host) && hostAllowed(host, allow);
  // Every answer is checked, not only the first: a name may list a public and a private address.
  for (const a of addresses) {
    const why = byName ? null : addressRefusal(a.address, allow);
    if (why) throw refused(why);
  }
  return { url, address: addresses[0]! };
}

/** Network-level failures all read the same, so the answer cannot tell an open port from a closed one. */
function networkError(url: string, host: string, e: NodeJS.ErrnoException): FetchError {
  const code = e.code ?? "";
  if (
    /^(CERT_|ERR_TLS_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_SSL)/.test(code) ||
    /certificate|altnames/i.test(e.message)
  ) {
    return new FetchError(
      url,
      "tls",
      `${host}: the site's security certificate is not valid for this address, so the page was not fetched`,
      code || e.message,
    );
  }
  if (code === "HPE_INVALID_CONSTANT" || code.startsWith("HPE_") || code === "ERR_INVALID_HTTP_RESPONSE") {
    return new FetchError(url, "protocol", `${host}: the site did not answer with a valid web page`, code);
  }
  return new FetchError(
    url,
    "unreachable",
    `${host}: the site could not be reached (it may be down, or the address may be wrong)`,
    code || e.message,
  );
}

function requestOnce(
  url: URL,
  address: ResolvedAddress,
  opts: SafeFetchOptions,
  signal: AbortSignal,
): Promise<http.IncomingMessage> {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    // Node asks for all addresses when it tries IPv4 and IPv6 in parallel (autoSelectFamily).
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [address]);
    else callback(null, address.address, address.family);
  };
  const mod = url.protocol === "https:" ? https : http;
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return new Promise((resolve, reject) => {
    const req = mod.request(
      {
        protocol: url.protocol,
        host,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: opts.method ?? "GET",
        headers: {
          "accept-encoding": "gzip, deflate, br",
          "user-agent": "Counterpoint/1 (+fact-checking)",
          ...opts.headers,
        },
        lookup,
        // Certificate and SNI checks stay on the host name, not the address connected to.
        ...(url.protocol === "https:" && !isAddressLiteral(host) ? { servername: host } : {}),
        agent: false,
        signal,
      },
      resolve,
    );
    req.on("error", reject);
    req.end(opts.method === "POST" ? opts.body : undefined);
  });
}

function decoded(res: http.IncomingMessage): NodeJS.ReadableStream {
  switch ((res.headers["content-encoding"] ?? "").toLowerCase().trim()) {
    case "gzip":
    case "x-gzip":
      return res.pipe(zlib.createGunzip());
    case "deflate":
      return res.pipe(zlib.createInflate());
    case "br":
      return res.pipe(zlib.createBrotliDecompress());
    default:
      return res;
  }
}

/**
 * GET with the address checks, manual redirects (each hop re-checked), one deadline for the
 * whole exchange and a reported size cap. Non-2xx answers are returned, not thrown; the caller
 * decides what a 404 means.
 */
export async function safeFetch(raw: string, opts: SafeFetchOptions = {}): Promise<SafeResponse> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const maxBytes = opts.maxBytes ?? 50 * 1024 ** 2;
  const maxRedirects = opts.maxRedirects ?? 5;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = opts.signal ? AbortSignal.any([deadline, opts.signal]) : deadline;
  const timedOut = (url: string, host: string) =>
    opts.signal?.aborted
      ? new FetchError(url, "aborted", `${host}: the fetch was cancelled`)
      : new FetchError(
          url,
          "timeout",
          `${host}: the site could not be reached (no complete answer within ${timeoutMs / 1000} s)`,
          "timeout",
        );

  let current = raw;
  for (let hop = 0; ; hop++) {
    const { url, address } = await checkUrl(current, opts);
    if (opts.signal?.aborted) throw timedOut(current, url.host);
    let res: http.IncomingMessage;
    try {
      res = await requestOnce(url, address, opts, signal);
    } catch (e) {
      // No answer in time reads like a refused connection: a filtered port must look like a closed one.
      if (opts.signal?.aborted) throw timedOut(current, url.host);
      if (signal.aborted)
        throw new FetchError(
          current,
          "unreachable",
          `${url.host}: the site could not be reached (it may be down, or the address may be wrong)`,
          "timeout",
        );
      throw networkError(current, url.host, e as NodeJS.ErrnoException);
    }
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (REDIRECTS.has(status) && location) {
      res.resume();
      res.destroy();
      opts = { ...opts, method: "GET", body: undefined };
      if (hop >= maxRedirects)
        throw new FetchError(
          raw,
          "redirects",
          `${new URL(raw).host}: more than ${maxRedirects} redirects; open the page in a browser and paste its final address`,
        );
      try {
        current = new URL(location, url).toString();
      } catch {
        throw new FetchError(raw, "protocol", `${url.host}: redirected to an address that is not valid`);
      }
      continue;
    }
    const headers = Object.fromEntries(
      Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]),
    );
    const finalUrl = url.toString();
    /** The body as it arrives, counted against the cap (the header can lie or be absent, and compressed bodies grow). */
    async function* readBody(afterLimit: string): AsyncGenerator<Buffer> {
      let size = 0;
      try {
        for await (const chunk of decoded(res) as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > maxBytes) {
            res.destroy();
            throw new FetchError(
              finalUrl,
              "too-large",
              `${url.host}: the file is more than ${mib(maxBytes)}, over the limit for downloads${afterLimit}`,
            );
          }
          yield chunk;
        }
      } catch (e) {
        if (e instanceof FetchError) throw e;
        if (signal.aborted) throw timedOut(finalUrl, url.host);
        throw new FetchError(
          finalUrl,
          "unreachable",
          `${url.host}: the download broke off before it was complete`,
          (e as NodeJS.ErrnoException).code,
        );
      }
    }
    return {
      status,
      statusText: res.statusMessage ?? "",
      headers,
      url: finalUrl,
      cancel: () => res.destroy(),
      stream: () => readBody(""),
      async body() {
        const declared = Number(headers["content-length"]);
        if (!headers["content-encoding"] && declared > maxBytes) {
          res.destroy();
          throw new FetchError(
            finalUrl,
            "too-large",
            `${url.host}: the file is ${mib(declared)}, over the ${mib(maxBytes)} limit for downloads; nothing was stored`,
          );
        }
        const chunks: Buffer[] = [];
        for await (const chunk of readBody("; nothing was stored")) chunks.push(chunk);
        return Buffer.concat(chunks);
      },
    };
  }
}
