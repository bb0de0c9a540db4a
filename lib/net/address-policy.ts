import ipaddr from "ipaddr.js";

/*
 * Which addresses a server-side fetch may connect to. Only global unicast addresses are allowed
 * by default (IPv4 unicast outside the special blocks, IPv6 in 2000::/3 outside the blocks that
 * are special, documentation, or embed or translate IPv4); everything else (loopback, private,
 * link-local incl. 169.254.169.254, multicast, unspecified, broadcast, carrier-grade NAT,
 * reserved, documentation, IPv4-compatible/-mapped/-translated, 6to4 of a local address, Teredo,
 * unique-local)
 * could reach the newsroom's own network or this server, and fetched text becomes searchable
 * evidence, so such a fetch would read internal services back to whoever asked for it.
 */

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Intranet hosts and networks an administrator allows explicitly (FETCH_ALLOW_HOSTS). */
export type AllowList = {
  /** Lower-case host names; an entry starting with "." allows every subdomain of it. */
  hosts: string[];
  /** Address ranges; a single address is a /32 or /128. */
  ranges: Range[];
};

export const EMPTY_ALLOW_LIST: AllowList = { hosts: [], ranges: [] };

/**
 * The names TRUSTED_PROXIES accepts (proxy-addr's), meaning the same ranges here, so one word means
 * one thing in both settings: `FETCH_ALLOW_HOSTS=loopback` allows 127.0.0.0/8 and ::1 instead of a
 * host named "loopback" that no fetch ever asks for.
 */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ["127.0.0.0/8", "::1/128"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

const HOST_NAME = /^\.?(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * Parses `host, .suffix, 10.0.0.0/8, 192.168.1.20, fd00::/8, loopback`. Throws with every entry that is
 * neither a host name nor an address or CIDR range, so a typo stops start-up instead of
 * silently allowing nothing (or everything).
 */
export function parseAllowList(raw: string): AllowList {
  const out: AllowList = { hosts: [], ranges: [] };
  const bad: string[] = [];
  for (const entry of raw
    .split(",")
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean)) {
    const bare = entry.replace(/^\[(.*)\]$/, "$1");
    if (NAMED_RANGES[entry]) for (const c of NAMED_RANGES[entry]) out.ranges.push(ipaddr.parseCIDR(c));
    else if (ipaddr.isValidCIDR(bare)) out.ranges.push(ipaddr.parseCIDR(bare));
    else if (ipaddr.isValid(bare) && /^[\d.]+$|:/.test(bare)) {
      const addr = ipaddr.parse(bare);
      out.ranges.push([addr, addr.kind() === "ipv4" ? 32 : 128]);
    } else if (HOST_NAME.test(entry) && !/^\.?[\d.]+$/.test(entry)) out.hosts.push(entry.replace(/\.$/, ""));
    else bad.push(entry);
  }
  if (bad.length)
    throw new Error(
      `not a host name, address or CIDR range: ${bad.map((b) => `"${b}"`).join(", ")} (use e.g. wiki.intranet, .intranet.example, 10.0.0.0/8)`,
    );
  return out;
}

export function hostAllowed(host: string, allow: AllowList): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  return allow.hosts.some((a) => (a.startsWith(".") ? h.endsWith(a) || h === a.slice(1) : h === a));
}

/** The address as written, brackets and zone removed (IPv4-mapped IPv6 stays IPv6 here). */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = address.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  if (!ipaddr.isValid(bare)) return undefined;
  return ipaddr.parse(bare);
}

/*
 * Default deny: an address is allowed only when it is positively global unicast. ipaddr.js's
 * "unicast" means "none of the ranges it knows", which let [::127.0.0.1] (::/96, IPv4-compatible)
 * through, so the classes below are ours and ipaddr.js only parses.
 */

const cidr = (c: string) => ipaddr.parseCIDR(c) as Range;

/** IPv4 blocks that are not global unicast (RFC 6890 and successors). */
const V4_DENY: Array<[string, Range]> = [
  ["unspecified", cidr("0.0.0.0/8")],
  ["private", cidr("10.0.0.0/8")],
  ["carrierGradeNat", cidr("100.64.0.0/10")],
  ["loopback", cidr("127.0.0.0/8")],
  ["linkLocal", cidr("169.254.0.0/16")],
  ["private", cidr("172.16.0.0/12")],
  ["reserved", cidr("192.0.0.0/24")],
  ["documentation", cidr("192.0.2.0/24")],
  ["reserved", cidr("192.88.99.0/24")],
  ["private", cidr("192.168.0.0/16")],
  ["benchmarking", cidr("198.18.0.0/15")],
  ["documentation", cidr("198.51.100.0/24")],
  ["documentation", cidr("203.0.113.0/24")],
  ["multicast", cidr("224.0.0.0/4")],
  ["reserved", cidr("240.0.0.0/4")],
];

/** Inside 2000::/3, the IPv6 blocks that are special, documentation, or embed/translate IPv4. */
const V6_DENY_IN_GLOBAL: Array<[string, Range]> = [
  // IETF protocol assignments, Teredo (2001::/32, which embeds an IPv4 server and client), benchmarking, ORCHID.
  ["ietfProtocol", cidr("2001::/23")],
  ["documentation", cidr("2001:db8::/32")],
  ["documentation", cidr("3fff::/20")],
  ["srv6Sids", cidr("5f00::/16")],
];
const SIX_TO_FOUR = cidr("2002::/16");
const GLOBAL_V6 = cidr("2000::/3");

function inRange(addr: ipaddr.IPv4 | ipaddr.IPv6, [net, bits]: Range) {
  return net.kind() === addr.kind() && addr.match(net, bits);
}

function v4Refusal(addr: ipaddr.IPv4): string | null {
  for (const [name, range] of V4_DENY) if (inRange(addr, range)) return name;
  return null;
}

function v6Refusal(addr: ipaddr.IPv6): string | null {
  if (!inRange(addr, GLOBAL_V6)) {
    const p = addr.parts;
    // ::/96 (IPv4-compatible), ::ffff:0:0/96 (mapped), 64:ff9b::/96 (NAT64) and the rest of the
    // space outside 2000::/3 (loopback, unique-local, link-local, multicast, ...): never global.
    if (p.slice(0, 6).every((x) => x === 0)) return "ipv4Compatible";
    return addr.range() === "unicast" ? "notGlobal" : addr.range();
  }
  for (const [name, range] of V6_DENY_IN_GLOBAL) if (inRange(addr, range)) return name;
  if (inRange(addr, SIX_TO_FOUR)) {
    // 6to4 carries the IPv4 address of its relay in bits 16-48: as safe as that address.
    const [, a, b] = addr.parts;
    const embedded = new ipaddr.IPv4([a! >> 8, a! & 255, b! >> 8, b! & 255]);
    return v4Refusal(embedded) ? "6to4" : null;
  }
  return null;
}

/**
 * Null when a fetch may connect to `address`; otherwise the kind of range it is in (for logs and
 * tests, never shown to the person who asked, so the answer does not map the network).
 */
export function addressRefusal(address: string, allow: AllowList = EMPTY_ALLOW_LIST): string | null {
  const parsed = parseAddress(address);
  if (!parsed) return "not an address";
  // An IPv4-mapped address (::ffff:a.b.c.d) is that IPv4 address to the socket: judged, and allow-listed, as it.
  const addr =
    parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
      ? (parsed as ipaddr.IPv6).toIPv4Address()
      : parsed;
  if (allow.ranges.some((r) => inRange(addr, r))) return null;
  return addr.kind() === "ipv4" ? v4Refusal(addr as ipaddr.IPv4) : v6Refusal(addr as ipaddr.IPv6);
}

/** Whether a URL host is an address literal (then no DNS is asked). */
export function isAddressLiteral(host: string): boolean {
  return parseAddress(host) !== undefined && (/^\[.*\]$/.test(host) || /^[\d.]+$/.test(host) || host.includes(":"));
}
