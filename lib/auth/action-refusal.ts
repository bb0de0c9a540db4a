import { forbidden, unauthorized } from "next/navigation";
import { AuthError } from "./policy";

/**
 * The authorization half of a server action that returns nothing (a plain `<form action>`): a
 * refusal (AuthError) becomes Next's 401 or 403 interrupt, rendered by app/unauthorized.tsx and
 * app/forbidden.tsx with a sentence saying what to do, instead of an uncaught error that the
 * framework answers with a 500 and a digest. Anything else is rethrown untouched (redirects
 * included), so the action's own behaviour does not change.
 *
 *   export async function cancelJobAction(form: FormData) {
 *     return refusalsAsStatus(async () => { await requirePermission("corpus:write"); ... });
 *   }
 *
 * Actions that return a state to a form catch AuthError themselves and put its message in the
 * state; tests/integration/action-refusals.test.ts calls every exported action signed out and
 * without the role and fails on any other outcome.
 */
export async function refusalsAsStatus<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof AuthError) {
      if (e.status === 401) unauthorized();
      forbidden();
    }
    throw e;
  }
}
