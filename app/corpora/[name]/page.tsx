import Link from "next/link";
import { Section } from "@/components/ui/section";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { pageReadDebates } from "@/lib/auth/server";
import { can } from "@/lib/auth/policy";
import { plural } from "@/lib/plural";
import { listCorpora } from "@/db/queries/corpus";
import { DOCUMENTS_PAGE_SIZE, listDocuments } from "@/db/queries/corpus-browse";
import { listIngestJobs } from "@/lib/corpus/ingest";
import { toJobView } from "@/lib/corpus/job-view";
import { SAMPLE_CLAIMS, SAMPLE_CORPUS_NAME } from "@/lib/corpus/sample";
import { uploadRules } from "@/lib/corpus/upload";
import { JobList } from "@/components/corpus/job-list";
import { UploadArea } from "@/components/corpus/upload-area";
import { ReembedForm } from "@/components/corpus/reembed-form";
import { reembedChoices } from "@/lib/embeddings/choices";

export const dynamic = "force-dynamic";

type Params = { name: string };
type Search = Record<string, string | string[] | undefined>;

export async function generateMetadata({ params }: { params: Promise<Params> }) {
  return { title: `Corpus ${(await params).name}` };
}

export default async function CorpusPage({
  params,
  searchParams,
}: {
  params: Promise<Params>;
  searchParams: Promise<Search>;
}) {
  const { name } = await params;
  const me = await pageReadDebates(`/corpora/${encodeURIComponent(name)}`);
  const sp = await searchParams;
  const { db } = await getDb();
  const corpus = (await listCorpora(db)).find((c) => c.name === name);
  if (!corpus) notFound();
  const page = Math.max(1, Number.parseInt(String(sp.page ?? "1"), 10) || 1);
  const [docs, jobs] = await Promise.all([
    listDocuments(db, corpus.id, { page }),
    listIngestJobs(db, corpus.id, { limit: 20 }),
  ]);
  const pages = Math.max(1, Math.ceil(docs.total / DOCUMENTS_PAGE_SIZE));
  const isDemo = corpus.name === SAMPLE_CORPUS_NAME;

  return (
    <div className="space-y-8">
      <header className="space-y-2">
        <p className="text-sm">
          <Link href="/corpora" className="text-black/60 hover:text-black">
            ← Corpora
          </Link>
        </p>
        <h1 className="text-2xl font-semibold tracking-tight break-words">{corpus.name}</h1>
        {corpus.description ? <p className="max-w-2xl text-black/70">{corpus.description}</p> : null}
        <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm" data-testid="corpus-stats">
          <div>
            <dt className="inline text-black/60">Documents </dt>
            <dd className="inline font-medium tabular-nums">{corpus.documents.toLocaleString("en")}</dd>
          </div>
          <div>
            <dt className="inline text-black/60">Passages </dt>
            <dd className="inline font-medium tabular-nums">{corpus.passages.toLocaleString("en")}</dd>
          </div>
          {jobs.some((j) => j.status === "running") ? (
            <div className="w-full text-xs text-black/60" data-testid="counts-updating">
              A job below is still adding documents: these counts follow it every few seconds.
            </div>
          ) : null}
          <div>
            <dt className="inline text-black/60">Embedding model </dt>
            <dd className="inline font-mono text-xs">{corpus.embeddingModel}</dd>
          </div>
          {corpus.vectorModels.some((m) => m.model !== corpus.embeddingModel) ? (
            <div data-testid="vector-models">
              <dt className="inline text-black/60">Vectors of </dt>
              <dd className="inline">
                {corpus.vectorModels.map((m, i) => (
                  <span key={m.model}>
                    {i > 0 ? ", " : null}
                    <span className="font-mono text-xs">{m.model}</span>{" "}
                    <span className="text-black/60">
                      {m.passages === corpus.passages
                        ? "(all passages)"
                        : `(${m.passages.toLocaleString("en")} of ${corpus.passages.toLocaleString("en")})`}
                    </span>
                  </span>
                ))}
              </dd>
            </div>
          ) : null}
          <div>
            <dt className="inline text-black/60">Created </dt>
            <dd className="inline">
              <time dateTime={corpus.createdAt.toISOString()}>{corpus.createdAt.toISOString().slice(0, 10)}</time>
            </dd>
          </div>
        </dl>
        {corpus.passages > 0 ? (
          <p className="text-sm">
            <Link href={`/search?corpus=${encodeURIComponent(corpus.name)}`} className="underline">
              Search this corpus
            </Link>
          </p>
        ) : null}
        {isDemo && corpus.passages > 0 && can(me, "debate:start") ? (
          <p className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-950" data-testid="demo-ready">
            The demo corpus is ready. Try a claim such as “{SAMPLE_CLAIMS[0]!.text}” on{" "}
            <Link href="/debates/new" className="font-medium underline">
              Check a claim
            </Link>{" "}
            (the form offers the demo claims as examples).
          </p>
        ) : null}
      </header>

      <Section id="jobs-title" title="Ingest jobs">
        <JobList jobs={jobs.map(toJobView)} />
        {can(me, "corpus:write") && corpus.passages > 0 ? (
          <ReembedForm corpus={corpus.name} models={reembedChoices().filter((m) => m !== corpus.embeddingModel)} />
        ) : null}
      </Section>

      {can(me, "corpus:write") ? (
        <section className="space-y-3" aria-labelledby="add-title" data-testid="add-documents">
          <h2 id="add-title" className="text-lg font-semibold">
            Add documents
          </h2>
          <p className="text-sm text-black/70">
            Files are stored and ingested on the server: a large file keeps going if you close this page. Documents
            whose id is already in the corpus are updated when their content changed and skipped when it did not.
          </p>
          <UploadArea corpus={corpus.name} rules={uploadRules()} />
        </section>
      ) : null}

      <Section
        id="docs-title"
        title={
          <>
            Documents{" "}
            <span className="text-sm font-normal text-black/60">({docs.total.toLocaleString("en")}, newest first)</span>
          </>
        }
      >
        {docs.items.length === 0 ? (
          <p className="text-sm text-black/60">No documents yet.</p>
        ) : (
          <ul
            className="divide-y divide-black/10 rounded-lg border border-black/10 bg-white"
            data-testid="document-list"
          >
            {docs.items.map((d) => (
              <li key={d.id}>
                <Link
                  href={`/corpora/${corpus.name}/documents/${d.id}`}
                  className="flex flex-col gap-1 p-3 hover:bg-black/[.03] sm:flex-row sm:items-baseline sm:gap-4"
                >
                  <span className="min-w-0 flex-1 break-words font-medium">{d.title ?? d.externalId}</span>
                  <span className="flex shrink-0 flex-wrap gap-x-3 text-xs text-black/60">
                    <span className="break-all font-mono">{d.externalId}</span>
                    <span>{plural(d.passages, "passage")}</span>
                    <span>
                      {d.publishedAt ? (
                        <time dateTime={d.publishedAt.toISOString()}>
                          published {d.publishedAt.toISOString().slice(0, 10)}
                        </time>
                      ) : (
                        "no date"
                      )}
                    </span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
        {pages > 1 ? (
          <nav aria-label="Document pages" className="flex items-center gap-3 text-sm">
            {page > 1 ? (
              <Link href={`/corpora/${corpus.name}?page=${page - 1}`} className="underline">
                Newer
              </Link>
            ) : null}
            <span className="text-black/60">
              Page {page} of {pages}
            </span>
            {page < pages ? (
              <Link href={`/corpora/${corpus.name}?page=${page + 1}`} className="underline">
                Older
              </Link>
            ) : null}
          </nav>
        ) : null}
      </Section>
    </div>
  );
}
