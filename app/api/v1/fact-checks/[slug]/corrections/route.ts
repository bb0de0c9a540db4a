import { routeAt } from "@/lib/api/v1";

export const dynamic = "force-dynamic";

/** Correct a published fact-check (lib/api/v1/fact-check-workflow.ts). Every method: the ones not answered here get a JSON 405 (lib/api/route.ts). */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeAt("/api/v1/fact-checks/{slug}/corrections");
