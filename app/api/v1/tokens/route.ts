import { routeAt } from "@/lib/api/v1";

export const dynamic = "force-dynamic";

/** API tokens of everyone, for admins: list and create (lib/api/v1/admin.ts). Every method: the ones not answered here get a JSON 405 (lib/api/route.ts). */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeAt("/api/v1/tokens");
