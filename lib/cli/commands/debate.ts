import fs from "node:fs";
import type { Command } from "commander";
import { getDb } from "@/db/client";
import { subscribe, type DebateEvent } from "@/lib/debate/events";
import { cancelDebate, runDebate } from "@/lib/debate/runner";
import { DebateRequestError } from "@/lib/debate/start";
import { OPERATOR, startDebate } from "@/lib/debate/start-service";
import { debateView } from "@/lib/debate/view";
import { DEFAULT_PROTOCOL, getProtocol, PROTOCOL_NAMES } from "@/lib/debate/protocols";
import { bold, dim, green, red, yellow } from "../output";
import { compareCommand } from "@/lib/cli/commands/compare";
import { MATCH_FLAGS_HELP, MatchedBeforeStart, matchOptions, printMatches, type MatchFlags } from "../match-first";
import { verdictText } from "../verdict-text";
import { findMethod, methodVariants } from "@/lib/debate/methods";

type Options = MatchFlags & {
  corpus?: string;
  goldFile?: string;
  articleFile?: string;
  title?: string;
  url?: string;
  date?: string;
  k: string;
  variant?: string;
  protocol?: string;
  preset?: string;
  config?: string;
  model: string[];
  rebuttals?: string;
  earlyStopping?: string;
  tauS?: string;
  tauV?: string;
  context?: string;
  resume?: string;
  queue?: boolean;
  json?: boolean;
  protocols?: string;
  presets?: string;
  ensemble?: string;
};

const collect = (value: string, previous: string[]) => [...previous, value];

/** Human-readable rendering of the same events the browser receives. */
function printer(method: string) {
  let open = false;
  return (e: DebateEvent) => {
    switch (e.type) {
      case "turn-start":
        if (e.turn.kind === "speech")
          process.stdout.write(`\n${bold(e.turn.role.toUpperCase())} ${dim(`· ${e.turn.phase}`)}\n`);
        else process.stdout.write(dim(`\n[${e.turn.role} · ${e.turn.phase}] `));
        open = true;
        break;
      case "delta":
        process.stdout.write(e.text);
        break;
      case "turn-reset":
        process.stdout.write(yellow(`\n(retrying after: ${e.error})\n`));
        break;
      case "turn-end":
        if (open)
          process.stdout.write(
            dim(
              `\n  ${e.turn.promptTokens + e.turn.completionTokens} tokens · ${(e.turn.latencyMs / 1000).toFixed(1)} s\n`,
            ),
          );
        open = false;
        break;
      case "turn-error":
        process.stdout.write(red(`\n  turn failed: ${e.error}\n`));
        break;
      case "note": {
        // The method says its own notes in words (RADAR: a checkpoint's scores and decision).
        const words = findMethod(method)?.noteWords?.(e.name, e.value);
        if (words) process.stdout.write(`\n${bold(words)}\n`);
        break;
      }
      case "verdict": {
        // The head now; the reason with the evidence it rests on once the debate's evidence is read back.
        const v = verdictText(method, e.verdict);
        process.stdout.write(
          `\n${bold("VERDICT")} ${v.head}${e.verdict.stoppedEarly ? dim(` · stopped after ${e.verdict.stopAfter}`) : ""}\n`,
        );
        break;
      }
      case "status":
        if (e.error) process.stdout.write(red(`\n${e.error}\n`));
        break;
    }
  };
}

/** The protocol and its settings: the preset's (which also names the protocol when none is given), then --config over it. */
function presetConfig(opts: Options): { protocol: string; config: Record<string, unknown> } {
  let protocol = opts.protocol ?? DEFAULT_PROTOCOL;
  let config: Record<string, unknown> = {};
  if (opts.preset) {
    const owner =
      opts.protocol ?? PROTOCOL_NAMES.find((n) => opts.preset! in getProtocol(n).presets) ?? DEFAULT_PROTOCOL;
    const presets = PROTOCOL_NAMES.includes(owner) ? getProtocol(owner).presets : {};
    if (!(opts.preset in presets))
      throw new Error(
        `--preset: protocol ${owner} has no preset "${opts.preset}"; choose one of: ${Object.keys(presets).join(", ") || "(none)"}.`,
      );
    protocol = owner;
    config = { ...presets[opts.preset] };
  }
  if (opts.config) {
    let extra: unknown;
    try {
      extra = JSON.parse(opts.config);
    } catch (e) {
      throw new Error(`--config must be a JSON object, e.g. '{"rounds":2}': ${(e as Error).message}`);
    }
    if (!extra || typeof extra !== "object" || Array.isArray(extra))
      throw new Error(`--config must be a JSON object, e.g. '{"rounds":2}'.`);
    config = { ...config, ...(extra as Record<string, unknown>) };
  }
  return { protocol, config };
}

export function register(program: Command) {
  program
    .command("debate")
    .description("Run a debate on a claim, streaming every turn, and store it like the app does.")
    .argument("[claim]", "the claim to check (omit with --resume)")
    .option("--corpus <name>", "retrieve evidence from this corpus")
    .option("--gold-file <file>", "use this file's paragraphs (blank-line separated) as the evidence instead")
    .option("--date <YYYY-MM-DD>", "when the claim was made (an article: published): later evidence is left out")
    .option("--article-file <file>", "ZoFia: the news article's body from this file, instead of the claim argument")
    .option("--title <text>", "ZoFia: the article's headline")
    .option("--url <address>", "the address where the claim or article appeared (stored with it)")
    .option("--k <n>", "passages to retrieve", "20")
    .option(
      "--protocol <name>",
      `debate protocol: ${PROTOCOL_NAMES.join(", ")} (default ${DEFAULT_PROTOCOL}, or the preset's)`,
    )
    .option("--preset <name>", "a protocol's named configuration, e.g. toolmad-fever or radar-position")
    .option("--config <json>", `protocol settings as a JSON object over the preset, e.g. '{"rounds":2,"gate":"off"}'`)
    .option(
      "--variant <name>",
      `a variant of the method that offers it: one of ${methodVariants().join(", ")} (default: its first)`,
    )
    .option(
      "--model <role=id>",
      "model for a role, e.g. judge=openai:gpt-4o (repeatable; default DEFAULT_MODEL)",
      collect,
      [],
    )
    .option("--rebuttals <n>", "rebuttal rounds (default 1)")
    .option("--early-stopping <mode>", "on, off or score-only")
    .option("--tau-s <x>", "stop-margin threshold")
    .option("--tau-v <x>", "confidence threshold")
    .option("--context <mode>", "paper or full")
    .option("--resume <debateId>", "continue an interrupted or failed debate from its last finished turn")
    .option(
      "--queue",
      "PostgreSQL: store the debate and queue it for the workers (`counterpoint worker`, or an app server's in-process worker), print its id and return, instead of running it here",
    )
    .option("--json", "print the events as JSON lines, then the stored debate")
    .option(
      "--protocols <list>",
      "compare methods: run the claim through several protocols at once, e.g. radar,tool-mad,zofia,proclaim (stored as one comparison)",
    )
    .option(
      "--presets <list>",
      "with --protocols: a preset per protocol, in order, - for its defaults, e.g. -,toolmad-fever,-,single-judge",
    )
    .option("--ensemble <method>", "with --protocols: add an ensemble verdict, majority or confidence-weighted")
    // Claim matching first, as the forms do (lib/cli/match-first.ts).
    .option("--no-match", MATCH_FLAGS_HELP.noMatch)
    .option("--attach-matches", MATCH_FLAGS_HELP.attachMatches)
    .option("--debate-anyway", MATCH_FLAGS_HELP.debateAnyway)
    .option("--match-threshold <x>", MATCH_FLAGS_HELP.matchThreshold)
    .action(async (claim: string | undefined, opts: Options) => {
      const handle = await getDb();
      const { db } = handle;
      if (opts.queue && handle.backend !== "postgres")
        throw new Error(
          "--queue needs PostgreSQL (DATABASE_URL): on the embedded database only this process can run the debate, so run it without --queue.",
        );
      // In the foreground on PostgreSQL this process's model calls count against the global provider limits too (lib/process/services.ts).
      if (opts.protocols) {
        if (opts.resume || opts.goldFile || opts.preset || opts.protocol)
          throw new Error(
            "--protocols compares methods on one claim and a corpus; it does not take --resume, --gold-file, --protocol or --preset (use --presets).",
          );
        if (opts.articleFile) {
          if (claim) throw new Error("Give the article either as the argument or with --article-file, not both.");
          claim = fs.readFileSync(opts.articleFile, "utf8");
        }
        if (!claim) throw new Error("Give the claim to check.");
        const models: Record<string, string> = {};
        for (const m of opts.model) {
          const eq = m.indexOf("=");
          if (eq < 1) throw new Error(`--model takes role=id, got "${m}"`);
          models[m.slice(0, eq)] = m.slice(eq + 1);
        }
        const view = await compareCommand(
          handle,
          {
            claim,
            title: opts.title,
            claimDate: opts.date,
            url: opts.url,
            corpus: opts.corpus,
            protocols: opts.protocols,
            presets: opts.presets,
            ensemble: opts.ensemble,
            models,
          },
          { queue: opts.queue, json: opts.json, match: opts },
        );
        if (!opts.queue && view.members.some((m) => m.status !== "completed")) process.exitCode = 1;
        return;
      }
      if (opts.presets || opts.ensemble)
        throw new Error("--presets and --ensemble go with --protocols (comparing methods).");
      let id = opts.resume;
      if (!id) {
        if (opts.articleFile) {
          if (claim) throw new Error("Give the article either as the argument or with --article-file, not both.");
          claim = fs.readFileSync(opts.articleFile, "utf8");
        }
        if (!claim) throw new Error("Give the claim to check, or --resume <debateId>.");
        const models: Record<string, string> = {};
        for (const m of opts.model) {
          const eq = m.indexOf("=");
          if (eq < 1) throw new Error(`--model takes role=id, got "${m}"`);
          models[m.slice(0, eq)] = m.slice(eq + 1);
        }
        const num = (v?: string) => (v === undefined ? undefined : Number(v));
        // Only what was given: the protocol's own schema fills in its defaults and refuses what it does not know.
        const { protocol, config } = presetConfig(opts);
        // Protocols that search during the debate (ZoFia) may start with no corpus; the others need evidence.
        const searchesItself = PROTOCOL_NAMES.includes(protocol) && getProtocol(protocol).upfrontEvidence === false;
        if (!opts.corpus && !opts.goldFile && !searchesItself)
          throw new Error("Say where the evidence comes from: --corpus <name> or --gold-file <file>.");
        if (opts.variant) config.variant = opts.variant;
        if (opts.rebuttals !== undefined) config.rebuttals = num(opts.rebuttals);
        if (opts.earlyStopping) config.earlyStopping = opts.earlyStopping;
        if (opts.context) config.context = opts.context;
        if (opts.tauS !== undefined || opts.tauV !== undefined)
          config.thresholds = { tauS: num(opts.tauS), tauV: num(opts.tauV) };
        const request = {
          claim,
          claimDate: opts.date,
          title: opts.title,
          url: opts.url,
          evidence: opts.goldFile
            ? { mode: "gold" as const, text: fs.readFileSync(opts.goldFile, "utf8") }
            : opts.corpus
              ? { mode: "retrieved" as const, corpus: opts.corpus, k: Number(opts.k) }
              : { mode: "none" as const },
          protocol,
          config,
          models,
        };
        // Checks, claim matching, storage and the queue as every entry point does them
        // (lib/debate/start-service.ts); a foreground debate is run below, in this process.
        const queue = opts.queue ? (await import("@/lib/debate/queue")).debateQueue(handle) : null;
        try {
          const outcome = await startDebate(OPERATOR, request, {
            handle,
            ...matchOptions(opts),
            start: async (debateId) => {
              if (queue) await queue.enqueue(debateId);
            },
          });
          if (outcome.kind === "matched") {
            printMatches(outcome.step, opts.date, !!opts.json);
            throw new MatchedBeforeStart(outcome.step.matches.length);
          }
          if (outcome.matched) printMatches(outcome.matched, opts.date, !!opts.json);
          id = outcome.id;
        } catch (e) {
          if (e instanceof DebateRequestError) throw new Error(`${e.field ? `${e.field}: ` : ""}${e.message}`);
          throw e;
        } finally {
          await queue?.close();
        }
        if (opts.queue) {
          process.stdout.write(
            opts.json ? `${JSON.stringify({ debate: id, type: "queued" })}\n` : `debate ${id} queued\n`,
          );
          return;
        }
      }
      if (opts.queue) {
        // --resume --queue: the debate goes back to the workers.
        const { debateQueue, resumeDebate } = await import("@/lib/debate/queue");
        const queue = debateQueue(handle);
        try {
          const r = await resumeDebate(handle, id);
          if (!r.ok) throw new Error(r.error);
        } finally {
          await queue.close();
        }
        process.stdout.write(
          opts.json ? `${JSON.stringify({ debate: id, type: "queued" })}\n` : `debate ${id} queued\n`,
        );
        return;
      }
      const method = (await debateView(db, id))?.protocol ?? DEFAULT_PROTOCOL;
      const print = opts.json
        ? (e: DebateEvent) => process.stdout.write(`${JSON.stringify({ debate: id, ...e })}\n`)
        : printer(method);
      if (!opts.json) process.stdout.write(dim(`debate ${id}\n`));
      const unsubscribe = subscribe(id, print);
      // Ctrl-C stops the debate cleanly: finished turns stay, the debate is marked cancelled.
      const onSigint = () => void cancelDebate(db, id!);
      process.once("SIGINT", onSigint);
      // On PostgreSQL a Stop pressed on any app server takes effect at the next turn, not only at the next heartbeat.
      const outcome = await runDebate(db, id, { checkClaimEachTurn: handle.backend === "postgres" });
      process.off("SIGINT", onSigint);
      unsubscribe();
      if (outcome.status === "skipped") throw new Error(`Debate ${id} was not run: ${outcome.error}`);
      const view = await debateView(db, id);
      if (opts.json) process.stdout.write(`${JSON.stringify({ debate: id, type: "result", result: view })}\n`);
      else {
        if (view?.verdict) {
          const v = verdictText(view.protocol, view.verdict, view.turns, view.evidence);
          if (v.reason) process.stdout.write(`\n${v.note ? `${dim(v.note)}\n` : ""}${v.reason}\n`);
          if (v.restsOn.length) process.stdout.write(dim(`Rests on: ${v.restsOn.join("; ")}\n`));
        }
        process.stdout.write(
          `\n${outcome.status === "completed" ? green("✔ completed") : yellow(outcome.status)} · ${view?.totals.calls} model calls · ${(view?.totals.promptTokens ?? 0) + (view?.totals.completionTokens ?? 0)} tokens${view?.totals.costUsd != null ? ` · $${view.totals.costUsd.toFixed(4)}` : ""}\n`,
        );
      }
      if (outcome.status !== "completed") process.exitCode = 1;
    });
}
