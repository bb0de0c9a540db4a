import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import path from "node:path";
import tls from "node:tls";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addressRefusal, parseAllowList } from "@/lib/net/address-policy";
import { checkUrl, FetchError, safeFetch, type Resolver } from "@/lib/net/safe-fetch";
import { parseConfig } from "@/lib/config";

/*
 * No test here sends a packet anywhere but 127.0.0.0/8: refusals are decided before any
 * connection, and names resolve through a stubbed resolver.
 */

const noDns: Resolver = async (host) => {
  throw Object.assign(new Error(`unexpected DNS lookup of ${host}`), { code: "ENOTFOUND" });
};
const stub =
  (table: Record<string, string[]>): Resolver =>
  async (host) => {
    const hit = table[host];
    if (!hit) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    return hit.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

async function refusedReason(url: string, resolve: Resolver = noDns) {
  try {
    await checkUrl(url, { resolve });
  } catch (e) {
    expect(e).toBeInstanceOf(FetchError);
    return { reason: (e as FetchError).reason, message: (e as FetchError).message };
  }
  return null;
}

describe("the address check", () => {
  it.each([
    ["http://127.0.0.1/", "loopback"],
    ["http://127.1.2.3:8080/", "loopback"],
    ["http://2130706433/", "decimal loopback"],
    ["http://0x7f000001/", "hex loopback"],
    ["http://0x7f.0.0.1/", "hex-dotted loopback"],
    ["http://0177.0.0.1/", "octal loopback"],
    ["http://017700000001/", "octal whole loopback"],
    ["http://0/", "unspecified"],
    ["http://0.0.0.0/", "unspecified"],
    ["http://[::1]/", "IPv6 loopback"],
    ["http://[::]/", "IPv6 unspecified"],
    ["http://[::ffff:127.0.0.1]/", "IPv4-mapped loopback"],
    ["http://[::ffff:7f00:1]/", "IPv4-mapped loopback, hex"],
    ["http://[::ffff:169.254.169.254]/", "IPv4-mapped metadata"],
    ["http://[64:ff9b::7f00:1]/", "NAT64-translated loopback"],
    ["http://[::ffff:0:7f00:1]/", "SIIT-translated loopback"],
    ["http://[2002:7f00:1::]/", "6to4 of loopback"],
    ["http://169.254.169.254/latest/meta-data/", "link-local metadata"],
    ["http://[fe80::1]/", "IPv6 link-local"],
    ["http://10.1.2.3/", "private"],
    ["http://172.16.0.1/", "private"],
    ["http://192.168.1.1/", "private"],
    ["http://[fd00::1]/", "IPv6 unique-local"],
    ["http://100.64.0.1/", "carrier-grade NAT"],
    ["http://224.0.0.1/", "multicast"],
    ["http://[ff02::1]/", "IPv6 multicast"],
    ["http://255.255.255.255/", "broadcast"],
    ["http://240.0.0.1/", "reserved"],
    ["http://192.0.2.1/", "documentation"],
  ])("refuses %s (%s) without any DNS or connection", async (url) => {
    expect(await refusedReason(url)).toMatchObject({
      reason: "refused-address",
      message: expect.stringMatching(/private or local network.*FETCH_ALLOW_HOSTS/),
    });
  });

  it.each([
    ["http://[::127.0.0.1]/", "IPv4-compatible loopback"],
    ["http://[::7f00:1]/", "IPv4-compatible loopback, hex"],
    ["http://[::10.0.0.1]/", "IPv4-compatible private"],
    ["http://[::8.8.8.8]/", "IPv4-compatible of a public address (::/96 is deprecated, never global)"],
    ["http://[::ffff:10.0.0.1]/", "IPv4-mapped private"],
    ["http://[::ffff:192.168.0.1]/", "IPv4-mapped private"],
    ["http://[64:ff9b::a00:1]/", "NAT64 of private"],
    ["http://[64:ff9b::8.8.8.8]/", "NAT64 of a public address"],
    ["http://[64:ff9b:1::a00:1]/", "local-use NAT64"],
    ["http://[2002:a00:1::1]/", "6to4 of private"],
    ["http://[2002:c0a8:101::1]/", "6to4 of private 192.168.1.1"],
    ["http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "Teredo"],
    ["http://[2001:2::1]/", "benchmarking"],
    ["http://[2001:db8::1]/", "documentation"],
    ["http://[3fff::1]/", "documentation (RFC 9637)"],
    ["http://[100::1]/", "discard-only"],
    ["http://[fec0::1]/", "site-local"],
    ["http://[::2]/", "IPv4-compatible space"],
    ["http://198.18.0.1/", "benchmarking"],
    ["http://192.0.0.8/", "IETF protocol assignments"],
    ["http://198.51.100.7/", "documentation"],
  ])("default-deny: refuses %s (%s)", async (url) => {
    expect(await refusedReason(url)).toMatchObject({ reason: "refused-address" });
  });

  it("default-deny through name resolution: a name whose answer embeds or translates a local address is refused", async () => {
    const resolve = stub({
      compat: ["::127.0.0.1"],
      nat64: ["64:ff9b::7f00:1"],
      sixtofour: ["2002:7f00:1::1"],
      teredo: ["2001:0:4136:e378:8000:63bf:3fff:fdd2"],
      fine: ["2606:4700::1111", "93.184.216.34"],
      sixtofourpublic: ["2002:5db8:d822::1"],
    });
    for (const host of ["compat", "nat64", "sixtofour", "teredo"])
      expect(await refusedReason(`http://${host}/`, resolve)).toMatchObject({ reason: "refused-address" });
    expect(await refusedReason("http://fine/", resolve)).toBeNull();
    // 6to4 of a public IPv4 address is as public as that address.
    expect(await refusedReason("http://sixtofourpublic/", resolve)).toBeNull();
    expect(addressRefusal("2a00:1450:4001:80b::200e")).toBeNull();
    expect(addressRefusal("::127.0.0.1")).not.toBeNull();
  });

  it("refuses names that resolve to a refused address, including when only one of several answers is", async () => {
    expect(await refusedReason("http://localhost/", stub({ localhost: ["127.0.0.1", "::1"] }))).toMatchObject({
      reason: "refused-address",
    });
    expect(
      await refusedReason("http://metadata.example/", stub({ "metadata.example": ["169.254.169.254"] })),
    ).toMatchObject({ reason: "refused-address" });
    expect(
      await refusedReason("http://split.example/", stub({ "split.example": ["93.184.216.34", "10.0.0.5"] })),
    ).toMatchObject({ reason: "refused-address" });
    expect(
      await refusedReason("http://mapped.example/", stub({ "mapped.example": ["::ffff:127.0.0.1"] })),
    ).toMatchObject({ reason: "refused-address" });
  });

  it("accepts public addresses and names, and says what went wrong with other schemes and unknown names", async () => {
    expect(await refusedReason("https://93.184.216.34/")).toBeNull();
    expect(await refusedReason("https://[2606:4700::1111]/")).toBeNull();
    expect(await refusedReason("https://news.example/", stub({ "news.example": ["93.184.216.34"] }))).toBeNull();
    expect(await refusedReason("file:///etc/passwd")).toMatchObject({
      reason: "scheme",
      message: expect.stringMatching(/only http:\/\/ and https:\/\//),
    });
    expect(await refusedReason("gopher://127.0.0.1/")).toMatchObject({ reason: "scheme" });
    expect(await refusedReason("http://nope.example/", stub({}))).toMatchObject({
      reason: "no-such-host",
      message: expect.stringMatching(/no such site/),
    });
  });

  it("lets an administrator allow intranet hosts and networks, and nothing else", async () => {
    const allow = parseAllowList("wiki.intranet.example, .archive.example, 10.20.0.0/16, 192.168.1.7");
    const resolve = stub({
      "wiki.intranet.example": ["10.99.0.1"],
      "old.archive.example": ["172.16.0.3"],
      "other.example": ["10.20.3.4"],
      "evil.example": ["10.21.0.1"],
    });
    await expect(checkUrl("http://wiki.intranet.example/", { allow, resolve })).resolves.toBeTruthy();
    await expect(checkUrl("http://old.archive.example/", { allow, resolve })).resolves.toBeTruthy();
    await expect(checkUrl("http://other.example/", { allow, resolve })).resolves.toBeTruthy();
    await expect(checkUrl("http://192.168.1.7/", { allow, resolve })).resolves.toBeTruthy();
    await expect(checkUrl("http://evil.example/", { allow, resolve })).rejects.toMatchObject({
      reason: "refused-address",
    });
    await expect(checkUrl("http://192.168.1.8/", { allow, resolve })).rejects.toMatchObject({
      reason: "refused-address",
    });
    expect(addressRefusal("::ffff:10.20.0.9", allow)).toBeNull();
  });

  it("validates FETCH_ALLOW_HOSTS at start-up with the bad entry named", () => {
    expect(() => parseConfig({ FETCH_ALLOW_HOSTS: "wiki.intranet, 10.0.0.0/33, bad host" })).toThrow(
      /FETCH_ALLOW_HOSTS: not a host name, address or CIDR range: "10.0.0.0\/33", "bad host"/,
    );
    expect(parseConfig({ FETCH_ALLOW_HOSTS: "wiki.intranet,10.0.0.0/8" }).fetch.allow.hosts).toEqual(["wiki.intranet"]);
    expect(parseConfig({}).fetch.allow).toEqual({ hosts: [], ranges: [] });
  });
});

describe("fetching", () => {
  // Two loopback servers on the same port: the allowed one (127.0.0.1) and one standing for an
  // internal service (127.0.0.2) that must never be read.
  let allowed: http.Server;
  let internal: http.Server;
  let port: number;
  let closedPort: number;
  const served: string[] = [];
  const allow = parseAllowList("127.0.0.1");

  beforeAll(async () => {
    allowed = http.createServer((req, res) => {
      served.push(`allowed ${req.url}`);
      const m = /^\/hop\/(\d+)$/.exec(req.url ?? "");
      if (req.url === "/page") res.writeHead(200, { "content-type": "text/plain" }).end("public page");
      else if (req.url === "/to-internal") res.writeHead(302, { location: `http://127.0.0.2:${port}/secret` }).end();
      else if (req.url === "/to-metadata")
        res.writeHead(301, { location: "http://169.254.169.254/latest/meta-data/" }).end();
      else if (req.url === "/to-localhost") res.writeHead(307, { location: `http://localhost:${port}/secret` }).end();
      else if (req.url === "/relative") res.writeHead(302, { location: "/page" }).end();
      else if (m) res.writeHead(302, { location: `/hop/${Number(m[1]) + 1}` }).end();
      else if (req.url === "/big") {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("x".repeat(5000));
      } else res.writeHead(404).end();
    });
    await new Promise<void>((r) => allowed.listen(0, "127.0.0.1", r));
    port = (allowed.address() as AddressInfo).port;
    internal = http.createServer((req, res) => {
      served.push(`internal ${req.url}`);
      res.writeHead(200, { "content-type": "text/plain" }).end("internal secret");
    });
    await new Promise<void>((r) => internal.listen(port, "127.0.0.2", r));
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
  });
  afterAll(() => {
    for (const s of [allowed, internal]) {
      s.closeAllConnections();
      s.close();
    }
  });

  it("refuses loopback that is not allow-listed, before connecting", async () => {
    served.length = 0;
    await expect(safeFetch(`http://127.0.0.1:${port}/page`, { resolve: noDns })).rejects.toMatchObject({
      reason: "refused-address",
    });
    expect(served).toEqual([]);
  });

  it("follows allowed redirects and re-checks every hop, refusing a redirect to a refused address", async () => {
    const ok = await safeFetch(`http://127.0.0.1:${port}/relative`, { allow, resolve: noDns });
    expect((await ok.body()).toString()).toBe("public page");
    expect(ok.url).toBe(`http://127.0.0.1:${port}/page`);
    served.length = 0;
    await expect(safeFetch(`http://127.0.0.1:${port}/to-internal`, { allow, resolve: noDns })).rejects.toMatchObject({
      reason: "refused-address",
    });
    await expect(safeFetch(`http://127.0.0.1:${port}/to-metadata`, { allow, resolve: noDns })).rejects.toMatchObject({
      reason: "refused-address",
    });
    await expect(
      safeFetch(`http://127.0.0.1:${port}/to-localhost`, { allow, resolve: stub({ localhost: ["::1", "127.0.0.1"] }) }),
    ).rejects.toMatchObject({ reason: "refused-address" });
    expect(served.filter((s) => s.startsWith("internal"))).toEqual([]);
  });

  it("caps redirects", async () => {
    await expect(
      safeFetch(`http://127.0.0.1:${port}/hop/0`, { allow, resolve: noDns, maxRedirects: 3 }),
    ).rejects.toMatchObject({ reason: "redirects", message: expect.stringMatching(/more than 3 redirects/) });
  });

  it("connects to the address it checked, so DNS rebinding cannot switch the target", async () => {
    // The name first resolves to the allowed address; every later answer is the internal one.
    let calls = 0;
    const rebinding: Resolver = async () => [{ address: calls++ === 0 ? "127.0.0.1" : "127.0.0.2", family: 4 }];
    served.length = 0;
    const res = await safeFetch(`http://rebind.test:${port}/page`, { allow, resolve: rebinding });
    expect((await res.body()).toString()).toBe("public page");
    expect(served).toEqual(["allowed /page"]);
    // And a name that resolves to the internal address is refused outright.
    await expect(safeFetch(`http://rebind.test:${port}/page`, { allow, resolve: rebinding })).rejects.toMatchObject({
      reason: "refused-address",
    });
  });

  it("reports the size cap instead of cutting the body", async () => {
    const res = await safeFetch(`http://127.0.0.1:${port}/big`, { allow, resolve: noDns, maxBytes: 1000 });
    await expect(res.body()).rejects.toMatchObject({
      reason: "too-large",
      message: expect.stringMatching(/over the 1000 bytes limit|more than 1000 bytes/),
    });
  });

  it("says the same thing for a closed port as for an unreachable site, in words", async () => {
    const err = (await safeFetch(`http://127.0.0.1:${closedPort}/`, { allow, resolve: noDns }).catch(
      (e) => e,
    )) as FetchError;
    expect(err).toBeInstanceOf(FetchError);
    expect(err.reason).toBe("unreachable");
    expect(err.message).toBe(
      `127.0.0.1:${closedPort}: the site could not be reached (it may be down, or the address may be wrong)`,
    );
    expect(err.message).not.toMatch(/ECONN|refused/i);
  });
});

describe("TLS", () => {
  // A self-signed certificate for news.test (tests/fixtures/tls), served on loopback.
  const fixture = (f: string) => fs.readFileSync(path.join(import.meta.dirname, "../fixtures/tls", f));
  let server: https.Server;
  let port = 0;
  const sni: string[] = [];
  beforeAll(async () => {
    const context = tls.createSecureContext({ key: fixture("key.pem"), cert: fixture("cert.pem") });
    server = https.createServer(
      {
        key: fixture("key.pem"),
        cert: fixture("cert.pem"),
        SNICallback: (name, cb) => (sni.push(name), cb(null, context)),
      },
      (_req, res) => res.end("secret"),
    );
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it("checks the certificate against the host name it was asked for, and says so in words", async () => {
    const allow = parseAllowList("127.0.0.1");
    const resolve = stub({ "other.test": ["127.0.0.1"], "news.test": ["127.0.0.1"] });
    const wrongName = (await safeFetch(`https://other.test:${port}/`, { allow, resolve }).catch(
      (e) => e,
    )) as FetchError;
    expect(wrongName).toMatchObject({
      reason: "tls",
      message: `other.test:${port}: the site's security certificate is not valid for this address, so the page was not fetched`,
    });
    expect(wrongName.message).not.toMatch(/altnames|ERR_|CERT/);
    // Connected to the checked address, yet the name sent (SNI) and verified is the host name.
    const selfSigned = (await safeFetch(`https://news.test:${port}/`, { allow, resolve }).catch(
      (e) => e,
    )) as FetchError;
    expect(selfSigned.reason).toBe("tls");
    expect(sni).toEqual(["other.test", "news.test"]);
  });
});
