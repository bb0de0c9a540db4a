import { redirect } from "next/navigation";
import { NEW_PASSWORD, YOUR_NAME } from "@/components/auth-fields";
import { getDb } from "@/db/client";
import { countUsers } from "@/db/queries/users";
import { getConfig } from "@/lib/config";
import { ensureSetupCode, setupCodeFile, setupCodeMessage } from "@/lib/auth/setup";
import { AuthForm } from "@/components/auth-form";
import { setupAction } from "../signin/actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Set up" };

/** Exists only until the first account does; afterwards it sends people to sign in. */
export default async function SetupPage() {
  const { db } = await getDb();
  if ((await countUsers(db)) > 0) redirect("/signin");
  const config = getConfig();
  const code = await ensureSetupCode(db, config.dataDir);
  // Normally printed at start-up already; a new one is printed here only when the file was removed.
  if (code) console.log(setupCodeMessage(code, config.dataDir));
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Create the first admin</h1>
      <p className="max-w-prose text-sm text-black/70">
        Nobody has an account yet. The setup code is printed in the terminal where the server runs (look for “First-run
        setup code”) and saved in <code>{setupCodeFile(config.dataDir)}</code>; asking for it means only whoever runs
        the server can claim this instance. You can also run{" "}
        <code>npx counterpoint user create --admin --email you@example.org</code> with the server stopped.
      </p>
      <AuthForm
        action={setupAction}
        fields={[
          { name: "code", label: "Setup code", autoComplete: "off" },
          YOUR_NAME,
          { name: "email", label: "Email", type: "email", autoComplete: "username" },
          ...NEW_PASSWORD,
        ]}
        submit="Create admin account"
      />
    </div>
  );
}
