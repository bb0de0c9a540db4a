import { routeAt } from "@/lib/api/v1";

export const dynamic = "force-dynamic";

/** A test event sent to one webhook now (lib/api/v1/admin.ts). Every method: the ones not answered here get a JSON 405 (lib/api/route.ts). */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeAt("/api/v1/webhooks/{id}/test");
