import Link from "next/link";
import { Section } from "@/components/ui/section";
import { ScrollTable } from "@/components/ui/table-head";
import { PostButton } from "@/components/ui/post-button";
import { getDb } from "@/db/client";
import { USER_ROLES } from "@/db/schema";
import { listUsers } from "@/db/queries/users";
import { getSettings } from "@/db/queries/settings";
import { listInvites } from "@/lib/auth/invites";
import { pagePermission } from "@/lib/auth/server";
import { InviteForm, RolesForm, SettingsForm } from "@/components/admin/forms";
import { ModelSettingsForm } from "@/components/admin/model-settings-form";
import { modelSettingsView } from "@/lib/ai/model-settings-form";
import { revokeInviteAction, setDisabledAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Admin" };

export default async function AdminPage() {
  const me = await pagePermission("admin", "/admin");
  const { db } = await getDb();
  const [users, invites, settings, models] = await Promise.all([
    listUsers(db),
    listInvites(db),
    getSettings(db),
    modelSettingsView(db),
  ]);
  const now = Date.now();
  const open = invites.filter((i) => !i.usedAt && !i.revokedAt && i.expiresAt.getTime() > now);
  return (
    <div className="space-y-10">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Admin</h1>
        <p className="text-sm text-black/70">
          Just set up?{" "}
          <Link href="/welcome" className="underline">
            The first steps
          </Link>
          : evidence, a language model, a first debate.{" "}
          <a href="#models" className="underline">
            Language models
          </a>
          : providers, keys and which model debates use.{" "}
          <Link href="/admin/webhooks" className="underline">
            Webhooks
          </Link>
          : tell your other systems when a verdict is in.
        </p>
      </div>

      <Section id="models" title="Language models">
        <ModelSettingsForm view={models} />
      </Section>

      <Section id="people" title="People">
        <ScrollTable columns={["Account", "Roles", "Access"]} cell="py-1 pr-4">
          {users.map((u) => (
            <tr key={u.id} className="border-t border-black/10 align-top" data-testid="user-row" data-email={u.email}>
              <td className="py-2 pr-4">
                <div className="font-medium">{u.email}</div>
                {u.name ? <div className="text-black/60">{u.name}</div> : null}
              </td>
              <td className="py-2 pr-4">
                <RolesForm userId={u.id} roles={u.roles} allRoles={[...USER_ROLES]} />
              </td>
              <td className="py-2">
                {u.id === me.id ? (
                  <span className="text-black/60">you</span>
                ) : (
                  <PostButton
                    action={setDisabledAction}
                    fields={{ userId: u.id, disabled: u.disabledAt ? "false" : "true" }}
                  >
                    {u.disabledAt ? "Enable" : "Disable and sign out"}
                  </PostButton>
                )}
              </td>
            </tr>
          ))}
        </ScrollTable>
      </Section>

      <Section id="invite" title="Invite someone">
        <InviteForm allRoles={[...USER_ROLES]} />
        {open.length ? (
          <ul className="space-y-1 text-sm">
            {open.map((i) => (
              <li key={i.id} className="flex flex-wrap gap-2">
                <span>
                  {i.email} ({i.roles.join(", ")}), until {i.expiresAt.toISOString().slice(0, 10)}
                </span>
                <PostButton action={revokeInviteAction} fields={{ id: i.id }} className="text-red-800 underline">
                  Revoke
                </PostButton>
              </li>
            ))}
          </ul>
        ) : null}
      </Section>

      <Section id="settings" title="Instance settings">
        <SettingsForm settings={settings} />
      </Section>
    </div>
  );
}
