import type { UserRole } from "@/db/schema";

/** The signed-in person as every check sees it. */
export type Principal = { id: string; email: string; name: string | null; roles: UserRole[] };

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

export function can(principal: Principal | null, permission: Permission): boolean {
  if (!principal) return false;
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
  if (!can(principal, permission)) throw new AuthError(`Only ${ROLE_WORDS[permission]} can do this.`, 403);
  return principal;
}
