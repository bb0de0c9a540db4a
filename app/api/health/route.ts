import { getHealth, publicHealth } from "@/lib/health";
import { principalFromRequest } from "@/lib/auth/server";
import { ConfigError } from "@/lib/config";

export const dynamic = "force-dynamic";

/** 200 while the app can serve (ok or degraded), 503 when the database is unusable. */
export async function GET(request: Request) {
  try {
    const full = await getHealth();
    const me = full.database.ok ? await principalFromRequest(request).catch(() => null) : null;
    // Monitoring needs the status and the parts; only an admin gets paths, error texts and missing settings.
    const health = me?.roles.includes("admin") ? full : publicHealth(full);
    return Response.json(health, {
      status: health.status === "error" ? 503 : 200,
      headers: { "cache-control": "no-store" },
    });
  } catch (e) {
    // The configuration is unreadable: the server's console says which variable; nobody here is known to be an admin.
    const problems =
      e instanceof ConfigError
        ? [
            `${e.problems.length} setting${e.problems.length === 1 ? " is" : "s are"} invalid; the server's console names them.`,
          ]
        : ["The server cannot check its health; its console says why."];
    return Response.json(
      { status: "error", missing: problems },
      { status: 503, headers: { "cache-control": "no-store" } },
    );
  }
}
