"use server";

import { listWords } from "@/lib/plural";
import { revalidatePath } from "next/cache";
import { getDb } from "@/db/client";
import { USER_ROLES, type UserRole } from "@/db/schema";
import { activeAdminCount, getUser, parseRoles, setDisabled, setRoles } from "@/db/queries/users";
import { setSetting } from "@/db/queries/settings";
import { createInvite, InviteError, revokeInvite } from "@/lib/auth/invites";
import { refusalsAsStatus } from "@/lib/auth/action-refusal";
import { getConfig } from "@/lib/config";
import { requirePermission } from "@/lib/auth/server";
import { AuthError } from "@/lib/auth/policy";
import { refuse, type FormState } from "@/lib/forms/state";
import { currentModelSettings, saveModelSettings } from "@/lib/ai/model-settings";
import {
  checkModelSettings,
  isKeyField,
  ModelSettingsInputError,
  parseModelSettingsForm,
} from "@/lib/ai/model-settings-form";

export type AdminState = FormState & { link?: string };

const rolesFrom = (form: FormData) =>
  parseRoles(
    form
      .getAll("role")
      .map(String)
      .filter((r) => (USER_ROLES as readonly string[]).includes(r)),
  );

async function guard(): Promise<{ me: Awaited<ReturnType<typeof requirePermission>> } | { error: string }> {
  try {
    return { me: await requirePermission("admin") };
  } catch (e) {
    if (e instanceof AuthError) return { error: e.message };
    throw e;
  }
}

export async function inviteAction(_prev: AdminState, form: FormData): Promise<AdminState> {
  const g = await guard();
  if ("error" in g) return refuse(form, g.error, undefined, ["role"]);
  const { db } = await getDb();
  try {
    const roles = rolesFrom(form);
    const { token, expiresAt } = await createInvite(db, {
      email: String(form.get("email") ?? ""),
      roles,
      createdBy: g.me.id,
    });
    revalidatePath("/admin");
    return {
      message: `Send this link to ${String(form.get("email"))} (${roles.length > 1 ? "roles" : "role"}: ${listWords(roles)}); it works once, until ${expiresAt.toISOString().slice(0, 10)}.`,
      link: `${getConfig().publicUrl ?? ""}/invite/${token}`,
    };
  } catch (e) {
    if (e instanceof InviteError) return refuse(form, e.message, e.field, ["role"]);
    throw e;
  }
}

export async function revokeInviteAction(form: FormData) {
  return refusalsAsStatus(async () => {
    await requirePermission("admin");
    const id = String(form.get("id") ?? "");
    if (!/^[0-9a-f-]{36}$/i.test(id)) return;
    await revokeInvite((await getDb()).db, id);
    revalidatePath("/admin");
  });
}

export async function setRolesAction(_prev: AdminState, form: FormData): Promise<AdminState> {
  const g = await guard();
  if ("error" in g) return refuse(form, g.error, undefined, ["role"]);
  const { db } = await getDb();
  const user = await getUser(db, String(form.get("userId") ?? ""));
  if (!user) return refuse(form, "That account no longer exists.", undefined, ["role"]);
  const roles: UserRole[] = rolesFrom(form);
  // The last admin removing their own role would lock everyone out of this page.
  if (user.roles.includes("admin") && !roles.includes("admin") && (await activeAdminCount(db)) <= 1) {
    return refuse(form, "This is the only admin; make someone else admin first, then remove this role.", "role", [
      "role",
    ]);
  }
  await setRoles(db, user.id, roles);
  revalidatePath("/admin");
  return { message: `${user.email}: ${roles.join(", ") || "no role"}.` };
}

export async function setDisabledAction(form: FormData) {
  return refusalsAsStatus(async () => {
    const me = await requirePermission("admin");
    const userId = String(form.get("userId") ?? "");
    if (userId === me.id || !/^[0-9a-f-]{36}$/i.test(userId)) return;
    await setDisabled((await getDb()).db, userId, form.get("disabled") === "true");
    revalidatePath("/admin");
  });
}

export async function settingsAction(_prev: AdminState, form: FormData): Promise<AdminState> {
  const g = await guard();
  if ("error" in g) return refuse(form, g.error);
  const { db } = await getDb();
  const overlap = Number(form.get("annotation_overlap"));
  // Every field is checked before anything is saved: a refused form saves nothing, rather than half of it.
  if (!Number.isInteger(overlap) || overlap < 1 || overlap > 20)
    return refuse(form, "Annotators per debate must be a whole number from 1 to 20.", "annotation_overlap");
  const guidelines = String(form.get("annotation_guidelines") ?? "");
  if (guidelines.length > 50_000)
    return refuse(
      form,
      `The guidelines are ${guidelines.length.toLocaleString("en-US")} characters; the limit is 50,000. Shorten them or link to a longer document.`,
      "annotation_guidelines",
    );
  // Claim matching (lib/matching): a field left out of the post keeps its setting.
  const threshold = form.get("match_threshold");
  const matchThreshold = threshold === null ? null : Number(threshold);
  if (matchThreshold !== null && !(String(threshold).trim() !== "" && matchThreshold >= 0 && matchThreshold <= 1))
    return refuse(
      form,
      "The similarity an earlier check must reach is a number from 0 to 1, e.g. 0.4.",
      "match_threshold",
    );
  const windowDays = form.get("match_date_window_days");
  const matchWindow = windowDays === null ? null : Number(windowDays);
  if (matchWindow !== null && !(Number.isInteger(matchWindow) && matchWindow >= 1 && matchWindow <= 36_500))
    return refuse(form, "The date window is a whole number of days from 1 to 36,500.", "match_date_window_days");
  const flag = form.get("live_flag_threshold");
  const liveFlag = flag === null ? null : Number(flag);
  if (liveFlag !== null && !(String(flag).trim() !== "" && liveFlag >= 0 && liveFlag <= 1))
    return refuse(
      form,
      "The live desk's alert threshold is a check-worthiness score from 0 to 1, e.g. 0.8.",
      "live_flag_threshold",
    );
  await setSetting(db, "public_reading", form.get("public_reading") === "on");
  await setSetting(db, "blind_annotation", form.get("blind_annotation") === "on");
  await setSetting(db, "show_verdict_before_label", form.get("show_verdict_before_label") === "on");
  await setSetting(db, "fact_check_second_approval", form.get("fact_check_second_approval") === "on");
  if (matchThreshold !== null) await setSetting(db, "match_threshold", matchThreshold);
  if (matchWindow !== null) await setSetting(db, "match_date_window_days", matchWindow);
  if (liveFlag !== null) await setSetting(db, "live_flag_threshold", liveFlag);
  await setSetting(db, "annotation_overlap", overlap);
  await setSetting(db, "annotation_guidelines", guidelines);
  revalidatePath("/", "layout");
  return { message: "Settings saved." };
}

/** A refusal of the model settings form: what was entered comes back, except any key. */
function refuseModels(form: FormData, error: string, field?: string): AdminState {
  const state = refuse(form, error, field);
  for (const name of Object.keys(state.values ?? {})) if (isKeyField(name)) delete state.values![name];
  for (const name of Object.keys(state.lists ?? {})) if (isKeyField(name)) delete state.lists![name];
  return state;
}

/**
 * Providers, keys and models, in use at once on every server and worker (no restart). Each model
 * the settings put in use answers a one-token call first, as `counterpoint doctor` checks it;
 * one that does not is refused, and what was saved before stays.
 */
export async function modelSettingsAction(_prev: AdminState, form: FormData): Promise<AdminState> {
  const g = await guard();
  if ("error" in g) return refuseModels(form, g.error);
  const { db } = await getDb();
  const { settings: saved } = await currentModelSettings(db);
  let next;
  try {
    next = parseModelSettingsForm(form, saved);
  } catch (e) {
    if (e instanceof ModelSettingsInputError) return refuseModels(form, e.message, e.field);
    throw e;
  }
  const checks = await checkModelSettings(next);
  const failed = checks.find(
    (c) => c.status === "failed" || (c.status === "missing" && !c.name.startsWith("model local:")),
  );
  if (failed) {
    const id = failed.name.replace(/^model /, "");
    // The call's error starts with the id and its attempts; the sentence names the model once.
    const detail = failed.detail.startsWith(`${id} `)
      ? failed.detail.slice(id.length + 1).replace(/^failed after \d+ attempts?: /, "")
      : failed.detail;
    return refuseModels(
      form,
      `Not saved: ${id} ${failed.status === "failed" ? "did not answer" : "cannot be used"}: ${detail}.${failed.fix ? ` ${failed.fix}` : ""} The settings in use are unchanged.`.replace(
        /\.\./g,
        ".",
      ),
    );
  }
  await saveModelSettings(db, next);
  revalidatePath("/", "layout");
  const answered = checks.filter((c) => c.status === "ok").map((c) => `${c.name.replace(/^model /, "")} ${c.detail}`);
  const waiting = checks
    .filter((c) => c.status === "missing")
    .map((c) => `${c.name.replace(/^model /, "")}: ${c.detail}`);
  return {
    message: [
      "Saved; in use now on every server and worker.",
      answered.length ? `Checked: ${answered.join("; ")}.` : "No model is chosen yet, so nothing was checked.",
      waiting.length ? `Not ready yet: ${waiting.join("; ")}.` : "",
    ]
      .filter(Boolean)
      .join(" "),
  };
}
