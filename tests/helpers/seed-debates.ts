import { randomUUID } from "node:crypto";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";

export type SeedOptions = {
  count: number;
  /** Verdict label per debate index; defaults cycle through the three labels. */
  label?: (i: number) => string;
  corpusId?: string | null;
  evalRunId?: string | null;
  variant?: string;
  dataset?: string | null;
  /** Rows per INSERT: big enough to be fast, small enough to stay under the bind-parameter limit. */
  batch?: number;
};

const LABELS = ["TRUE", "HALF-TRUE", "FALSE"];

/**
 * Finished debates written straight to the tables (no model involved): claim, two evidence
 * passages, four speeches, a checkpoint and a final verdict, as the runner would leave them.
 */
export async function seedDebates(db: Database, opts: SeedOptions): Promise<string[]> {
  const ids: string[] = [];
  const batch = opts.batch ?? 500;
  const t0 = Date.parse("2024-01-01T00:00:00Z");
  for (let start = 0; start < opts.count; start += batch) {
    const n = Math.min(batch, opts.count - start);
    const claims: (typeof s.claims.$inferInsert)[] = [];
    const debates: (typeof s.debates.$inferInsert)[] = [];
    const evidence: (typeof s.debateEvidence.$inferInsert)[] = [];
    const turns: (typeof s.turns.$inferInsert)[] = [];
    const notes: (typeof s.debateNotes.$inferInsert)[] = [];
    const verdicts: (typeof s.verdicts.$inferInsert)[] = [];
    for (let k = 0; k < n; k++) {
      const i = start + k;
      const claimId = randomUUID();
      const debateId = randomUUID();
      const created = new Date(t0 + i * 60_000);
      ids.push(debateId);
      claims.push({
        id: claimId,
        text: `Claim number ${i}: the council spent ${i % 97} million on roads in 2023.`,
        claimDate: new Date(t0 - 86_400_000),
        speaker: i % 2 ? "A. Politician" : null,
        appearanceUrl: i % 3 === 0 ? `https://example.org/speech/${i}` : null,
        dataset: opts.dataset ?? null,
        datasetClaimId: opts.dataset ? `c${i}` : null,
        nativeLabel: opts.dataset ? ["true", "half-true", "pants-fire"][i % 3]! : null,
        createdAt: created,
      });
      debates.push({
        id: debateId,
        claimId,
        protocol: "radar",
        variant: opts.variant ?? "expertise",
        status: "completed",
        config: { rounds: 2 },
        models: { judge: "openai:gpt-4o-mini" },
        evidenceMode: "gold",
        corpusId: opts.corpusId ?? null,
        evalRunId: opts.evalRunId ?? null,
        createdAt: created,
        startedAt: created,
        finishedAt: new Date(created.getTime() + 30_000),
      });
      evidence.push(
        {
          debateId,
          rank: 1,
          source: "gold",
          externalId: `e${i}-1`,
          text: `The council's 2023 budget lists ${i % 97} million for roads.`,
        },
        {
          debateId,
          rank: 2,
          source: "gold",
          externalId: `e${i}-2`,
          text: "Half of the road budget was carried over from 2022.",
        },
      );
      const roles = ["politician", "scientist", "politician", "scientist"];
      roles.forEach((role, seq) =>
        turns.push({
          debateId,
          seq: seq + 1,
          round: seq < 2 ? 0 : 1,
          phase: seq < 2 ? "opening" : "rebuttal-1",
          role,
          kind: "speech",
          content: `${role} argues point ${seq + 1} about claim ${i} [E${(seq % 2) + 1}].`,
          model: "openai:gpt-4o-mini",
          promptTokens: 400,
          completionTokens: 120,
          costUsd: 0.0001,
          latencyMs: 1500,
          citations: [(seq % 2) + 1],
        }),
      );
      // RADAR's checkpoint, as the engine stores a method note.
      notes.push({
        debateId,
        kind: "checkpoint",
        key: "opening",
        value: {
          after: "opening",
          round: 0,
          pStop: 0.3,
          pContinue: 0.7,
          stopMargin: -0.4,
          labelProbs: { TRUE: 0.2, "HALF-TRUE": 0.6, FALSE: 0.2 },
          confidence: 0.6,
          verdict: "HALF-TRUE",
          decision: "continue",
          scoringMethod: "logprobs",
        },
      });
      const label = opts.label ? opts.label(i) : LABELS[i % 3]!;
      verdicts.push({
        debateId,
        label,
        reason: `The evidence shows claim ${i} is ${label}.`,
        confidence: 0.8,
        roundsCompleted: 2,
      });
    }
    await db.insert(s.claims).values(claims);
    await db.insert(s.debates).values(debates);
    await db.insert(s.debateEvidence).values(evidence);
    await db.insert(s.turns).values(turns);
    await db.insert(s.debateNotes).values(notes);
    await db.insert(s.verdicts).values(verdicts);
  }
  return ids;
}
