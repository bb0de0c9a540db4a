import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { listApiTokens, type ApiTokenListRow } from "@/db/queries/api-tokens";
import { listUsers } from "@/db/queries/users";
import { SCOPE_WORDS } from "@/lib/auth/api-tokens";
import { can, permissionsOf } from "@/lib/auth/policy";
import { currentPrincipal } from "@/lib/auth/server";
import { CreateTokenForm } from "@/components/account/token-forms";
import { revokeTokenAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "API tokens · Counterpoint" };

const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

function state(t: ApiTokenListRow, now: Date): string {
  if (t.revokedAt) return `revoked ${day(t.revokedAt)}`;
  if (t.expiresAt && t.expiresAt <= now) return `expired ${day(t.expiresAt)}`;
  return t.expiresAt ? `active until ${day(t.expiresAt)}` : "active, never expires";
}

function TokenList({ tokens, owners }: { tokens: ApiTokenListRow[]; owners: boolean }) {
  const now = new Date();
  if (!tokens.length) return <p className="text-sm text-black/60">No tokens yet.</p>;
  return (
    <ul className="divide-y divide-black/10 rounded-md border border-black/10 bg-white">
      {tokens.map((t) => {
        const usable = !t.revokedAt && !(t.expiresAt && t.expiresAt <= now);
        return (
          <li key={t.id} className="flex flex-wrap items-start justify-between gap-3 p-3 text-sm">
            <div className="min-w-0 space-y-0.5">
              <p className="font-medium break-words">
                {t.name} <code className="font-mono text-xs text-black/60">{t.prefix}…</code>
              </p>
              {owners ? <p className="break-all text-black/70">acts for {t.ownerEmail}</p> : null}
              <p className="text-black/70">{t.scopes.length ? t.scopes.join(", ") : "reading only"}</p>
              <p className="text-black/60">
                {state(t, now)} · made {day(t.createdAt)} ·{" "}
                {t.lastUsedAt ? `last used ${day(t.lastUsedAt)}` : "never used"}
              </p>
            </div>
            {usable ? (
              <form action={revokeTokenAction}>
                <input type="hidden" name="id" value={t.id} />
                <button
                  type="submit"
                  className="rounded-md border border-red-800/30 bg-white px-3 py-1 text-sm text-red-900 hover:bg-red-50"
                >
                  Revoke {t.name}
                </button>
              </form>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/** Anyone's own API tokens; admins also make tokens for others and see and revoke everyone's. */
export default async function TokensPage() {
  const me = await currentPrincipal();
  if (!me) redirect("/signin?next=/account/tokens");
  const { db } = await getDb();
  const admin = can(me, "admin");
  const [mine, all, people] = await Promise.all([
    listApiTokens(db, { userId: me.id }),
    admin ? listApiTokens(db) : Promise.resolve(null),
    admin ? listUsers(db) : Promise.resolve(null),
  ]);
  const scopes = permissionsOf(me.roles).map((name) => ({ name, words: SCOPE_WORDS[name] }));
  return (
    <div className="mx-auto max-w-3xl space-y-8">
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold">API tokens</h1>
        <p className="text-sm text-black/70">
          A token lets another system (a CMS, a tipline, a dashboard) start debates and read verdicts as you, through{" "}
          <a className="underline" href="/api/v1/openapi.json">
            the API
          </a>
          . It can read whatever you can read, and do only what its scopes name. Keep it secret; revoke it when it leaks
          or is no longer used.
        </p>
      </header>
      <section className="space-y-3">
        <h2 className="text-lg font-semibold">New token</h2>
        <CreateTokenForm
          scopes={scopes}
          people={people ? people.filter((p) => !p.disabledAt).map((p) => ({ id: p.id, email: p.email })) : null}
          me={me.id}
        />
      </section>
      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Your tokens</h2>
        <TokenList tokens={mine} owners={false} />
      </section>
      {all ? (
        <section className="space-y-3">
          <h2 className="text-lg font-semibold">Everyone&apos;s tokens</h2>
          <TokenList tokens={all} owners />
        </section>
      ) : null}
    </div>
  );
}
