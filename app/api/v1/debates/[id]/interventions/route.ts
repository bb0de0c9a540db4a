import { routeAt } from "@/lib/api/v1";

export const dynamic = "force-dynamic";

/** A debate's interventions: list and submit (lib/api/v1/interventions.ts). Every method: the ones not answered here get a JSON 405 (lib/api/route.ts). */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeAt("/api/v1/debates/{id}/interventions");
