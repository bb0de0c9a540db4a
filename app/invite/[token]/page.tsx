import { listWords } from "@/lib/plural";
import { NEW_PASSWORD, YOUR_NAME } from "@/components/auth-fields";
import { getDb } from "@/db/client";
import { AuthForm } from "@/components/auth-form";
import { findOpenInvite } from "@/lib/auth/invites";
import { acceptInviteAction } from "../../signin/actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Accept invitation", robots: { index: false } };

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const { db } = await getDb();
  const invite = await findOpenInvite(db, token);
  if (!invite) {
    return (
      <div className="space-y-4">
        <h1 className="text-2xl font-semibold tracking-tight">This invitation cannot be used</h1>
        <p className="text-sm text-black/70">
          It has expired, was revoked, or was already used. Ask an admin for a new link.
        </p>
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Welcome to Counterpoint</h1>
      <p className="text-sm text-black/70">
        You are invited as <strong>{invite.email}</strong> with the role{invite.roles.length > 1 ? "s" : ""}{" "}
        {listWords(invite.roles)}. Choose a password to create your account. The link works once, until{" "}
        {invite.expiresAt.toISOString().slice(0, 10)}.
      </p>
      <AuthForm
        action={acceptInviteAction}
        hidden={{ token }}
        fields={[YOUR_NAME, ...NEW_PASSWORD]}
        submit="Create my account"
      />
    </div>
  );
}
