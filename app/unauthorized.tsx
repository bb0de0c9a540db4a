import Link from "next/link";

/** What a refused action shows to someone who is not signed in (401, lib/auth/action-refusal.ts). */
export default function Unauthorized() {
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">Sign in first</h1>
      <p className="text-sm text-black/70">Your session has ended or you are not signed in. Sign in, then try again.</p>
      <Link href="/signin" className="text-sm underline">
        Sign in
      </Link>
    </div>
  );
}
