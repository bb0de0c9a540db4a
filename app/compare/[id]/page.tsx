import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { getComparisonView } from "@/lib/compare/view";
import { ComparisonLive } from "@/components/compare/comparison-live";
import { ExportLinks } from "@/components/compare/export-links";
import { memberStarts } from "@/components/compare/member-starts";
import { listComparisonShares } from "@/db/queries/comparison-shares";
import { CompareShareControls } from "@/components/compare/share-controls";
import { canReadDebates } from "@/lib/auth/access";
import { can } from "@/lib/auth/policy";
import { currentPrincipal, pageReadDebates } from "@/lib/auth/server";
import { comparisonForViewer } from "@/lib/compare/visible";
import { getConfig } from "@/lib/config";
import { factChecksOf } from "@/db/queries/fact-checks";
import { WriteFactCheckLink } from "@/components/fact-checks/write-link";

export const dynamic = "force-dynamic";

const UUID = /^[0-9a-f-]{36}$/i;

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!UUID.test(id)) return { title: "Comparison" };
  const { db } = await getDb();
  // The title carries the claim, so it follows the same reading rule as the page.
  if (!(await canReadDebates(db, await currentPrincipal()))) return { title: "Comparison" };
  const view = await getComparisonView(db, id);
  return { title: view ? `Compared: ${view.claim.text.slice(0, 50)}` : "Comparison" };
}

/**
 * One claim put to several methods: everything stored so far is rendered on the server, then every
 * member debate is followed live. A member finishing re-renders this page, so its row shows the
 * verdict, tokens and cost as the database holds them.
 */
export default async function ComparisonPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!UUID.test(id)) notFound();
  const principal = await pageReadDebates(`/compare/${id}`);
  const { db } = await getDb();
  const full = await getComparisonView(db, id);
  if (!full) notFound();
  const { view, judgeHidden } = await comparisonForViewer(db, principal, full);
  const starts = await memberStarts(db, view, judgeHidden);
  const admin = !!principal?.roles.includes("admin");
  const shares = can(principal, "debate:share")
    ? (await listComparisonShares(db, id)).map((s) => ({
        token: s.token,
        transcripts: s.transcripts,
        revocable: admin || s.createdBy === principal?.id,
      }))
    : null;
  const finished = view.members.every((m) => m.status !== "queued" && m.status !== "running");
  const factChecks =
    can(principal, "fact-check:write") && finished ? await factChecksOf(db, { comparisonId: id }) : null;
  return (
    <ComparisonLive
      view={view}
      starts={starts}
      controls={
        <footer className="space-y-3 border-t border-black/10 pt-4">
          <ExportLinks id={view.id} />
          {factChecks ? <WriteFactCheckLink source={{ comparison: view.id }} existing={factChecks} /> : null}
          {shares ? (
            <CompareShareControls comparisonId={view.id} shares={shares} base={getConfig().publicUrl ?? null} />
          ) : null}
        </footer>
      }
    />
  );
}
