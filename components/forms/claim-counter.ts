import type { Counter } from "@/components/ui/field";
import { claimCount, claimLengthError } from "@/lib/debate/claim-length";

/**
 * The claim box's counter: the length against the limit as the user types or pastes, and the same
 * refusal the server gives for an over-long claim (lib/debate/claim-length.ts holds both).
 */
export const claimCounter = (testId: string): Counter => ({
  count: claimCount,
  over: (text) => claimLengthError(text),
  testId,
});
