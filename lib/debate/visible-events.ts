import type { DebateEvent, LiveTurn } from "./events";

/**
 * The live half of "without the judge" (lib/annotation/judge-reveal.ts withoutJudge is the
 * snapshot half): for a viewer who may not see the verdict (lib/auth/visibility.ts), only the
 * debaters' speeches go out, without the judge's scores; verdicts, method notes (RADAR's
 * checkpoints: the judge's scores between rounds) and every turn
 * that is not a speech (judging, scoring) are dropped, deltas included.
 */
export function judgeFreeFilter(live: readonly LiveTurn[]) {
  const hidden = new Set(live.filter((t) => t.turn.kind !== "speech").map((t) => t.turn.seq));
  return {
    live: live.filter((t) => !hidden.has(t.turn.seq)),
    pass(e: DebateEvent): DebateEvent | null {
      switch (e.type) {
        case "verdict":
        case "note":
          return null;
        case "turn-start":
          if (e.turn.kind !== "speech") hidden.add(e.turn.seq);
          return hidden.has(e.turn.seq) ? null : e;
        case "delta":
        case "turn-reset":
        case "turn-error":
          return hidden.has(e.seq) ? null : e;
        case "turn-end":
          if (e.turn.kind !== "speech" || hidden.has(e.turn.seq)) return null;
          return { ...e, turn: { ...e.turn, scores: null } };
        default:
          return e;
      }
    },
  };
}
