import Link from "next/link";
import { getDb } from "@/db/client";
import { pageReadDebates } from "@/lib/auth/server";
import { can } from "@/lib/auth/policy";
import { listCorpora } from "@/db/queries/corpus";
import { CreateCorpusForm } from "@/components/corpus/create-corpus-form";
import { LoadDemoButton } from "@/components/corpus/load-demo-button";

export const dynamic = "force-dynamic";
export const metadata = { title: "Corpora" };

export default async function CorporaPage() {
  const me = await pageReadDebates("/corpora");
  // Only people who may add evidence are offered the forms; the actions refuse everyone else anyway.
  const writes = can(me, "corpus:write");
  const { db } = await getDb();
  const corpora = await listCorpora(db);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Corpora</h1>
      <p className="max-w-2xl text-black/70">
        A corpus is a collection of documents that debates and searches draw evidence from. Documents are cut into
        passages and each passage is embedded, so it can be found by meaning as well as by its words.
      </p>
      {corpora.length === 0 ? (
        <section className="space-y-3 rounded-lg border-2 border-accent/40 bg-white p-5" aria-labelledby="empty-title">
          <h2 id="empty-title" className="text-lg font-semibold">
            No corpus yet
          </h2>
          {writes ? (
            <>
              <p className="text-sm text-black/70">
                Load the demo corpus (thirty short fictional news items written for Counterpoint) to try search and a
                debate in a minute, or create a corpus below and upload your own documents.
              </p>
              <LoadDemoButton />
            </>
          ) : (
            <p className="text-sm text-black/70">
              A fact-checker or an admin creates corpora and adds documents; they will be listed here.
            </p>
          )}
        </section>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-black/10 bg-white">
          <table className="w-full text-left text-sm" data-testid="corpus-list">
            <thead className="border-b border-black/10 text-xs text-black/60">
              <tr>
                <th scope="col" className="p-3 font-medium">
                  Name
                </th>
                <th scope="col" className="p-3 text-right font-medium">
                  Documents
                </th>
                <th scope="col" className="p-3 text-right font-medium">
                  Passages
                </th>
                <th scope="col" className="hidden p-3 font-medium sm:table-cell">
                  Embedding model
                </th>
                <th scope="col" className="hidden p-3 font-medium sm:table-cell">
                  Created
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-black/10">
              {corpora.map((c) => (
                <tr key={c.id}>
                  <td className="p-3">
                    <Link href={`/corpora/${c.name}`} className="font-medium underline-offset-2 hover:underline">
                      {c.name}
                    </Link>
                    {c.description ? <p className="mt-0.5 text-xs text-black/60">{c.description}</p> : null}
                    <p className="mt-0.5 text-xs text-black/60 sm:hidden">
                      {c.embeddingModel} · created {c.createdAt.toISOString().slice(0, 10)}
                    </p>
                  </td>
                  <td className="p-3 text-right tabular-nums">{c.documents.toLocaleString("en")}</td>
                  <td className="p-3 text-right tabular-nums">{c.passages.toLocaleString("en")}</td>
                  <td className="hidden p-3 font-mono text-xs sm:table-cell">{c.embeddingModel}</td>
                  <td className="hidden p-3 sm:table-cell">
                    <time dateTime={c.createdAt.toISOString()}>{c.createdAt.toISOString().slice(0, 10)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {writes ? (
        <section className="space-y-2 rounded-lg border border-black/10 bg-white p-4" data-testid="create-corpus">
          <h2 className="font-semibold">Create a corpus</h2>
          <CreateCorpusForm />
        </section>
      ) : null}
    </div>
  );
}
