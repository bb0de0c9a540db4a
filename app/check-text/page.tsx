import { getDb } from "@/db/client";
import { listCorpora } from "@/db/queries/corpus";
import { CheckTextForm } from "@/components/checkworthy/check-text-form";
import { pagePermission } from "@/lib/auth/server";
import { formMethodChoices } from "@/lib/debate/form";
import { findMethod } from "@/lib/debate/methods";
import { getConfig } from "@/lib/config";

export const dynamic = "force-dynamic";
export const metadata = { title: "Find claims in a text" };

export default async function CheckTextPage() {
  await pagePermission("debate:start", "/check-text");
  const { db } = await getDb();
  const config = getConfig();
  const corpora = await listCorpora(db);
  // Methods that check one claim (a method that reads whole articles has no use for a sentence).
  const methods = formMethodChoices()
    .filter((m) => findMethod(m.name)?.input !== "article")
    .map((m) => ({
      name: m.name,
      title: m.title,
      blurb: m.blurb,
      corpusOptional: !!findMethod(m.name)?.corpusOptional,
    }));
  const llmModel = config.models.roles.checkworthy ?? config.models.default ?? null;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Find the claims worth checking</h1>
        <p className="mt-1 text-sm text-black/70">
          Paste a speech, an article or a debate transcript. Each sentence is scored for how much it states a fact the
          public would want checked; pick the best ones, make each a claim, and debate them all at once.
        </p>
      </div>
      <CheckTextForm
        methods={methods}
        corpora={corpora.map((c) => ({ name: c.name, passages: c.passages }))}
        llmModel={llmModel}
      />
    </div>
  );
}
