import { getDb } from "@/db/client";
import { pagePermission } from "@/lib/auth/server";
import { listCorpora } from "@/db/queries/corpus";
import { getConfig } from "@/lib/config";
import { webSelectableModels } from "@/lib/ai/web-models";
import { DebateForm } from "@/components/debate/debate-form";
import { SAMPLE_CLAIMS } from "@/lib/corpus/sample";
import { PROTOCOL_NAMES, getProtocol } from "@/lib/debate/protocols";
import { DEFAULT_METHOD, methodDefinitions } from "@/lib/debate/methods";
import { searchToolSnapshot } from "@/lib/tools";

export const dynamic = "force-dynamic";
export const metadata = { title: "New debate" };

export default async function NewDebatePage({ searchParams }: { searchParams: Promise<{ claim?: string }> }) {
  const { claim } = await searchParams;
  await pagePermission("debate:start", claim ? `/debates/new?claim=${encodeURIComponent(claim)}` : "/debates/new");
  const { db } = await getDb();
  const config = getConfig();
  const corpora = await listCorpora(db);
  // Every registered method that can run here, the default first, each in its definition's words.
  const defs = methodDefinitions().filter((d) => PROTOCOL_NAMES.includes(d.name));
  const protocols = [...defs.filter((d) => d.name === DEFAULT_METHOD), ...defs.filter((d) => d.name !== DEFAULT_METHOD)].map((d) => ({
    name: d.name,
    title: `${d.title}${d.name === DEFAULT_METHOD ? " (default)" : d.input === "article" ? " (news articles)" : ""}`,
    blurb: d.description,
  }));
  const search = searchToolSnapshot(config.search, null);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Check a claim</h1>
      <DebateForm
        corpora={corpora.map((c) => ({ name: c.name, passages: c.passages }))}
        models={webSelectableModels(config)}
        defaults={{ default: config.models.default ?? "", roles: config.models.roles }}
        examples={SAMPLE_CLAIMS.map((c) => c.text)}
        initialClaim={typeof claim === "string" ? claim : undefined}
        protocols={protocols}
        methodPresets={Object.fromEntries(defs.map((d) => [d.name, d.formPresets ?? []]))}
        search={{ label: search.label, live: search.live }}
        comparePresets={Object.fromEntries(PROTOCOL_NAMES.map((n) => [n, Object.keys(getProtocol(n).presets)]))}
      />
    </div>
  );
}
