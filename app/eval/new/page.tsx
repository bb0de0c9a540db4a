import { getDb } from "@/db/client";
import { pagePermission } from "@/lib/auth/server";
import { listCorpora } from "@/db/queries/corpus";
import { NewRunForm } from "@/components/eval/new-run-form";
import { webSelectableModels } from "@/lib/ai/web-models";
import { getConfig } from "@/lib/config";
import { plural } from "@/lib/plural";
import { CLAIM_LINE_EXAMPLES } from "@/lib/datasets/claim-words";

export const dynamic = "force-dynamic";
export const metadata = { title: "New evaluation run" };

export default async function NewEvalRunPage() {
  await pagePermission("debate:start", "/eval/new");
  const h = await getDb();
  const corpora = await listCorpora(h.db);
  const limits = getConfig().evalWeb;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">New evaluation run</h1>
      <p className="max-w-2xl text-sm text-black/70">
        Upload labelled claims as JSONL: one JSON object per line, in one of the shapes below (
        <code>npx counterpoint dataset convert</code> writes the shared datasets in this format). Every claim becomes a
        stored debate you can open and annotate.{" "}
        {h.backend === "postgres"
          ? "Claims go to the queue: start workers with npx counterpoint worker."
          : "On the embedded database this server runs the claims itself."}
      </p>
      <details
        className="max-w-3xl rounded-md border border-black/10 bg-white p-3 text-sm"
        data-testid="claims-format"
        open
      >
        <summary className="cursor-pointer font-medium">What a claims file looks like: one line per claim</summary>
        <ul className="mt-2 space-y-2">
          {CLAIM_LINE_EXAMPLES.map((x) => (
            <li key={x.shape}>
              <p className="text-black/70">{x.shape}:</p>
              <code className="mt-0.5 block whitespace-pre-wrap break-all rounded bg-black/5 p-1.5 font-mono text-xs">
                {x.line}
              </code>
            </li>
          ))}
        </ul>
        <p className="mt-2 text-xs text-black/60">
          Fields may be combined on one line. <code>id</code> and <code>claim</code> are required, <code>label</code> is
          needed to score the run, <code>date</code> is YYYY-MM-DD, and
          <code> metadata</code> may hold anything else as an object.
        </p>
      </details>
      <p className="max-w-2xl text-sm text-black/70" data-testid="web-run-limits">
        From this page a run may have up to {plural(limits.maxClaims, "claim")} (after the limit and sample below) and
        each person may start {plural(limits.runs.limit, "run")} per {limits.runs.spec.split("/")[1]}; the command line
        has no such limits.
      </p>
      <NewRunForm
        corpora={corpora.map((c) => c.name)}
        models={webSelectableModels()}
        defaultModel={getConfig().models.default}
      />
    </div>
  );
}
