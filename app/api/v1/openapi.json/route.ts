import { routeAt } from "@/lib/api/v1";

export const dynamic = "force-dynamic";

/** The OpenAPI 3.1 document, generated from the endpoints' own schemas (lib/api/openapi.ts). Every method: the ones not answered here get a JSON 405 (lib/api/route.ts). */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeAt("/api/v1/openapi.json");
