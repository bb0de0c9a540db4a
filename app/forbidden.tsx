import Link from "next/link";
import { currentPrincipal } from "@/lib/auth/server";

/** What a refused action (403, lib/auth/action-refusal.ts) shows: who you are and who can do it. */
export default async function Forbidden() {
  const me = await currentPrincipal();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">Your account cannot do this</h1>
      <p className="text-sm text-black/70">
        {me
          ? `You are signed in as ${me.email} with ${me.roles.length ? `the role${me.roles.length > 1 ? "s" : ""} ${me.roles.join(", ")}` : "no role"}. `
          : ""}
        This needs another role, or it belongs to someone else (a share link can be revoked only by the person who made
        it, or an admin). An admin can change roles on the admin page.
      </p>
      <Link href="/" className="text-sm underline">
        Home
      </Link>
    </div>
  );
}
