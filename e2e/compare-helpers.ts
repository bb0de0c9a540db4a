import type { Page } from "./fixtures";

/** What the comparison spec reads off the page (e2e/side-by-side.spec.ts). */

export type ColumnSample = { protocol: string; status: string; live: Record<string, number>; finished: string[] };

/** Every method's column: its status, the length of each turn being written, its finished turns. */
export const columns = (page: Page): Promise<ColumnSample[]> =>
  page.locator("[data-testid=compare-column]").evaluateAll((cols) =>
    cols.map((c) => ({
      protocol: c.getAttribute("data-protocol") ?? "",
      status: c.getAttribute("data-status") ?? "",
      live: Object.fromEntries(
        [...c.querySelectorAll("[data-testid=live-turn]")].map((t) => [
          t.getAttribute("data-seq") ?? "",
          Number(t.getAttribute("data-length")),
        ]),
      ),
      finished: [...c.querySelectorAll("[data-testid=finished-turn]")].map(
        (t) => `${t.getAttribute("data-seq")}|${t.textContent}`,
      ),
    })),
  );

/**
 * Watches the columns until at least `n` of them have had a turn's text grow between two looks
 * within the same `windowMs` ("at once": turns pause between calls, so the same instant is too
 * strict), while no method has finished yet. Returns the protocols seen growing; throws if a
 * method finished first or `timeoutMs` passed.
 */
export async function watchGrowing(
  page: Page,
  n: number,
  timeoutMs: number,
  { windowMs = 10_000, allowFinished = false } = {},
): Promise<string[]> {
  const seen = new Map<string, number>();
  const lastGrew = new Map<string, number>();
  const recent = () => [...lastGrew].filter(([, t]) => Date.now() - t <= windowMs).map(([p]) => p);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const cols = await columns(page);
    const done = cols.filter((c) => !["queued", "running"].includes(c.status));
    if (done.length && !allowFinished)
      throw new Error(
        `${done.map((c) => c.protocol).join(", ")} finished before ${n} methods were seen writing at once (growing: ${recent().join(", ") || "none"})`,
      );
    for (const c of cols) {
      for (const [seq, len] of Object.entries(c.live)) {
        const key = `${c.protocol}|${seq}`;
        const before = seen.get(key);
        if (before !== undefined && len > before) lastGrew.set(c.protocol, Date.now());
        seen.set(key, len);
      }
    }
    if (recent().length >= n) return recent();
    await page.waitForTimeout(150);
  }
  throw new Error(
    `at most ${recent().length} methods were seen writing at once (${[...lastGrew.keys()].join(", ")} wrote at some point)`,
  );
}
