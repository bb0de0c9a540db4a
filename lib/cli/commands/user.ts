import type { Command } from "commander";
import { getDb } from "@/db/client";
import { USER_ROLES } from "@/db/schema";
import {
  createUser,
  emailProblem,
  findUserByEmail,
  listUsers,
  parseRoles,
  setPassword,
  setRoles,
} from "@/db/queries/users";
import { hashPassword, passwordProblem } from "@/lib/auth/password";
import { revokeUserSessions } from "@/lib/auth/sessions";
import { emit, green } from "../output";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  // One trailing newline is what `echo` and password managers add; it is not part of the password.
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

/** Reads a password from the terminal without echoing it. */
async function prompt(question: string): Promise<string> {
  if (!process.stdin.isTTY) throw new Error("No terminal to ask for a password: pipe it in with --password-stdin.");
  process.stderr.write(question);
  process.stdin.setRawMode(true);
  process.stdin.resume();
  let value = "";
  try {
    for await (const chunk of process.stdin) {
      for (const ch of (chunk as Buffer).toString("utf8")) {
        if (ch === "\r" || ch === "\n") return value;
        if (ch === "\u0003") throw new Error("Cancelled.");
        if (ch === "\u007f") value = value.slice(0, -1);
        else value += ch;
      }
    }
    return value;
  } finally {
    process.stdin.setRawMode(false);
    process.stdin.pause();
    process.stderr.write("\n");
  }
}

async function askPassword(stdin: boolean): Promise<string> {
  if (stdin) return readStdin();
  const first = await prompt("Password: ");
  const again = await prompt("Password again: ");
  if (first !== again) throw new Error("The two passwords differ.");
  return first;
}

const collect = (v: string, prev: string[]) => [...prev, v];

export function register(program: Command) {
  const user = program
    .command("user")
    .description("Manage accounts (with the server stopped when using the embedded database).");

  user
    .command("create")
    .description("Create an account; `--admin` for the first admin of a new installation.")
    .requiredOption("--email <email>", "the sign-in address")
    .option("--name <name>", "display name")
    .option("--admin", "give the admin role")
    .option("--role <role>", `a role to give (${USER_ROLES.join(", ")}); repeatable`, collect, [])
    .option("--password-stdin", "read the password from standard input instead of asking")
    .option("--json", "print JSON")
    .action(
      async (opts: {
        email: string;
        name?: string;
        admin?: boolean;
        role: string[];
        passwordStdin?: boolean;
        json?: boolean;
      }) => {
        const problem = emailProblem(opts.email);
        if (problem) throw new Error(problem);
        const roles = parseRoles([...opts.role, ...(opts.admin ? ["admin"] : [])]);
        if (roles.length === 0)
          throw new Error(`Give the account a role: --admin or --role <${USER_ROLES.join("|")}>.`);
        const password = await askPassword(!!opts.passwordStdin);
        const weak = passwordProblem(password);
        if (weak) throw new Error(weak);
        const { db } = await getDb();
        const u = await createUser(db, {
          email: opts.email,
          name: opts.name,
          passwordHash: await hashPassword(password),
          roles,
        });
        emit(
          !!opts.json,
          { id: u.id, email: u.email, roles },
          () => `${green("✔")} Created ${u.email} (${roles.join(", ")}). Sign in at /signin.`,
        );
      },
    );

  user
    .command("list")
    .description("List accounts and their roles.")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const { db } = await getDb();
      const users = await listUsers(db);
      emit(
        !!opts.json,
        users.map((u) => ({ id: u.id, email: u.email, name: u.name, roles: u.roles, disabled: !!u.disabledAt })),
        () =>
          users.length
            ? users
                .map((u) => `${u.email}\t${u.roles.join(",") || "(no role)"}${u.disabledAt ? "\tdisabled" : ""}`)
                .join("\n")
            : "No accounts yet.",
      );
    });

  user
    .command("roles")
    .description("Replace an account's roles.")
    .requiredOption("--email <email>")
    .option("--role <role>", "a role; repeatable (none removes every role)", collect, [])
    .option("--json", "print JSON")
    .action(async (opts: { email: string; role: string[]; json?: boolean }) => {
      const { db } = await getDb();
      const u = await findUserByEmail(db, opts.email);
      if (!u) throw new Error(`No account for ${opts.email}.`);
      const roles = parseRoles(opts.role);
      await setRoles(db, u.id, roles);
      emit(!!opts.json, { email: u.email, roles }, () => `${green("✔")} ${u.email}: ${roles.join(", ") || "no role"}.`);
    });

  user
    .command("password")
    .description("Set a new password and sign the account out everywhere.")
    .requiredOption("--email <email>")
    .option("--password-stdin", "read the password from standard input")
    .option("--json", "print JSON")
    .action(async (opts: { email: string; passwordStdin?: boolean; json?: boolean }) => {
      const { db } = await getDb();
      const u = await findUserByEmail(db, opts.email);
      if (!u) throw new Error(`No account for ${opts.email}.`);
      const password = await askPassword(!!opts.passwordStdin);
      const weak = passwordProblem(password);
      if (weak) throw new Error(weak);
      await setPassword(db, u.id, await hashPassword(password));
      await revokeUserSessions(db, u.id);
      emit(
        !!opts.json,
        { email: u.email },
        () => `${green("✔")} New password set for ${u.email}; their sessions were signed out.`,
      );
    });
}
