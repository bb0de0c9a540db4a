import type { LiveTurn } from "@/lib/debate/events";
import type { DebateView } from "@/lib/debate/view";

/** What DebateLive hands a protocol's own page (ZoFia, PROClaim): the stored view, the live turns and the stream's state. */
export type ProtocolPageProps = {
  view: DebateView;
  live: LiveTurn[];
  connection: "connecting" | "live" | "closed";
  canControl?: boolean;
  extra?: React.ReactNode;
};

/** Finished turns with the ones being written laid over them (several at once), so a page opened mid-step shows each once. */
export function mergeLive<T extends { seq: number; status: string; content: string }>(
  turns: DebateView["turns"],
  live: LiveTurn[],
): T[] {
  let out = turns as unknown as T[];
  for (const l of live) {
    const i = out.findIndex((t) => t.seq === l.turn.seq);
    if (i !== -1 && out[i]!.status !== "streaming") continue;
    const t = { ...(l.turn as unknown as T), content: l.text, status: "streaming" };
    out = i === -1 ? [...out, t].sort((a, b) => a.seq - b.seq) : out.map((x, j) => (j === i ? t : x));
  }
  return out;
}

/** A titled part of a protocol's page; `testId` where tests find the part itself. */
export function PageSection({
  title,
  help,
  children,
  id,
  testId,
}: {
  title: string;
  help?: string;
  children: React.ReactNode;
  id: string;
  testId?: string;
}) {
  return (
    <section aria-labelledby={`${id}-h`} className="min-w-0 space-y-2" data-testid={testId}>
      <h2 id={`${id}-h`} className="text-sm font-semibold uppercase tracking-wide text-black/60">
        {title}
      </h2>
      {help ? <p className="text-sm text-black/60">{help}</p> : null}
      {children}
    </section>
  );
}
