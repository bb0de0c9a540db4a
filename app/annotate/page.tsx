import Link from "next/link";
import { Section } from "@/components/ui/section";
import { FilterSelect } from "@/components/ui/filter-select";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { debateVisibility, viewerPolicyFrom } from "@/lib/auth/visibility";
import {
  annotationFilterOptions,
  assignmentOf,
  auditTrail,
  claimNextTask,
  claimTask,
  latestOwnAnnotation,
  myRecentAnnotations,
  peekNextTask,
  queueSummary,
  taskContext,
  type QueueFilters,
} from "@/db/queries/annotations";
import { visibleAnnotations } from "@/lib/auth/visibility";
import { getSettings } from "@/db/queries/settings";
import { judgeParts, withoutJudge } from "@/lib/annotation/judge-reveal";
import { plural } from "@/lib/plural";
import { SkipNotice } from "@/components/annotation/skip-notice";
import { debateView } from "@/lib/debate/view";
import { verdictInWords } from "@/lib/debate/methods";
import { pagePermission } from "@/lib/auth/server";
import { AnnotateTask } from "@/components/annotation/annotate-task";
import { Guidelines } from "@/components/annotation/guidelines";

export const dynamic = "force-dynamic";
export const metadata = { title: "Annotate" };

type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;

function href(f: QueueFilters, extra: Record<string, string> = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...f, ...extra })) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `/annotate?${s}` : "/annotate";
}

type Snapshot = {
  version?: number;
  goldLabel?: string;
  judgeCorrect?: boolean | null;
  rationale?: string | null;
} | null;
/** A gold label is on the product's scale: said in its words by the one rule, never as a code. */
const goldWords = (label: string | null | undefined) => (label ? verdictInWords("", label).head : "—");
const summary = (v: Snapshot) =>
  v
    ? `${v.goldLabel ? goldWords(v.goldLabel) : "?"}${v.judgeCorrect === true ? ", judge right" : v.judgeCorrect === false ? ", judge wrong" : ""}${v.rationale ? ` — “${v.rationale.slice(0, 80)}”` : ""}`
    : "—";

export default async function AnnotatePage({ searchParams }: { searchParams: Promise<Search> }) {
  const sp = await searchParams;
  const filters: QueueFilters = {
    corpus: one(sp.corpus),
    verdict: one(sp.verdict),
    variant: one(sp.variant),
    run: one(sp.run),
  };
  const me = await pagePermission("annotate", href(filters));
  const { db } = await getDb();
  const requested = one(sp.debate);
  let debateId: string | null;
  if (requested) {
    // A named debate (the prefetched next one, or an earlier label to edit) opens only within the queue's rules.
    if (!/^[0-9a-f-]{36}$/i.test(requested) || !(await claimTask(db, me.id, requested, filters)))
      redirect(href(filters));
    debateId = requested;
  } else {
    debateId = await claimNextTask(db, me.id, filters);
  }
  const [options, settings, queue, recent] = await Promise.all([
    annotationFilterOptions(db),
    getSettings(db),
    queueSummary(db, me.id, filters),
    myRecentAnnotations(db, me.id, 10),
  ]);
  const guidelines = settings.annotation_guidelines;
  const skippedId = one(sp.skipped);
  // Offered only for the caller's own skip: the id in the address names nothing else.
  const skipped =
    skippedId && /^[0-9a-f-]{36}$/i.test(skippedId) && (await assignmentOf(db, skippedId, me.id))?.status === "skipped"
      ? await debateView(db, skippedId)
      : null;
  const savedId = one(sp.saved);
  const saved = savedId ? recent.find((r) => r.debateId === savedId) : undefined;

  const view = debateId ? await debateView(db, debateId) : null;
  const [ctx, previous, trail, others, nextId] = debateId
    ? await Promise.all([
        taskContext(db, debateId),
        latestOwnAnnotation(db, debateId, me.id),
        auditTrail(db, debateId, me.id),
        visibleAnnotations(db, me, debateId),
        peekNextTask(db, me.id, filters),
      ])
    : [null, null, [], [], null];
  // Never sent before the annotator's own label exists, whatever the blind setting says.
  const othersShown = previous ? others.filter((a) => a.annotatorId !== me.id) : [];
  // The judge's opinion is left out of what is sent until the annotator's own label exists, unless an
  // admin chose otherwise: the visibility policy, for someone labelling this debate now.
  const judgeUpfront =
    !!view && debateVisibility({ ...viewerPolicyFrom(me, settings), labelling: true }, !!previous).verdict;

  const select = (name: keyof QueueFilters, label: string, values: Array<{ value: string; label: string }>) => (
    <FilterSelect
      name={name}
      label={label}
      value={filters[name]}
      options={values.map((v) => [v.value, v.label] as const)}
    />
  );
  const plain = (xs: string[]) => xs.map((x) => ({ value: x, label: x }));

  return (
    <div className={`space-y-6 ${view ? "pb-40 lg:pb-0" : ""}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Annotate</h1>
        <p className="text-sm text-black/60" data-testid="queue-summary">
          {plural(queue.forMe, "debate")} for you · {queue.open} of {queue.eligible} still need labels from someone ·{" "}
          {queue.overlap} annotators each · you have labelled {queue.submittedByMe}
          {queue.skippedByMe ? ` and skipped ${queue.skippedByMe}` : ""}
        </p>
      </div>
      {skipped ? (
        <SkipNotice debateId={skipped.id} claim={skipped.claim.text} href={href(filters, { debate: skipped.id })} />
      ) : null}
      {/* Folded while a task is open, so the task (and its label form) starts near the top of the screen. */}
      <details
        className="rounded-lg border border-black/10 bg-white"
        open={!view || Object.values(filters).some(Boolean)}
      >
        <summary className="cursor-pointer px-3 py-2 text-sm font-medium">
          Filter the queue{Object.values(filters).some(Boolean) ? " (filtered)" : ""}
        </summary>
        <form
          className="flex flex-wrap items-end gap-3 border-t border-black/10 p-3"
          role="search"
          aria-label="Queue filters"
        >
          {select("corpus", "Corpus", plain(options.corpora))}
          {select("verdict", "Judge's verdict", plain(["TRUE", "HALF-TRUE", "FALSE", "UNPARSED"]))}
          {select("variant", "Variant", plain(options.variants))}
          {select(
            "run",
            "Evaluation run",
            options.runs.map((r) => ({ value: r.id, label: r.name })),
          )}
          <button className="rounded-md border border-black/20 px-3 py-1.5 text-sm">Filter</button>
        </form>
      </details>
      {saved ? (
        <p role="status" className="rounded-md bg-emerald-50 p-2 text-sm text-emerald-900" data-testid="saved-notice">
          Saved your label {goldWords(saved.goldLabel)} (version {saved.version}) for “{saved.claim.slice(0, 80)}”.
        </p>
      ) : null}

      <div className="grid gap-6">
        <div className="min-w-0 space-y-6">
          {view && ctx ? (
            <>
              <AnnotateTask
                key={`${view.id}:${previous?.version ?? 0}`}
                view={judgeUpfront ? view : withoutJudge(view)}
                judge={judgeUpfront ? judgeParts(view) : null}
                guidelines={<Guidelines source={guidelines} />}
                userId={me.id}
                dataset={ctx.dataset}
                nativeLabels={ctx.nativeLabels}
                turnIds={ctx.turnIds}
                previous={
                  previous
                    ? {
                        version: previous.version,
                        goldLabel: previous.goldLabel ?? "",
                        nativeLabel: previous.nativeLabel,
                        judgeCorrect: previous.judgeCorrect,
                        rationale: previous.rationale,
                        turnFlags: previous.turnFlags ?? [],
                        evidenceFlags: previous.evidenceFlags ?? [],
                      }
                    : null
                }
                nextHref={nextId ? href(filters, { debate: nextId }) : href(filters)}
              />
              {trail.length ? (
                <Section id="history" title="Your versions" className="space-y-2">
                  <ol className="space-y-1 text-sm" data-testid="version-history">
                    {trail.map((t) => (
                      <li key={t.audit.id} className="rounded-md border border-black/10 bg-white p-2">
                        <span className="font-medium">{t.audit.action}</span> by {t.email ?? "a deleted account"} at{" "}
                        {t.audit.createdAt.toISOString().replace("T", " ").slice(0, 19)} UTC:{" "}
                        {summary(t.audit.oldValue as Snapshot)} → {summary(t.audit.newValue as Snapshot)}
                      </li>
                    ))}
                  </ol>
                </Section>
              ) : null}
              {othersShown.length ? (
                <Section id="others" title="Other annotators" className="space-y-2">
                  <ul className="text-sm" data-testid="other-labels">
                    {othersShown.map((a) => (
                      <li key={a.id}>
                        {a.annotatorEmail}: {goldWords(a.goldLabel)}
                      </li>
                    ))}
                  </ul>
                </Section>
              ) : null}
            </>
          ) : (
            <div className="rounded-lg border border-black/10 bg-white p-6" data-testid="queue-empty">
              <p className="font-medium">
                Nothing left for you to label{Object.values(filters).some(Boolean) ? " with these filters" : ""}.
              </p>
              <p className="text-sm text-black/60">
                {queue.open
                  ? `${plural(queue.open, "debate")} still ${queue.open === 1 ? "needs" : "need"} labels, from annotators who have not seen ${queue.open === 1 ? "it" : "them"} yet${queue.skippedByMe ? `; you skipped ${queue.skippedByMe}` : ""}. `
                  : ""}
                Finished debates join the queue as they complete; debates that already have {queue.overlap} annotators
                are not offered again.
              </p>
            </div>
          )}
          {recent.length ? (
            <section aria-labelledby="recent" className="space-y-2">
              <h2 id="recent" className="text-lg font-semibold">
                Your recent labels
              </h2>
              <ul
                className="divide-y divide-black/10 rounded-lg border border-black/10 bg-white text-sm"
                data-testid="recent-labels"
              >
                {recent.map((r) => (
                  <li key={r.debateId} className="flex flex-wrap items-baseline gap-3 p-2">
                    <span className="font-semibold">{goldWords(r.goldLabel)}</span>
                    <span className="min-w-0 flex-1 break-words">{r.claim}</span>
                    <span className="text-xs text-black/60">v{r.version}</span>
                    <Link className="underline" href={href(filters, { debate: r.debateId })}>
                      Edit
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </div>
      </div>
    </div>
  );
}
