import ipaddr from "ipaddr.js";

/*
 * Which addresses a server-side fetch may connect to. Only ordinary public unicast addresses are
 * allowed by default: everything ipaddr.js classifies as anything else (loopback, private,
 * link-local incl. 169.254.169.254, multicast, unspecified, broadcast, carrier-grade NAT,
 * reserved, documentation, IPv4-mapped/-translated and 6to4/Teredo IPv6 forms, unique-local)
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

const HOST_NAME = /^\.?(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * Parses `host, .suffix, 10.0.0.0/8, 192.168.1.20, fd00::/8`. Throws with every entry that is
 * neither a host name nor an address or CIDR range, so a typo stops start-up instead of
 * silently allowing nothing (or everything).
 */
export function parseAllowList(raw: string): AllowList {
  const out: AllowList = { hosts: [], ranges: [] };
  const bad: string[] = [];
  for (const entry of raw.split(",").map((e) => e.trim().toLowerCase()).filter(Boolean)) {
    const bare = entry.replace(/^\[(.*)\]$/, "$1");
    if (ipaddr.isValidCIDR(bare)) out.ranges.push(ipaddr.parseCIDR(bare));
    else if (ipaddr.isValid(bare) && /^[\d.]+$|:/.test(bare)) {
      const addr = ipaddr.parse(bare);
      out.ranges.push([addr, addr.kind() === "ipv4" ? 32 : 128]);
    } else if (HOST_NAME.test(entry) && !/^\.?[\d.]+$/.test(entry)) out.hosts.push(entry.replace(/\.$/, ""));
    else bad.push(entry);
  }
  if (bad.length) throw new Error(`not a host name, address or CIDR range: ${bad.map((b) => `"${b}"`).join(", ")} (use e.g. wiki.intranet, .intranet.example, 10.0.0.0/8)`);
  return out;
}

export function hostAllowed(host: string, allow: AllowList): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  return allow.hosts.some((a) => (a.startsWith(".") ? h.endsWith(a) || h === a.slice(1) : h === a));
}

/** The address itself, IPv4-mapped IPv6 (::ffff:127.0.0.1) unwrapped to the IPv4 it stands for. */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = address.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  if (!ipaddr.isValid(bare)) return undefined;
  return ipaddr.process(bare);
}

/**
 * Null when a fetch may connect to `address`; otherwise the kind of range it is in (for logs and
 * tests, never shown to the person who asked, so the answer does not map the network).
 */
export function addressRefusal(address: string, allow: AllowList = EMPTY_ALLOW_LIST): string | null {
  const addr = parseAddress(address);
  if (!addr) return "not an address";
  if (allow.ranges.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits))) return null;
  const range = addr.range();
  return range === "unicast" ? null : range;
}

/** Whether a URL host is an address literal (then no DNS is asked). */
export function isAddressLiteral(host: string): boolean {
  return parseAddress(host) !== undefined && (/^\[.*\]$/.test(host) || /^[\d.]+$/.test(host) || host.includes(":"));
}
