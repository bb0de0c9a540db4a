import Link from "next/link";
import { getDb } from "@/db/client";
import { countUsers } from "@/db/queries/users";
import { listCorpora, type CorpusSummary } from "@/db/queries/corpus";
import { StatusPanel } from "@/components/status-panel";
import { LoadDemoButton } from "@/components/corpus/load-demo-button";
import { getHealth, publicHealth } from "@/lib/health";
import { SAMPLE_CLAIMS, SAMPLE_CORPUS_NAME } from "@/lib/corpus/sample";
import { can, type Principal } from "@/lib/auth/policy";
import { currentPrincipal } from "@/lib/auth/server";
import { plural } from "@/lib/plural";

export const dynamic = "force-dynamic";

const STEPS = [
  {
    title: "Evidence from your corpus",
    body: "Counterpoint finds the passages that bear on a claim in documents your newsroom controls, stored in PostgreSQL with pgvector. Some methods also search the web, where you allow it.",
  },
  {
    title: "Agents debate it, by one of four methods",
    body: "RADAR: a Politician and a Scientist argue over the same evidence. Tool-MAD: two agents search on their own and have each answer checked. ZoFia: for news articles, their names are looked up and experts report before a debate. PROClaim: a courtroom, with counsel on both sides and three judges. Run one, or compare several on the same claim.",
  },
  {
    title: "A judge decides",
    body: "A verdict (true, half true or false; real or fake for a news article) with its reasons, stopping early once confident where the method allows. Every turn, search and score is saved for review.",
  },
];

/** The first thing a new installation needs is evidence; the home page offers it until there is some. */
async function corporaOrNull(): Promise<CorpusSummary[] | null> {
  try {
    return await listCorpora((await getDb()).db);
  } catch {
    // The status panel below explains a database that cannot be opened.
    return null;
  }
}

/** Each role is offered its own next step: only people who may add evidence or start debates see those offers. */
function GetStarted({ corpora, me }: { corpora: CorpusSummary[]; me: Principal | null }) {
  const demo = corpora.find((c) => c.name === SAMPLE_CORPUS_NAME);
  const writes = can(me, "corpus:write");
  const checks = can(me, "debate:start");
  if (corpora.length === 0 && !writes) {
    return (
      <p className="rounded-lg border border-black/10 bg-white p-4 text-sm" data-testid="no-corpus-yet">
        There is no evidence corpus yet. A fact-checker or an admin adds one;{" "}
        {can(me, "annotate")
          ? "debates to label appear on the Annotate page once debates have run."
          : "debates appear here once they have run."}
      </p>
    );
  }
  if (corpora.length === 0) {
    return (
      <section
        className="flex flex-col gap-3 rounded-lg border-2 border-accent/40 bg-white p-5 sm:flex-row sm:items-center sm:justify-between"
        aria-labelledby="start-title"
      >
        <div>
          <h2 id="start-title" className="font-semibold">
            Start with the demo corpus
          </h2>
          <p className="mt-1 text-sm text-black/70">
            Thirty short fictional news items and four example claims, loaded in seconds.
          </p>
        </div>
        <LoadDemoButton />
      </section>
    );
  }
  if (demo && demo.passages === 0) {
    return (
      <p className="rounded-lg border border-black/10 bg-white p-4 text-sm">
        The demo corpus is loading.{" "}
        <Link href={`/corpora/${SAMPLE_CORPUS_NAME}`} className="underline">
          Follow its progress
        </Link>
        .
      </p>
    );
  }
  return (
    <section className="rounded-lg border border-black/10 bg-white p-4 text-sm" aria-labelledby="start-title">
      <h2 id="start-title" className="font-semibold">
        {demo ? "The demo corpus is loaded" : `${plural(corpora.length, "corpus", "corpora")} ready`}
      </h2>
      {demo && checks ? <p className="mt-1 text-black/70">Try this claim: “{SAMPLE_CLAIMS[0]!.text}”</p> : null}
      <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
        {checks ? (
          <Link
            href={demo ? `/debates/new?claim=${encodeURIComponent(SAMPLE_CLAIMS[0]!.text)}` : "/debates/new"}
            className="font-medium underline"
          >
            {demo ? "Check this claim" : "Check a claim"}
          </Link>
        ) : null}
        {checks ? (
          <Link href="/check-text" className="font-medium underline">
            Find the claims in a speech or article
          </Link>
        ) : null}
        {can(me, "annotate") ? (
          <Link href="/annotate" className="font-medium underline">
            Label debates
          </Link>
        ) : null}
        <Link href="/search" className="underline">
          Search the evidence
        </Link>
        <Link href="/corpora" className="underline">
          Corpora
        </Link>
      </p>
    </section>
  );
}

/** A fresh install has no accounts: the first thing to do is create the admin. */
async function needsSetup(): Promise<boolean> {
  try {
    return (await countUsers((await getDb()).db)) === 0;
  } catch {
    return false;
  }
}

async function principalOrNull(): Promise<Principal | null> {
  try {
    return await currentPrincipal();
  } catch {
    return null;
  }
}

export default async function Home() {
  const [health, corpora, setup, me] = await Promise.all([
    getHealth(),
    corporaOrNull(),
    needsSetup(),
    principalOrNull(),
  ]);
  return (
    <div className="space-y-10">
      <section className="space-y-3">
        <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">Check claims with debating AI agents.</h1>
        <p className="max-w-2xl text-lg text-black/70">
          Counterpoint is for fact-checkers, journalists and annotators: submit a claim, watch agents debate it over
          your own evidence, and review the verdict. Half-truths, literally accurate but misleading, are what it is
          built to catch.
        </p>
      </section>
      {setup ? (
        <section className="rounded-lg border-2 border-accent/40 bg-white p-5" data-testid="first-run">
          <h2 className="font-semibold">Welcome: create the first admin account</h2>
          <p className="mt-1 text-sm text-black/70">
            Nobody has an account yet.{" "}
            <Link href="/setup" className="font-medium underline">
              Set up Counterpoint
            </Link>{" "}
            with the setup code printed in the server&apos;s console.
          </p>
        </section>
      ) : corpora && me ? (
        <GetStarted corpora={corpora} me={me} />
      ) : corpora ? (
        <p className="rounded-lg border border-black/10 bg-white p-4 text-sm">
          <Link href="/signin" className="font-medium underline">
            Sign in
          </Link>{" "}
          with the account your newsroom gave you to check claims, read debates or label them.
        </p>
      ) : null}
      <ol className="grid gap-4 sm:grid-cols-3">
        {STEPS.map((s, i) => (
          <li key={s.title} className="rounded-lg border border-black/10 bg-white p-4">
            <p className="text-sm font-medium text-accent">Step {i + 1}</p>
            <h2 className="mt-1 font-semibold">{s.title}</h2>
            <p className="mt-2 text-sm text-black/70">{s.body}</p>
          </li>
        ))}
      </ol>
      {me ? (
        <p className="-mt-6 text-sm">
          <Link href="/methods" className="underline">
            How the four methods differ, and when to use which
          </Link>
        </p>
      ) : null}
      {/* Strangers see whether it works, not where its database lives or what is misconfigured. */}
      <StatusPanel health={me?.roles.includes("admin") ? health : publicHealth(health)} />
    </div>
  );
}
