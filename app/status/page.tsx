import { StatusPanel } from "@/components/status-panel";
import { getHealth } from "@/lib/health";

export const dynamic = "force-dynamic";
export const metadata = { title: "System status" };

export default async function StatusPage() {
  const health = await getHealth();
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">System status</h1>
      <StatusPanel health={health} />
      <p className="text-sm text-black/60">
        Machine-readable: <a className="underline" href="/api/health">/api/health</a> · version {health.version}
      </p>
    </div>
  );
}
