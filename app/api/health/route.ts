import { getHealth } from "@/lib/health";
import { ConfigError } from "@/lib/config";

export const dynamic = "force-dynamic";

/** 200 while the app can serve (ok or degraded), 503 when the database is unusable. */
export async function GET() {
  try {
    const health = await getHealth();
    return Response.json(health, { status: health.status === "error" ? 503 : 200, headers: { "cache-control": "no-store" } });
  } catch (e) {
    const problems = e instanceof ConfigError ? e.problems : [(e as Error).message];
    return Response.json({ status: "error", missing: problems }, { status: 503, headers: { "cache-control": "no-store" } });
  }
}
