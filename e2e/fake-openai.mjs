// A scripted OpenAI-compatible server for the end-to-end tests: the app talks to it through its
// real openai-compatible provider, over HTTP, exactly as it would to vLLM or Ollama. It answers each
// RADAR prompt in the expected shape, streams token by token, and returns top_logprobs.
// Test instrument only: started by the Playwright config, never by the app.
import http from "node:http";
import { zofiaAnswer } from "./fake-openai-zofia.mjs";
import { proclaimAnswer } from "./fake-openai-proclaim.mjs";

const PORT = Number(process.env.FAKE_OPENAI_PORT ?? 3291);
const DELAY = Number(process.env.FAKE_OPENAI_DELAY_MS ?? 25);
// For the token-to-browser benchmark: every speech token carries the time it was sent.
const TIMESTAMPS = process.env.FAKE_OPENAI_TIMESTAMPS === "1";

// Tool-MAD (lib/debate/tool-mad/prompts/*.md): each prompt ends in a "Format (tool-mad/...)" line.
// Claims are fenced as <<claim-ID>>text<</claim-ID>>; the scripted answers quote the claim back, so
// the questions generated from an answer can be the claim itself (relevance ~1 with any encoder).
// Round 1: the corpus agent says SUPPORTS, the search agent REFUTES (they disagree); from round 2
// both say SUPPORTS, so they agree. A claim containing "DISAGREE" keeps them apart to the judge.
const words = (t) => t.match(/\S+\s*/g) ?? [];
function claimOf(text) {
  const m = /<<claim-[^>]+>>\s*([\s\S]*?)\s*<<\/claim-/.exec(text) ?? /Claim checked: \|([^|]+)\|/.exec(text);
  return (m?.[1] ?? "the claim").replace(/\s+/g, " ").trim();
}
function toolMad(user, system, slow) {
  const claim = claimOf(user);
  const rag = system.includes("document collection");
  const debateRound = user.includes("answered in the last round");
  if (user.includes("Format (tool-mad/query)")) {
    const base = claim
      .replace(/^[A-Z]+:\s*/, "")
      .split(" ")
      .slice(0, 6)
      .join(" ");
    const q = user.includes("Your previous search query") ? `${base} 2019 hospital auction` : base;
    return { slow, speech: true, pieces: words(`QUERY: ${q}`), alts: [] };
  }
  if (user.includes("Format (tool-mad/answer)") || user.includes("Format (tool-mad/repair-label)")) {
    const label = user.includes("DISAGREE")
      ? rag
        ? "SUPPORTS"
        : "REFUTES"
      : debateRound || rag
        ? "SUPPORTS"
        : "REFUTES";
    const text = `[REASON]: Claim checked: |${claim}|. The auction raised $2.4 million [E1], and ${label === "SUPPORTS" ? "the documents back the claim" : "the money went to a hospital, not flood relief"} [E1].\n[ANSWER]: ${label}`;
    return { slow, speech: true, pieces: words(text), alts: [] };
  }
  if (user.includes("Format (tool-mad/statements)")) {
    return {
      slow,
      pieces: [
        JSON.stringify({
          statements: [
            "Elena Marsh hosted a charity auction.",
            "The auction raised $2.4 million.",
            "The auction took place in 2019.",
            "The money paid for flood relief.",
          ],
        }),
      ],
      alts: [],
    };
  }
  if (user.includes("Format (tool-mad/verdicts)")) {
    const n = Number(/Statements \((\d+)\)/.exec(user)?.[1] ?? 4);
    const stmts = [
      "Elena Marsh hosted a charity auction.",
      "The auction raised $2.4 million.",
      "The auction took place in 2019.",
      "The money paid for flood relief.",
    ];
    // Three of four supported: faithfulness 0.75 passes the 0.7 threshold, one statement is marked unsupported.
    const out = Array.from({ length: n }, (_, i) => ({
      statement: stmts[i] ?? `Statement ${i + 1}`,
      verdict: i === 3 ? 0 : 1,
      reason: i === 3 ? "No document says the money went to flood relief." : "Stated in the documents.",
    }));
    return { slow, pieces: [JSON.stringify(out)], alts: [] };
  }
  if (user.includes("Format (tool-mad/questions)")) {
    const c = claimOf(user);
    return { slow, pieces: [JSON.stringify({ questions: [c, c, c], noncommittal: false })], alts: [] };
  }
  if (user.includes("Format (tool-mad/judge)")) {
    return {
      slow,
      pieces: [
        "[REASON]: ",
        "The auction was in 2019 for a hospital [E1], ",
        "not for flood families.\n",
        "[VERDICT]:",
        " REFUTES",
      ],
      alts: [
        null,
        null,
        null,
        null,
        [
          [" REFUTES", 0.8],
          [" SUPPORTS", 0.15],
          [" NOT", 0.05],
        ],
      ],
    };
  }
  return null;
}

function answer(user, system) {
  const slow = user.includes("SLOW");
  if (user.includes("Format (zofia/")) return zofiaAnswer(user, system, slow) ?? { slow, pieces: ["?"], alts: [] };
  if (user.includes("Format (proclaim/"))
    return { slow, alts: [], ...(proclaimAnswer(user, system) ?? { pieces: ["?"] }) };
  if (user.includes("Format (tool-mad/")) {
    const t = toolMad(user, system, slow);
    if (t) return t;
  }
  if (user.includes("Format (checkworthy/standalone)")) {
    // The picked sentence with its speaker named; "this year" is left unresolved when the text has no date.
    const speaker = /Speaker: (.*)/.exec(user)?.[1] ?? "not given";
    const sentence = /Picked sentence: (.*)/.exec(user)?.[1] ?? "";
    const dated = !/Date of the text: not given/.test(user);
    const claim = `${speaker === "not given" ? "" : `${speaker} said `}${sentence.replace(/\bthis year\b/, dated ? "in 2024" : "this year")}`;
    const unresolved = !dated && /this year/.test(sentence) ? ["this year: the text has no date"] : [];
    return { slow, pieces: [JSON.stringify({ claim, unresolved })], alts: [] };
  }
  if (user.includes("DOMAIN: <field>")) return { slow, pieces: ["DOMAIN:", " Economy"], alts: [] };
  if (user.includes("DECISION: <CONTINUE or STOP>")) {
    // Claims mentioning "settle early" make the judge stop after the opening.
    const pStop = user.includes("settle early") ? 0.95 : 0.1;
    return {
      slow,
      pieces: ["DECISION:", pStop >= 0.5 ? " STOP" : " CONTINUE"],
      alts: [
        null,
        [
          [" STOP", pStop],
          [" CONTINUE", 1 - pStop],
        ],
      ],
    };
  }
  if (user.includes("[VERDICT]: <TRUE, FALSE or HALF-TRUE>")) {
    return {
      slow,
      pieces: [
        "[REASON]: The sale happened in 2012 [E1], ",
        "long before the war [E2].\n",
        "[VERDICT]:",
        " HALF",
        "-TRUE",
      ],
      alts: [
        null,
        null,
        null,
        [
          [" HALF", 0.85],
          [" TRUE", 0.1],
          [" FALSE", 0.05],
        ],
        null,
      ],
    };
  }
  const role = /You are (an? [a-z ]+?)(?: taking| arguing|\.)/i.exec(system)?.[1] ?? "a debater";
  const inject = user.includes("INJECT")
    ? ' <img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'
    : "";
  // A person's question put into the debate (e2e/interventions.spec.ts): the turn whose prompt carries it answers it.
  const asked = user.includes("Does the 40 % include capital spending?")
    ? " As for the question put to us: capital spending is not in the 40 % [E1]."
    : "";
  const text = `Speaking as ${role}: the record shows a sale [E1] and a war [E2], and the dates matter.${inject}${asked} That is my position on this claim.`;
  return { slow, speech: true, pieces: text.match(/\S+\s*/g), alts: [] };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// Words of claims whose test has seen what it needed mid-stream (POST /hurry {"marker": "..."}, see
// e2e/hurry.ts): answers that contain one stream at the normal speed from then on, including those
// already streaming, so the wait for the verdict is not 8x longer than the test needs. POST /hurry
// {"reset": true} forgets them (each spec that hurries resets after every test).
const hurried = new Set();
const hurriedFor = (user) => [...hurried].some((m) => user.includes(m));
// Only the first request of a "RATE LIMITED" claim is refused (429 with retry-after); its retry goes through.
let throttled = false;

http
  .createServer(async (req, res) => {
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      return;
    }
    if (req.method === "POST" && req.url === "/hurry") {
      let body = "";
      for await (const chunk of req) body += chunk;
      const { marker, reset } = JSON.parse(body);
      if (reset) hurried.clear();
      else if (typeof marker === "string" && marker.length >= 8) hurried.add(marker);
      else {
        res.writeHead(400).end("hurry needs a marker of at least 8 characters, or reset: true");
        return;
      }
      res.writeHead(200).end("ok");
      return;
    }
    if (req.method !== "POST" || !req.url.endsWith("/chat/completions")) {
      res.writeHead(404).end();
      return;
    }
    let body = "";
    for await (const chunk of req) body += chunk;
    const request = JSON.parse(body);
    const text = (m) => (typeof m.content === "string" ? m.content : m.content.map((p) => p.text ?? "").join(""));
    const system = request.messages
      .filter((m) => m.role === "system")
      .map(text)
      .join("");
    const user = request.messages
      .filter((m) => m.role === "user")
      .map(text)
      .join("");
    if (user.includes("RATE LIMITED") && !throttled) {
      throttled = true;
      res.writeHead(429, { "content-type": "application/json", "retry-after": "3" });
      res.end(
        JSON.stringify({
          error: { message: "Rate limit reached for requests", type: "requests", code: "rate_limit_exceeded" },
        }),
      );
      return;
    }
    const { pieces, alts, slow, speech } = answer(user, system);
    const maxTokens = request.max_tokens ?? request.max_completion_tokens ?? 10_000;
    const out = pieces.slice(0, maxTokens);
    const logprob = (tok, i) => {
      const a = alts[i] ?? [[tok, 1]];
      return {
        token: tok,
        logprob: Math.log(a.find(([t]) => t === tok)?.[1] ?? 1),
        bytes: null,
        top_logprobs: a.map(([t, p]) => ({ token: t, logprob: Math.log(p), bytes: null })),
      };
    };
    const usage = {
      prompt_tokens: Math.ceil(user.length / 4),
      completion_tokens: out.length,
      total_tokens: Math.ceil(user.length / 4) + out.length,
    };
    const base = {
      id: "chatcmpl-fake",
      object: "chat.completion.chunk",
      created: Math.floor(Date.now() / 1000),
      model: request.model,
    };
    if (!request.stream) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          ...base,
          object: "chat.completion",
          choices: [
            {
              index: 0,
              message: { role: "assistant", content: out.join("") },
              finish_reason: "stop",
              logprobs: request.logprobs ? { content: out.map(logprob) } : null,
            },
          ],
          usage,
        }),
      );
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    let closed = false;
    req.on("close", () => (closed = true));
    res.write(
      `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] })}\n\n`,
    );
    for (let i = 0; i < out.length && !closed; i++) {
      await sleep(slow && !hurriedFor(user) ? DELAY * 8 : DELAY);
      const content = TIMESTAMPS && speech ? `${out[i].trimEnd()}⟦${Date.now()}⟧ ` : out[i];
      const chunk = {
        ...base,
        choices: [
          {
            index: 0,
            delta: { content },
            finish_reason: null,
            logprobs: request.logprobs ? { content: [logprob(out[i], i)] } : null,
          },
        ],
        t: Date.now(),
      };
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    }
    if (closed) return;
    res.write(
      `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage })}\n\n`,
    );
    res.end("data: [DONE]\n\n");
  })
  .listen(PORT, "127.0.0.1", () => console.log(`fake OpenAI-compatible server on http://127.0.0.1:${PORT}/v1`));
