import {
  claimForRun,
  completeWithVerdict,
  dropUnfinishedTurns,
  evidenceFromRows,
  finishClaimedDebate,
  finishDebate,
  getDebateStatus,
  heartbeat,
  KEPT_TURN_STATUSES,
  loadForRun,
  markOrphansInterrupted,
  otherDebateRunners,
  releaseClaim,
} from "./debate-run";
import { addDebateEvidence, beginTurn, failTurn, finishTurn, insertStepTurn } from "./debate-steps";
import { saveNote } from "./debate-notes";

/**
 * Everything a debate's run keeps, in one object: the engine's run store (its type,
 * RunStore, is in lib/debate/run-store.ts; this object has its shape). The composition root hands
 * it to the engine.
 */
export const debateRunStore = {
  claimForRun,
  getDebateStatus,
  heartbeat,
  releaseClaim,
  finishClaimedDebate,
  finishDebate,
  otherDebateRunners,
  markOrphansInterrupted,
  loadForRun,
  evidenceFromRows,
  keptTurnStatuses: KEPT_TURN_STATUSES,
  dropUnfinishedTurns,
  beginTurn,
  finishTurn,
  failTurn,
  insertStepTurn,
  addDebateEvidence,
  saveNote,
  completeWithVerdict,
};
