import { unsafeUniformIntDistribution } from "pure-rand";
import { extent, rng } from "./metrics";

/**
 * Which claims of a file a run uses. Without `sample`, the first `limit` in file order. `random`:
 * a seeded shuffle, then the first `limit`. `balanced`: the same number of claims per gold label
 * (limit / labels, or the smallest label's count without a limit), each label shuffled with the
 * seed, interleaved so a run cut short is still balanced. Same file + seed = same claims.
 */

export type SampleOptions = { limit?: number; sample?: "balanced" | "random"; seed?: number };

export function shuffle<T>(xs: readonly T[], seed: number): T[] {
  const out = [...xs];
  const g = rng(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = unsafeUniformIntDistribution(0, i, g);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export function selectClaims<T extends { label?: string }>(claims: readonly T[], opts: SampleOptions = {}): T[] {
  const seed = opts.seed ?? 1;
  if (!opts.sample) return opts.limit === undefined ? [...claims] : claims.slice(0, opts.limit);
  if (opts.sample === "random") {
    const s = shuffle(claims, seed);
    return opts.limit === undefined ? s : s.slice(0, opts.limit);
  }
  const byLabel = new Map<string, T[]>();
  for (const c of claims) {
    const l = c.label ?? "(none)";
    const group = byLabel.get(l);
    if (group) group.push(c);
    else byLabel.set(l, [c]);
  }
  const labels = [...byLabel.keys()].sort();
  const smallest = extent(labels.map((l) => byLabel.get(l)!.length))!.min;
  const per = opts.limit === undefined ? smallest : Math.min(smallest, Math.floor(opts.limit / labels.length));
  if (opts.limit !== undefined && per * labels.length < opts.limit && per === smallest) {
    // Asked for more than a balanced sample can give: say so rather than unbalance it.
    throw new Error(
      `a balanced sample of ${opts.limit} needs ${Math.ceil(opts.limit / labels.length)} claims per label, but "${labels.find((l) => byLabel.get(l)!.length === smallest)}" has ${smallest}`,
    );
  }
  const shuffled = labels.map((l, i) => shuffle(byLabel.get(l)!, seed + i).slice(0, per));
  const out: T[] = [];
  for (let i = 0; i < per; i++) for (const group of shuffled) out.push(group[i]!);
  return out;
}
