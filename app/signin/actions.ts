"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { getConfig } from "@/lib/config";
import { emailProblem } from "@/db/queries/users";
import { passwordProblem } from "@/lib/auth/password";
import { revokeSession, SESSION_COOKIE } from "@/lib/auth/sessions";
import { signIn } from "@/lib/auth/signin";
import { createFirstAdmin, SetupError } from "@/lib/auth/setup";
import { acceptInvite, InviteError } from "@/lib/auth/invites";
import { clearSessionCookie, clientAddress, setSessionCookie } from "@/lib/auth/server";
import { createSession } from "@/lib/auth/sessions";
import { cookies } from "next/headers";
import { refuse, type FormState } from "@/lib/forms/state";

export type AuthFormState = FormState;

/** Only same-site paths: an open redirect after sign-in would make phishing links look genuine. */
function safeNext(raw: FormDataEntryValue | null) {
  const next = typeof raw === "string" ? raw : "";
  return next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
}

export async function signInAction(_prev: AuthFormState, form: FormData): Promise<AuthFormState> {
  const email = String(form.get("email") ?? "").trim();
  const password = String(form.get("password") ?? "");
  const { db } = await getDb();
  const result = await signIn(db, {
    email,
    password,
    address: await clientAddress(),
    userAgent: (await headers()).get("user-agent"),
  });
  // Which of the two was wrong is not said (it would tell a stranger which emails have accounts).
  if (!result.ok) return refuse(form, result.error);
  await setSessionCookie(result.token, result.expiresAt);
  redirect(safeNext(form.get("next")));
}

export async function signOutAction() {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  if (token) await revokeSession((await getDb()).db, token);
  await clearSessionCookie();
  redirect("/");
}

export async function setupAction(_prev: AuthFormState, form: FormData): Promise<AuthFormState> {
  const email = String(form.get("email") ?? "").trim();
  const password = String(form.get("password") ?? "");
  const emailWrong = emailProblem(email);
  if (emailWrong) return refuse(form, emailWrong, "email");
  const passwordWrong = passwordProblem(password);
  if (passwordWrong) return refuse(form, passwordWrong, "password");
  if (password !== String(form.get("confirm") ?? ""))
    return refuse(form, "The two passwords differ: type the same password in both fields.", "confirm");
  const { db } = await getDb();
  try {
    const user = await createFirstAdmin(db, getConfig().dataDir, {
      code: String(form.get("code") ?? ""),
      email,
      name: String(form.get("name") ?? "").trim() || null,
      password,
    });
    const session = await createSession(db, user.id, { userAgent: (await headers()).get("user-agent") });
    await setSessionCookie(session.token, session.expiresAt);
  } catch (e) {
    if (e instanceof SetupError) return refuse(form, e.message, e.field);
    throw e;
  }
  // The first run goes on to what to do next (a corpus, a model, a first debate), not to the admin page.
  redirect("/welcome");
}

export async function acceptInviteAction(_prev: AuthFormState, form: FormData): Promise<AuthFormState> {
  const password = String(form.get("password") ?? "");
  if (password !== String(form.get("confirm") ?? ""))
    return refuse(form, "The two passwords differ: type the same password in both fields.", "confirm");
  const { db } = await getDb();
  try {
    const r = await acceptInvite(db, {
      token: String(form.get("token") ?? ""),
      password,
      name: String(form.get("name") ?? "").trim() || null,
      userAgent: (await headers()).get("user-agent"),
    });
    await setSessionCookie(r.token, r.expiresAt);
  } catch (e) {
    if (e instanceof InviteError) return refuse(form, e.message, e.field);
    throw e;
  }
  redirect("/");
}
