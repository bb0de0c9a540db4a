import { getDb } from "@/db/client";
import { pagePermission } from "@/lib/auth/server";
import { listCorpora } from "@/db/queries/corpus";
import { NewRunForm } from "@/components/eval/new-run-form";
import { webSelectableModels } from "@/lib/ai/web-models";
import { getConfig } from "@/lib/config";
import { plural } from "@/lib/plural";

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
        Upload labelled claims as JSONL (<code>{'{"id", "claim", "label", "date"?, "gold_evidence"?, "supplied_evidence"?}'}</code>; <code>npx counterpoint dataset convert</code> writes the shared
        datasets in this format). Every claim becomes a stored debate you can open and annotate.{" "}
        {h.backend === "postgres" ? "Claims go to the queue: start workers with npx counterpoint worker." : "On the embedded database this server runs the claims itself."}
      </p>
      <p className="max-w-2xl text-sm text-black/70" data-testid="web-run-limits">
        From this page a run may have up to {plural(limits.maxClaims, "claim")} (after the limit and sample below) and each person may start {plural(limits.runs.limit, "run")} per {limits.runs.spec.split("/")[1]}; the command line has no such limits.
      </p>
      <NewRunForm corpora={corpora.map((c) => c.name)} models={webSelectableModels()} defaultModel={getConfig().models.default} />
    </div>
  );
}
