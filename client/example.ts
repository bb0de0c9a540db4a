import { fileURLToPath } from "node:url";
import { EventSource } from "eventsource";
import { type components, createCounterpointClient } from "./counterpoint-api";

/** Starts a debate on a claim, follows it live until it ends, and returns its verdict. */
export async function checkClaim(baseUrl: string, token: string, claim: string, evidence: string) {
  const api = createCounterpointClient(baseUrl, token);

  // Start it. The Idempotency-Key makes a retry of this request safe: it never starts (or pays) twice.
  const started = await api.POST("/api/v1/debates", {
    body: { claim, evidence, earlierChecks: "debate-anyway" },
    params: { header: { "Idempotency-Key": crypto.randomUUID() } },
  });
  if (!started.data) throw new Error(started.error.error.message);
  const { id, links } = started.data;

  // Follow its events (server-sent events, with the token) until the stream says it has ended.
  await new Promise<void>((resolve, reject) => {
    const events = new EventSource(links.events!, {
      fetch: (url, init) => fetch(url, { ...init, headers: { ...init.headers, Authorization: `Bearer ${token}` } }),
    });
    events.addEventListener("debate", (e) => {
      const event = JSON.parse(e.data) as components["schemas"]["DebateEvent"];
      if (event.type === "turn-end") console.log(`${event.turn.role}: ${event.turn.phase} done`);
    });
    events.addEventListener("end", () => {
      events.close();
      resolve();
    });
    events.addEventListener("error", (e) => {
      events.close();
      reject(new Error(`the event stream failed: ${e.message ?? "no answer"}`));
    });
  });

  // Read the verdict: the product's label, the method's own and one plain sentence of reason.
  const debate = await api.GET("/api/v1/debates/{id}", { params: { path: { id } } });
  if (!debate.data) throw new Error(debate.error.error.message);
  return debate.data.verdict;
}

// `CP=http://localhost:3000 TOKEN=cp_... npx tsx client/example.ts "The claim." "A passage of evidence."`
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [claim = "", evidence = ""] = process.argv.slice(2);
  console.log(await checkClaim(process.env.CP ?? "http://localhost:3000", process.env.TOKEN ?? "", claim, evidence));
}
