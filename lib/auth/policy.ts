import type { UserRole } from "@/db/schema";

/**
 * The signed-in person as every check sees it. A request made with an API token acts as the
 * token's owner with `scopes`: only those permissions, and only while the owner's roles still
 * grant them (lib/auth/api-tokens.ts).
 */
export type Principal = {
  id: string;
  email: string;
  name: string | null;
  roles: UserRole[];
  scopes?: readonly Permission[];
};

/*
 * One table of what each role may do, so pages, actions, routes and tests all ask the same
 * question. Reading debates is not here: it depends on the instance's public setting and on
 * share links (see canReadDebates in ./access).
 */
export const PERMISSIONS = {
  "debate:start": ["fact-checker", "admin"],
  "debate:control": ["fact-checker", "admin"],
  "corpus:write": ["fact-checker", "admin"],
  annotate: ["annotator"],
  "annotation:export": ["admin", "annotator", "fact-checker"],
  "agreement:read": ["admin", "annotator", "fact-checker"],
  "debate:share": ["fact-checker", "admin", "journalist"],
  /** Write, review, approve, publish and correct fact-checks in the newsroom's name. */
  "fact-check:write": ["editor", "admin"],
  admin: ["admin"],
} as const satisfies Record<string, readonly UserRole[]>;

export type Permission = keyof typeof PERMISSIONS;
export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as [Permission, ...Permission[]];

/** The permissions `roles` grant: what a token of their holder may be scoped to. */
export function permissionsOf(roles: readonly UserRole[]): Permission[] {
  return PERMISSION_NAMES.filter((p) => roles.some((r) => (PERMISSIONS[p] as readonly UserRole[]).includes(r)));
}

export function can(principal: Principal | null, permission: Permission): boolean {
  if (!principal) return false;
  if (principal.scopes && !principal.scopes.includes(permission)) return false;
  const allowed: readonly UserRole[] = PERMISSIONS[permission];
  return principal.roles.some((r) => allowed.includes(r));
}

export class AuthError extends Error {
  constructor(
    message: string,
    /** 401: nobody is signed in; 403: signed in without the role. */
    public readonly status: 401 | 403,
  ) {
    super(message);
    this.name = "AuthError";
  }
}

const ROLE_WORDS: Record<Permission, string> = {
  "debate:start": "a fact-checker or an admin",
  "debate:control": "a fact-checker or an admin",
  "corpus:write": "a fact-checker or an admin",
  annotate: "an annotator",
  "annotation:export": "an admin, annotator or fact-checker",
  "agreement:read": "an admin, annotator or fact-checker",
  "debate:share": "a fact-checker, journalist or admin",
  "fact-check:write": "an editor or an admin",
  admin: "an admin",
};

export function demand(principal: Principal | null, permission: Permission): Principal {
  if (!principal) throw new AuthError("Sign in first.", 401);
  if (
    principal.scopes &&
    !principal.scopes.includes(permission) &&
    can({ ...principal, scopes: undefined }, permission)
  )
    throw new AuthError(
      `This API token lacks the scope "${permission}"; create a token with that scope at /account/tokens.`,
      403,
    );
  if (!can(principal, permission)) throw new AuthError(`Only ${ROLE_WORDS[permission]} can do this.`, 403);
  return principal;
}
