import { StatusPanel } from "@/components/status-panel";
import { getHealth } from "@/lib/health";

export const dynamic = "force-dynamic";

const STEPS = [
  {
    title: "Evidence from your corpus",
    body: "Counterpoint retrieves the passages that bear on a claim from documents your newsroom controls, stored in PostgreSQL with pgvector.",
  },
  {
    title: "Agents debate it",
    body: "A Politician and a Scientist argue over the same numbered evidence; one builds the case, the other looks for what is missing.",
  },
  {
    title: "A judge decides",
    body: "TRUE, HALF-TRUE or FALSE, with the reason, stopping early once confident. Every turn and score is saved for review.",
  },
];

export default async function Home() {
  const health = await getHealth();
  return (
    <div className="space-y-10">
      <section className="space-y-3">
        <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">Check claims with debating AI agents.</h1>
        <p className="max-w-2xl text-lg text-black/70">
          Counterpoint is for fact-checkers, journalists and annotators: submit a claim, watch agents debate it over your own
          evidence, and review the verdict. Half-truths, literally accurate but misleading, are what it is built to catch.
        </p>
      </section>
      <ol className="grid gap-4 sm:grid-cols-3">
        {STEPS.map((s, i) => (
          <li key={s.title} className="rounded-lg border border-black/10 bg-white p-4">
            <p className="text-sm font-medium text-accent">Step {i + 1}</p>
            <h2 className="mt-1 font-semibold">{s.title}</h2>
            <p className="mt-2 text-sm text-black/70">{s.body}</p>
          </li>
        ))}
      </ol>
      <StatusPanel health={health} />
    </div>
  );
}
