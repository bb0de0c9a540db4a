import Link from "next/link";
import { getDb } from "@/db/client";
import { listCorpora } from "@/db/queries/corpus";
import { pagePermission } from "@/lib/auth/server";
import { getHealth } from "@/lib/health";
import { LoadDemoButton } from "@/components/corpus/load-demo-button";
import { SAMPLE_CLAIMS, SAMPLE_CORPUS_NAME } from "@/lib/corpus/sample";
import { plural } from "@/lib/plural";
import { localSetupState } from "@/lib/ai/local-model-setup";
import { LocalModelSetup } from "@/components/welcome/local-model-setup";
import { localModelProgressAction, startLocalModelAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Welcome: what to do next" };

/** The ways to give the server a language model, each with the exact variables to set. */
const MODEL_RECIPES: Array<{ title: string; lines: string[] }> = [
  { title: "OpenAI", lines: ["DEFAULT_MODEL=openai:gpt-4o-mini", "OPENAI_API_KEY=sk-..."] },
  { title: "Anthropic", lines: ["DEFAULT_MODEL=anthropic:claude-haiku-4-5", "ANTHROPIC_API_KEY=sk-ant-..."] },
  {
    title: "A model on your own server (Ollama, vLLM, llama.cpp: anything that speaks the OpenAI API)",
    lines: [
      "DEFAULT_MODEL=openai-compatible:ollama",
      "OPENAI_COMPATIBLE_OLLAMA_BASE_URL=http://127.0.0.1:11434/v1",
      "OPENAI_COMPATIBLE_OLLAMA_MODEL=llama3.1:8b",
    ],
  },
  {
    title: "A small model on the server itself (downloaded on first use)",
    lines: ["DEFAULT_MODEL=local:qwen2.5-1.5b-instruct-q4_k_m"],
  },
];

function Step({ n, title, done, children }: { n: number; title: string; done: boolean; children: React.ReactNode }) {
  return (
    <li
      className={`rounded-lg border bg-white p-4 ${done ? "border-emerald-600/30" : "border-2 border-accent/40"}`}
      data-testid={`welcome-step-${n}`}
      data-done={done}
    >
      <p className="text-sm font-medium text-accent">
        Step {n} · {done ? <span className="text-emerald-800">done</span> : <span>to do</span>}
      </p>
      <h2 className="mt-1 font-semibold">{title}</h2>
      <div className="mt-2 space-y-2 text-sm text-black/80">{children}</div>
    </li>
  );
}

/**
 * Where the first admin lands after set-up: the three things between an empty install and a first
 * verdict, in the order they must happen, each saying whether it is done and how to do it.
 */
export default async function WelcomePage() {
  await pagePermission("admin", "/welcome");
  const [{ db }, health] = await Promise.all([getDb(), getHealth()]);
  const [corpora, localSetup] = await Promise.all([listCorpora(db), localSetupState(db)]);
  const ready = corpora.filter((c) => c.passages > 0);
  const demo = ready.find((c) => c.name === SAMPLE_CORPUS_NAME);
  const models = health.llms.filter((m) => m.ready);
  const evidenceDone = ready.length > 0;
  const modelDone = models.length > 0;
  const claim = demo ? SAMPLE_CLAIMS[0]!.text : undefined;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Your account is ready. Three steps to a first verdict</h1>
      <ol className="space-y-4">
        <Step n={1} title="Give it evidence: load the demo corpus or upload your own documents" done={evidenceDone}>
          {evidenceDone ? (
            <p>
              {plural(ready.length, "corpus", "corpora")} with passages:{" "}
              {ready.map((c) => `${c.name} (${plural(c.passages, "passage")})`).join(", ")}.{" "}
              <Link href="/corpora" className="underline">
                Add more on the Corpora page
              </Link>
              .
            </p>
          ) : corpora.length > 0 ? (
            <p>
              {corpora.map((c) => c.name).join(", ")} {corpora.length === 1 ? "has" : "have"} no passages yet.{" "}
              <Link href={`/corpora/${encodeURIComponent(corpora[0]!.name)}`} className="font-medium underline">
                Follow the load or add documents
              </Link>
              .
            </p>
          ) : (
            <>
              <p>
                Debates argue over passages from a corpus. The demo (thirty short fictional news items) loads in
                seconds; your own documents (PDF, HTML, Markdown, text, CSV, JSON Lines) go on the Corpora page.
              </p>
              <div className="flex flex-wrap items-center gap-4">
                <LoadDemoButton />
                <Link href="/corpora" className="font-medium underline">
                  Create a corpus and upload documents
                </Link>
              </div>
            </>
          )}
        </Step>

        <Step n={2} title="Configure a language model" done={modelDone}>
          {modelDone ? (
            <p>
              Ready: <code className="break-all">{models.map((m) => m.id).join(", ")}</code>. To change it or offer more
              models in the forms, use{" "}
              <Link href="/admin#models" className="underline">
                Language models on the Admin page
              </Link>{" "}
              (no restart).
            </p>
          ) : (
            <>
              {health.llms.length ? (
                <ul className="list-disc pl-5 text-red-900">
                  {health.llms.map((m) => (
                    <li key={m.id} className="break-words">
                      {m.id}: {m.problem}
                    </li>
                  ))}
                </ul>
              ) : (
                <p>No language model is configured, so debates cannot run yet.</p>
              )}
              <LocalModelSetup initial={localSetup} start={startLocalModelAction} progress={localModelProgressAction} />
              <p>
                <Link href="/admin#models" className="font-medium underline">
                  Choose a provider and model on the Admin page
                </Link>
                : paste a key (OpenAI, Anthropic) or the address of your own model server; it is checked with a
                one-token call and in use at once, no restart.
              </p>
              <p>
                Or set these variables in the server&apos;s environment (or in a <code>.env</code> file where it
                starts), then restart it. Choose one:
              </p>
              <ul className="space-y-2">
                {MODEL_RECIPES.map((r) => (
                  <li key={r.title}>
                    <p className="font-medium">{r.title}</p>
                    <code className="mt-0.5 block whitespace-pre-wrap break-all rounded bg-black/5 p-1.5 font-mono text-xs">
                      {r.lines.join("\n")}
                    </code>
                  </li>
                ))}
              </ul>
              <p>
                <code>npx counterpoint doctor</code> then checks that the model answers.
              </p>
            </>
          )}
        </Step>

        <Step n={3} title="Start a first debate" done={false}>
          {evidenceDone && modelDone ? (
            <>
              <p>
                {claim ? (
                  <>
                    Try the demo&apos;s claim: “{claim}” The form opens with it filled in; the debate streams live and
                    ends with a verdict.
                  </>
                ) : (
                  "Write a claim, choose the corpus and start; the debate streams live and ends with a verdict."
                )}
              </p>
              <Link
                href={claim ? `/debates/new?claim=${encodeURIComponent(claim)}` : "/debates/new"}
                className="inline-block rounded-md bg-ink px-4 py-2 font-medium text-white hover:bg-black"
              >
                Start a first debate
              </Link>
            </>
          ) : (
            <p>
              Once {!evidenceDone && !modelDone ? "steps 1 and 2 are" : !evidenceDone ? "step 1 is" : "step 2 is"} done,
              this opens the debate form{evidenceDone ? "" : " (or paste evidence into the form yourself)"}.{" "}
              <Link href="/debates/new" className="underline">
                The debate form
              </Link>
            </p>
          )}
        </Step>
      </ol>
      <p className="text-sm text-black/70">
        Afterwards:{" "}
        <Link href="/admin" className="underline">
          invite colleagues
        </Link>{" "}
        (journalists, fact-checkers, annotators) and set who may read what on the Admin page, or{" "}
        <Link href="/methods" className="underline">
          read how the four methods differ
        </Link>
        .
      </p>
    </div>
  );
}
