import Link from "next/link";
import { getDb } from "@/db/client";
import { can, type Principal } from "@/lib/auth/policy";
import { canReadDebates } from "@/lib/auth/access";
import { currentPrincipal } from "@/lib/auth/server";
import { signOutAction } from "@/app/signin/actions";
import { NavMenu } from "./nav-menu";

type NavLink = { href: string; label: string };

/**
 * The pages this person can use, and nothing else: a link that only leads to "forbidden" or to
 * sign-in is an offer the product cannot keep. The pages check again on the server; hiding a link
 * is a courtesy, never the control.
 */
export function navLinks(me: Principal | null, readable: boolean): NavLink[] {
  const links: NavLink[] = [];
  if (can(me, "debate:start"))
    links.push({ href: "/debates/new", label: "Check a claim" }, { href: "/check-text", label: "Check a text" });
  if (readable)
    links.push(
      { href: "/debates", label: "Debates" },
      { href: "/live", label: "Live" },
      { href: "/compare", label: "Compare" },
      { href: "/corpora", label: "Corpora" },
      { href: "/eval", label: "Evaluation" },
      { href: "/methods", label: "Methods" },
    );
  if (can(me, "annotate")) links.push({ href: "/annotate", label: "Annotate" });
  if (can(me, "agreement:read")) links.push({ href: "/agreement", label: "Agreement" });
  if (can(me, "fact-check:write")) links.push({ href: "/fact-checks/desk", label: "Fact-checks" });
  return links;
}

async function whoAndWhat(): Promise<{ me: Principal | null; readable: boolean }> {
  try {
    const me = await currentPrincipal();
    return { me, readable: await canReadDebates((await getDb()).db, me) };
  } catch {
    // An unusable database is explained by the status panel; the header just offers sign-in.
    return { me: null, readable: false };
  }
}

const link = "whitespace-nowrap text-sm text-black/70 hover:text-black";
const item = "block whitespace-nowrap rounded-md px-3 py-2 text-sm hover:bg-black/5";

/** Admin (for admins), system status, and sign-out or sign-in: the same in the account menu and the compact menu. */
function AccountItems({ me }: { me: Principal | null }) {
  return (
    <>
      {can(me, "admin") ? (
        <Link href="/admin" className={item}>
          Admin
        </Link>
      ) : null}
      {me ? (
        <Link href="/account/tokens" className={item}>
          API tokens
        </Link>
      ) : null}
      <Link href="/status" className={item}>
        System status
      </Link>
      {me ? (
        <form action={signOutAction}>
          <button type="submit" className={`${item} w-full text-left`}>
            Sign out
          </button>
        </form>
      ) : (
        <Link href="/signin" className={item}>
          Sign in
        </Link>
      )}
    </>
  );
}

/** The whole navigation bar: one line at desktop widths, a compact menu on a phone. */
export async function SiteNav() {
  const { me, readable } = await whoAndWhat();
  const links = navLinks(me, readable);
  return (
    <nav className="mx-auto flex max-w-6xl items-center gap-x-4 px-4 py-3" aria-label="Main">
      <Link href="/" className="shrink-0 text-lg font-semibold tracking-tight">
        Counter<span className="text-accent">point</span>
      </Link>
      {/* Eleven links for an admin fit 1280 px only this tight (e2e/live.spec.ts checks nothing scrolls sideways). */}
      <div className="hidden items-center gap-x-3 lg:flex" data-testid="nav-links">
        {links.map((l) => (
          <Link key={l.href} href={l.href} className={link}>
            {l.label}
          </Link>
        ))}
      </div>
      {readable ? (
        <form
          action="/search"
          method="get"
          role="search"
          className="ml-auto flex min-w-0 flex-1 justify-end lg:flex-none"
        >
          <label htmlFor="nav-search" className="sr-only">
            Search passages
          </label>
          <input
            id="nav-search"
            name="q"
            type="search"
            placeholder="Search"
            className="w-full min-w-0 max-w-48 rounded-md border border-black/20 bg-white px-2 py-1 text-sm lg:w-28"
          />
        </form>
      ) : (
        <span className="ml-auto" />
      )}
      {me ? (
        <NavMenu
          className="hidden lg:block"
          label={`Account: ${me.email}`}
          panelClassName="w-64"
          summary={
            <>
              <span className="max-w-28 truncate xl:max-w-36" data-testid="signed-in-as" title={me.roles.join(", ")}>
                {me.email}
              </span>
              <span aria-hidden>▾</span>
            </>
          }
        >
          <p className="px-3 py-1 text-xs text-black/60">Signed in as {me.roles.join(", ")}</p>
          <AccountItems me={me} />
        </NavMenu>
      ) : (
        <span className="hidden items-center gap-x-5 lg:flex">
          <Link href="/status" className={link}>
            System status
          </Link>
          <Link href="/signin" className={link}>
            Sign in
          </Link>
        </span>
      )}
      <NavMenu
        className="lg:hidden"
        label="Menu"
        panelClassName="w-60"
        summary={
          <>
            <span>Menu</span>
            <span aria-hidden>▾</span>
          </>
        }
      >
        <div data-testid="compact-menu">
          {me ? <p className="truncate px-3 py-1 text-xs text-black/60">{me.email}</p> : null}
          {links.map((l) => (
            <Link key={l.href} href={l.href} className={item}>
              {l.label}
            </Link>
          ))}
          <AccountItems me={me} />
        </div>
      </NavMenu>
    </nav>
  );
}
