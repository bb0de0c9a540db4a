import type { Principal } from "@/lib/auth/policy";
import type { InterventionInput, InterventionResult } from "./contract";

/**
 * PLACEHOLDER so the page compiles before the engine is merged: the real service (issue 39's
 * engine branch) replaces this whole file. It refuses every intervention in words.
 */
export async function submitIntervention(
  _principal: Principal,
  _debateId: string,
  _input: InterventionInput,
): Promise<InterventionResult> {
  return { ok: false, code: "not_accepted", message: "Interventions are not available on this server yet." };
}
