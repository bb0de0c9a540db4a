import Link from "next/link";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { countUsers } from "@/db/queries/users";
import { AuthForm } from "@/components/auth-form";
import { signInAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  const { db } = await getDb();
  if ((await countUsers(db)) === 0) redirect("/setup");
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Sign in</h1>
      <AuthForm
        action={signInAction}
        hidden={{ next: typeof next === "string" ? next : "/" }}
        fields={[
          { name: "email", label: "Email", type: "email", autoComplete: "username" },
          { name: "password", label: "Password", type: "password", autoComplete: "current-password" },
        ]}
        submit="Sign in"
      />
      <p className="text-sm text-black/60">
        No account? An admin invites you by email link. Lost your password? An admin can send a new invitation.{" "}
        <Link href="/" className="underline">
          Home
        </Link>
      </p>
    </div>
  );
}
