import Link from "next/link";
import { currentPrincipal } from "@/lib/auth/server";
import { PERMISSIONS, type Permission } from "@/lib/auth/policy";

export const dynamic = "force-dynamic";
export const metadata = { title: "Not allowed" };

export default async function ForbiddenPage({ searchParams }: { searchParams: Promise<{ need?: string }> }) {
  const { need } = await searchParams;
  const me = await currentPrincipal();
  const roles = need && need in PERMISSIONS ? PERMISSIONS[need as Permission].join(" or ") : null;
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">Your account cannot open this page</h1>
      <p className="text-sm text-black/70">
        {roles ? `It needs the role ${roles}. ` : ""}
        {me
          ? `You are signed in as ${me.email} with ${me.roles.length ? `the role${me.roles.length > 1 ? "s" : ""} ${me.roles.join(", ")}` : "no role"}. `
          : ""}
        An admin can change roles on the admin page.
      </p>
      <Link href="/" className="text-sm underline">
        Home
      </Link>
    </div>
  );
}
