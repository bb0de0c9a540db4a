import type { Health } from "@/lib/health";
import { StatusBadge } from "./status-badge";

function Row({
  label,
  tone,
  value,
  detail,
}: {
  label: string;
  tone: "ok" | "error" | "missing" | "degraded";
  value: string;
  detail?: string;
}) {
  return (
    <div className="flex flex-col gap-1 py-3 sm:flex-row sm:items-baseline sm:gap-4">
      <dt className="w-40 shrink-0 text-sm font-medium text-black/60">{label}</dt>
      <dd className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <StatusBadge tone={tone}>{tone === "ok" ? "ready" : tone}</StatusBadge>
          <span className="break-words text-sm">{value}</span>
        </div>
        {detail ? <p className="mt-1 break-words text-sm text-black/60">{detail}</p> : null}
      </dd>
    </div>
  );
}

/**
 * The headline over the rows. /api/health says "ok" while a setup step is missing (nothing is
 * broken, so a load balancer should not take the server out), but a person reading "ok" above
 * "Language models: none configured" is misled: here a missing step reads as what it is.
 */
export function statusHeadline(health: Health): { tone: "ok" | "error" | "missing" | "degraded"; words: string } {
  if (health.status !== "ok")
    return { tone: health.status, words: health.status === "error" ? "not working" : "partly working" };
  if (health.llms.length === 0) return { tone: "missing", words: "setup needed: debates cannot run yet" };
  if (health.missing.length > 0) return { tone: "missing", words: "setup needed" };
  return { tone: "ok", words: "ready" };
}

/** The same facts as /api/health, for people. */
export function StatusPanel({ health }: { health: Health }) {
  const db = health.database;
  const headline = statusHeadline(health);
  return (
    <section aria-labelledby="status-heading" className="rounded-lg border border-black/10 bg-white p-5">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
        <h2 id="status-heading" className="text-base font-semibold">
          System status
        </h2>
        <span data-testid="status-headline">
          <StatusBadge tone={headline.tone}>{headline.words}</StatusBadge>
        </span>
      </div>
      <dl className="mt-2 divide-y divide-black/5" data-testid="status-panel">
        {db.ok ? (
          <Row
            label="Database"
            tone={db.migrations.pending === 0 && db.pgvector ? "ok" : "error"}
            value={`${db.backend === "pglite" ? "Embedded PGlite" : "PostgreSQL"} · pgvector ${db.pgvector ?? "missing"} · migrations ${db.migrations.applied}/${db.migrations.available}`}
            detail={db.location || undefined}
          />
        ) : (
          <Row label="Database" tone="error" value={db.backend} detail={db.error} />
        )}
        <Row
          label="Embeddings"
          tone={health.embedding.ready ? "ok" : "degraded"}
          value={`${health.embedding.id}${health.embedding.dim ? ` · ${health.embedding.dim} dimensions` : ""}`}
          detail={health.embedding.problem}
        />
        {health.llms.length === 0 ? (
          <Row label="Language models" tone="missing" value="none configured: debates cannot run" />
        ) : (
          health.llms.map((m) => (
            <Row
              key={m.id}
              label="Language model"
              tone={m.ready ? "ok" : "degraded"}
              value={`${m.id}${m.scoring ? ` · option scoring: ${m.scoring}` : ""}`}
              detail={m.problem}
            />
          ))
        )}
      </dl>
      {health.missing.length > 0 ? (
        <div className="mt-4 rounded-md bg-amber-50 p-4 text-sm text-amber-950" role="note">
          <p className="font-medium">What to set up next</p>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            {health.missing.map((m) => (
              <li key={m} className="break-words">
                {m}
              </li>
            ))}
          </ul>
          <p className="mt-2">
            Run <code className="rounded bg-white/70 px-1">npx counterpoint doctor</code> to test every part for real.
          </p>
        </div>
      ) : null}
    </section>
  );
}
