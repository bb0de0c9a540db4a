import { StatusPanel } from "@/components/status-panel";
import { getHealth, publicHealth } from "@/lib/health";
import { currentPrincipal } from "@/lib/auth/server";

export const dynamic = "force-dynamic";
export const metadata = { title: "System status" };

export default async function StatusPage() {
  const full = await getHealth();
  const me = await currentPrincipal().catch(() => null);
  // Only admins see the database's location, error texts and missing settings.
  const health = me?.roles.includes("admin") ? full : publicHealth(full);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">System status</h1>
      <StatusPanel health={health} />
      <p className="text-sm text-black/60">
        Machine-readable:{" "}
        <a className="underline" href="/api/health">
          /api/health
        </a>{" "}
        · version {health.version}
      </p>
    </div>
  );
}
