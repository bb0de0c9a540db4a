import Link from "next/link";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { pageReadDebates } from "@/lib/auth/server";
import { findCorpus } from "@/db/queries/corpus";
import { getDocument } from "@/db/queries/corpus-browse";

export const dynamic = "force-dynamic";

type Params = { name: string; id: string };

export async function generateMetadata({ params }: { params: Promise<Params> }) {
  const { name, id } = await params;
  await pageReadDebates(`/corpora/${encodeURIComponent(name)}/documents/${encodeURIComponent(id)}`);
  return { title: `Document ${id} · ${name}` };
}

/**
 * A document as its passages, in order. Search results link to `#p<ordinal>`: the browser scrolls
 * to that passage and the `target:` style marks it, with no script involved.
 */
export default async function DocumentPage({ params }: { params: Promise<Params> }) {
  const { name, id } = await params;
  const { db } = await getDb();
  const corpus = await findCorpus(db, name);
  if (!corpus || !/^\d+$/.test(id)) notFound();
  const doc = await getDocument(db, corpus.id, Number(id));
  if (!doc) notFound();
  const meta = doc.metadata && Object.keys(doc.metadata).length ? doc.metadata : null;
  return (
    <article className="space-y-6">
      <header className="space-y-2">
        <p className="text-sm">
          <Link href={`/corpora/${encodeURIComponent(corpus.name)}`} className="text-black/60 hover:text-black">
            ← {corpus.name}
          </Link>
        </p>
        <h1 className="text-2xl font-semibold tracking-tight break-words">{doc.title ?? doc.externalId}</h1>
        <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
          <div>
            <dt className="inline text-black/60">Id </dt>
            <dd className="inline break-all font-mono text-xs">{doc.externalId}</dd>
          </div>
          <div>
            <dt className="inline text-black/60">Published </dt>
            <dd className="inline">
              {doc.publishedAt ? (
                <time dateTime={doc.publishedAt.toISOString()}>{doc.publishedAt.toISOString().slice(0, 10)}</time>
              ) : (
                "unknown"
              )}
            </dd>
          </div>
          <div>
            <dt className="inline text-black/60">Passages </dt>
            <dd className="inline">{doc.passages.length}</dd>
          </div>
          {doc.url && /^https?:\/\//i.test(doc.url) ? (
            <div className="min-w-0">
              <dt className="inline text-black/60">Source </dt>
              <dd className="inline break-all">
                {/* Only web addresses become links: a document's url field comes from uploaded files. */}
                <a href={doc.url} rel="noopener noreferrer nofollow" className="underline">
                  {doc.url}
                </a>
              </dd>
            </div>
          ) : null}
        </dl>
        {meta ? <p className="break-words font-mono text-xs text-black/60">{JSON.stringify(meta)}</p> : null}
      </header>
      <ol className="space-y-3" data-testid="passages">
        {doc.passages.map((p) => (
          <li
            key={p.id}
            id={`p${p.ordinal}`}
            data-testid="passage"
            className="scroll-mt-6 rounded-lg border border-black/10 bg-white p-4 target:border-accent target:bg-amber-50 target:ring-2 target:ring-accent/40"
          >
            <p className="mb-1 text-xs text-black/60">
              Passage {p.ordinal + 1} <span className="font-mono">{p.externalId}</span>
            </p>
            <p className="whitespace-pre-line break-words">{p.text}</p>
          </li>
        ))}
      </ol>
    </article>
  );
}
