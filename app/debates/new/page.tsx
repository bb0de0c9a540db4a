import { getDb } from "@/db/client";
import { pagePermission } from "@/lib/auth/server";
import { listCorpora } from "@/db/queries/corpus";
import { getConfig } from "@/lib/config";
import { webSelectableModels } from "@/lib/ai/web-models";
import { DebateForm } from "@/components/debate/debate-form";
import { SAMPLE_CLAIMS } from "@/lib/corpus/sample";
import { PROTOCOL_NAMES, getProtocol } from "@/lib/debate/protocols";
import { searchToolSnapshot } from "@/lib/tools";
import { PROCLAIM_FORM_PRESETS, TOOL_MAD_FORM_PRESETS } from "@/lib/debate/form";

export const dynamic = "force-dynamic";
export const metadata = { title: "New debate" };

/** One line per method, for a reader who has not read the papers. */
const BLURBS: Record<string, { title: string; blurb: string }> = {
  radar: { title: "RADAR (default)", blurb: "Two debaters argue over evidence retrieved once from a corpus or pasted; a judge decides, and may stop early." },
  zofia: { title: "ZoFia (news articles)", blurb: "Checks a whole news article: its key names are searched on the web, a linguist, an expert and a claim checker report, then two agents debate until a judge says real or fake." },
  proclaim: { title: "PROClaim (courtroom)", blurb: "A courtroom: the claim is split into premises, evidence is admitted or refused, two counsel argue, then switch sides and argue again, and three judges vote. Thorough but costly: ~114 model calls per claim." },
  "tool-mad": { title: "Tool-MAD", blurb: "Two agents search on their own (the corpus and the web), answer, and have each answer checked against its documents; they stop when they agree, else a judge decides." },
};

const SCHEMES = [
  { name: "fever", title: "FEVER: SUPPORTS / REFUTES / NOT ENOUGH INFO" },
  { name: "faviq", title: "FaVIQ: SUPPORTS / REFUTES" },
  { name: "averitec", title: "AVeriTeC: Supported / Refuted / Not Enough Evidence / Conflicting" },
  { name: "radar", title: "RADAR: TRUE / HALF-TRUE / FALSE" },
];

export default async function NewDebatePage({ searchParams }: { searchParams: Promise<{ claim?: string }> }) {
  const { claim } = await searchParams;
  await pagePermission("debate:start", claim ? `/debates/new?claim=${encodeURIComponent(claim)}` : "/debates/new");
  const { db } = await getDb();
  const config = getConfig();
  const corpora = await listCorpora(db);
  const protocols = PROTOCOL_NAMES.filter((n) => BLURBS[n]).map((name) => ({ name, ...BLURBS[name]! }));
  const toolMad = PROTOCOL_NAMES.includes("tool-mad")
    ? (() => {
        const presets = getProtocol("tool-mad").presets;
        const search = searchToolSnapshot(config.search, null);
        return {
          presets: TOOL_MAD_FORM_PRESETS.filter((p) => presets[p]).map((name) => ({ name, labels: String(presets[name]!.labels ?? "fever") })),
          schemes: SCHEMES,
          search: { label: search.label, live: search.live },
        };
      })()
    : undefined;
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
        toolMad={toolMad}
        comparePresets={Object.fromEntries(PROTOCOL_NAMES.map((n) => [n, Object.keys(getProtocol(n).presets)]))}
        proclaimPresets={PROTOCOL_NAMES.includes("proclaim") ? PROCLAIM_FORM_PRESETS.filter((p) => getProtocol("proclaim").presets[p.name]).map((p) => ({ name: p.name, title: p.title })) : []}
      />
    </div>
  );
}
