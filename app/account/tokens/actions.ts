"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/db/client";
import { createApiToken, revokeApiToken, TokenRequestError, type CreateTokenInput } from "@/lib/auth/api-tokens";
import { refusalsAsStatus } from "@/lib/auth/action-refusal";
import { announceRevoked } from "@/lib/auth/revocations";
import { AuthError, demand } from "@/lib/auth/policy";
import { currentPrincipal } from "@/lib/auth/server";
import { refuse, type FormState } from "@/lib/forms/state";

/** `token` is the new token in clear: shown once, on the page that made it, never stored. */
export type TokenFormState = FormState & { token?: string };

/** Makes an API token: one's own, or (admins) someone else's; its scopes never exceed the owner's roles. */
export async function createTokenAction(_prev: TokenFormState, form: FormData): Promise<TokenFormState> {
  const me = await currentPrincipal();
  if (!me) return refuse(form, "Sign in first.", undefined, ["scope"]);
  const userId = String(form.get("userId") ?? "") || undefined;
  try {
    if (userId && userId !== me.id) demand(me, "admin");
    const input: CreateTokenInput = {
      name: String(form.get("name") ?? ""),
      scopes: form.getAll("scope").map(String) as CreateTokenInput["scopes"],
      expires: (String(form.get("expires") ?? "") || undefined) as CreateTokenInput["expires"],
      userId,
    };
    const { db } = await getDb();
    const { token, row } = await createApiToken(db, me, input);
    revalidatePath("/account/tokens");
    return {
      token,
      message: `Token “${row.name}” made. Copy it now: it is shown only this once.`,
    };
  } catch (e) {
    if (e instanceof TokenRequestError)
      return refuse(form, e.message, e.field === "scopes" ? "scope" : e.field, ["scope"]);
    if (e instanceof AuthError) return refuse(form, e.message, undefined, ["scope"]);
    throw e;
  }
}

/** Revokes a token (form field `id`): one's own, or any for an admin. Requests with it are refused from now on. */
export async function revokeTokenAction(form: FormData) {
  return refusalsAsStatus(async () => {
    const me = await currentPrincipal();
    if (!me) throw new AuthError("Sign in first.", 401);
    const { db } = await getDb();
    try {
      const row = await revokeApiToken(db, me, String(form.get("id") ?? ""));
      // Streams opened with it in this process end now; elsewhere within a few seconds (api-token-watch).
      announceRevoked(`api-token:${row.id}`);
    } catch (e) {
      if (e instanceof TokenRequestError) throw new AuthError(e.message, 403);
      throw e;
    }
    revalidatePath("/account/tokens");
  });
}
