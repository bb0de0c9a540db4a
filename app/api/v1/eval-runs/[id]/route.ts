import { routeAt } from "@/lib/api/v1";

export const dynamic = "force-dynamic";

/** One evaluation run (lib/api/v1/eval-runs.ts). Every method: the ones not answered here get a JSON 405 (lib/api/route.ts). */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeAt("/api/v1/eval-runs/{id}");
