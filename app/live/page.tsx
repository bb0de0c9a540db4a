import Link from "next/link";
import { getDb } from "@/db/client";
import { listLiveSessions } from "@/db/queries/live";
import { can } from "@/lib/auth/policy";
import { pageReadDebates } from "@/lib/auth/server";
import { scorerFor } from "@/lib/checkworthy";
import { DEFAULT_METHOD, methodTitle } from "@/lib/debate/methods";
import { PROTOCOL_NAMES } from "@/lib/debate/protocols";
import { CreateLiveForm } from "@/components/live/create-form";

export const dynamic = "force-dynamic";
export const metadata = { title: "Live desk" };

/** Live sessions, newest first, and (for those who may start debates) a form to open one. */
export default async function LivePage() {
  const principal = await pageReadDebates("/live");
  const { db } = await getDb();
  const sessions = await listLiveSessions(db, 50);
  const mayStart = can(principal, "debate:start");
  return (
    <div className="mx-auto max-w-3xl space-y-8">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Live desk</h1>
        <p className="text-sm text-black/70">
          A live event checked while it is spoken: each check-worthy sentence becomes a card, with the earlier check
          first when there is one. Feed it from a captioning system (POST /api/v1/live/&#123;id&#125;/lines), follow a
          growing transcript at an address (<code>npx counterpoint live follow</code>) or replay a transcript (
          <code>npx counterpoint live replay</code>).
        </p>
      </div>
      {mayStart && (
        <section className="space-y-2" aria-labelledby="new-live">
          <h2 id="new-live" className="text-lg font-semibold">
            Open a session
          </h2>
          <CreateLiveForm
            methods={PROTOCOL_NAMES.map((m) => ({ name: m, title: methodTitle(m) }))}
            defaultMethod={DEFAULT_METHOD}
            defaultThreshold={scorerFor("offline").threshold}
          />
        </section>
      )}
      <section className="space-y-2" aria-labelledby="sessions">
        <h2 id="sessions" className="text-lg font-semibold">
          Sessions ({sessions.length})
        </h2>
        {sessions.length ? (
          <ul className="space-y-2" data-testid="live-sessions">
            {sessions.map((s) => (
              <li key={s.id} className="border-t border-black/10 pt-2">
                <Link href={`/live/${s.id}`} className="font-medium break-words underline">
                  {s.title}
                </Link>
                <span className="ml-2 text-sm text-black/60">
                  {s.status === "open" ? "Open" : "Closed"} · {s.lineCount} lines · {methodTitle(s.method)} · opened{" "}
                  {s.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-black/60">None yet.</p>
        )}
      </section>
    </div>
  );
}
