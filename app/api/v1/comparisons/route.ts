import { routeAt } from "@/lib/api/v1";

export const dynamic = "force-dynamic";

/** Compare methods on one claim, and list comparisons (lib/api/v1/start-comparison.ts, comparisons.ts). Every method: the ones not answered here get a JSON 405 (lib/api/route.ts). */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeAt("/api/v1/comparisons");
