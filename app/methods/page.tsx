import Link from "next/link";
import { pageReadDebates } from "@/lib/auth/server";
import { MethodSection, dollars } from "@/components/methods/method-section";
import { methodTexts } from "@/lib/methods/catalog";
import { methodFacts, PRICED_WITH } from "@/lib/methods/facts";

export const dynamic = "force-dynamic";
export const metadata = { title: "How the methods work" };

export default async function MethodsPage() {
  await pageReadDebates("/methods");
  const methods = methodTexts().map((text) => ({ text, facts: methodFacts(text.protocol) }));
  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight">How the methods work</h1>
        <p className="max-w-3xl text-sm text-black/70">
          Counterpoint checks a claim by having AI agents argue over evidence and a judge decide. Four published methods
          do this in different ways. They differ in what they suit, how long they argue and what they cost. You can run
          several on the same claim and compare them.
        </p>
      </header>

      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" data-testid="methods-summary">
        {methods.map(({ text, facts }) => (
          <li key={text.protocol} className="rounded-lg border border-black/10 bg-white p-4">
            <a href={`#${text.protocol}`} className="font-semibold underline-offset-2 hover:underline">
              {text.name}
            </a>
            <p className="mt-1 text-sm text-black/80">{text.bestFor}</p>
            <p className="mt-2 text-xs text-black/60">
              {facts.cost
                ? `About ${facts.cost.llmCalls} model calls per claim, ${dollars(facts.cost.usd)}`
                : "Cost counted as it runs"}
            </p>
          </li>
        ))}
      </ul>
      <p className="text-xs text-black/60">
        Costs are each method&apos;s own estimate at its default settings (every round run; for PROClaim, its
        paper&apos;s average length), priced with {PRICED_WITH.split(":")[1]} for every role; the form shows the
        estimate for the models you pick.{" "}
        <Link className="underline" href="/debates/new">
          Check a claim
        </Link>
        .
      </p>

      {methods.map(({ text, facts }) => (
        <MethodSection key={text.protocol} text={text} facts={facts} />
      ))}
    </div>
  );
}
