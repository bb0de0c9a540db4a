import Link from "next/link";
import { getDb } from "@/db/client";
import { pagePermission } from "@/lib/auth/server";
import { listCorpora } from "@/db/queries/corpus";
import { getConfig } from "@/lib/config";
import { webSelectableModels } from "@/lib/ai/web-models";
import { DebateForm } from "@/components/debate/debate-form";
import { SAMPLE_CLAIMS } from "@/lib/corpus/sample";
import { PROTOCOL_NAMES, getProtocol } from "@/lib/debate/protocols";
import { formMethodChoices } from "@/lib/debate/form";
import { searchToolSnapshot } from "@/lib/tools";

export const dynamic = "force-dynamic";
export const metadata = { title: "New debate" };

export default async function NewDebatePage({ searchParams }: { searchParams: Promise<{ claim?: string }> }) {
  const { claim } = await searchParams;
  await pagePermission("debate:start", claim ? `/debates/new?claim=${encodeURIComponent(claim)}` : "/debates/new");
  const { db } = await getDb();
  const config = getConfig();
  const corpora = await listCorpora(db);
  const choices = formMethodChoices();
  const protocols = choices.map(({ name, title, blurb }) => ({ name, title, blurb }));
  const search = searchToolSnapshot(config.search, null);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Check a claim</h1>
        <p className="mt-1 text-sm text-black/70">
          Have a speech, an article or a transcript?{" "}
          <Link href="/check-text" className="underline">
            Find the claims in it worth checking
          </Link>
          .
        </p>
      </div>
      <DebateForm
        corpora={corpora.map((c) => ({ name: c.name, passages: c.passages }))}
        models={webSelectableModels(config)}
        defaults={{ default: config.models.default ?? "", roles: config.models.roles }}
        examples={SAMPLE_CLAIMS.map((c) => c.text)}
        initialClaim={typeof claim === "string" ? claim : undefined}
        protocols={protocols}
        methodPresets={Object.fromEntries(choices.map((c) => [c.name, c.presets]))}
        search={{ label: search.label, live: search.live }}
        comparePresets={Object.fromEntries(PROTOCOL_NAMES.map((n) => [n, Object.keys(getProtocol(n).presets)]))}
      />
    </div>
  );
}
