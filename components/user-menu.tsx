import Link from "next/link";
import { can } from "@/lib/auth/policy";
import { currentPrincipal } from "@/lib/auth/server";
import { signOutAction } from "@/app/signin/actions";

/** The signed-in person and the pages their roles open; a sign-in link otherwise. */
export async function UserMenu() {
  let me = null;
  try {
    me = await currentPrincipal();
  } catch {
    // An unusable database is explained by the status panel; the menu just shows "Sign in".
  }
  const link = "text-sm text-black/70 hover:text-black";
  if (!me) {
    return (
      <Link href="/signin" className={link}>
        Sign in
      </Link>
    );
  }
  return (
    <>
      {can(me, "annotate") ? (
        <Link href="/annotate" className={link}>
          Annotate
        </Link>
      ) : null}
      {can(me, "agreement:read") ? (
        <Link href="/agreement" className={link}>
          Agreement
        </Link>
      ) : null}
      {can(me, "admin") ? (
        <Link href="/admin" className={link}>
          Admin
        </Link>
      ) : null}
      <form action={signOutAction} className="flex items-center gap-2">
        <span className="max-w-40 truncate text-xs text-black/60" data-testid="signed-in-as" title={me.roles.join(", ")}>
          {me.email}
        </span>
        <button type="submit" className={link}>
          Sign out
        </button>
      </form>
    </>
  );
}
