import type { ProductLabel } from "@/lib/debate/types";
import type { Agreement } from "./types";

/**
 * Who agrees with whom, on the product's scale: methods grouped by the label they reached, the
 * largest group first; methods without a usable verdict (still running, failed, "not enough
 * information") are their own group, last. Pure.
 */
export function agreementOf(members: readonly { protocol: string; productLabel: ProductLabel | null }[]): Agreement {
  const groups: Agreement["groups"] = [];
  for (const m of members) {
    let g = groups.find((x) => x.productLabel === m.productLabel);
    if (!g) groups.push((g = { productLabel: m.productLabel, protocols: [] }));
    g.protocols.push(m.protocol);
  }
  // Stable sort: equal-sized groups keep the order the methods were asked for.
  groups.sort(
    (a, b) =>
      (a.productLabel === null ? 1 : 0) - (b.productLabel === null ? 1 : 0) || b.protocols.length - a.protocols.length,
  );
  const allAgree = members.length > 1 && groups.length === 1 && groups[0]!.productLabel !== null;
  return { allAgree, groups };
}

/** Pairs of methods that reached the same usable label, e.g. for "RADAR agrees with PROClaim". */
export function agreeingPairs(
  members: readonly { protocol: string; productLabel: ProductLabel | null }[],
): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < members.length; i++)
    for (let j = i + 1; j < members.length; j++)
      if (members[i]!.productLabel !== null && members[i]!.productLabel === members[j]!.productLabel)
        pairs.push([members[i]!.protocol, members[j]!.protocol]);
  return pairs;
}
