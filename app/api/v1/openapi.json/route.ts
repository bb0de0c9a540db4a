import { serve } from "@/lib/api/serve";
import { ENDPOINTS } from "@/lib/api/v1";

export const dynamic = "force-dynamic";

/** The OpenAPI 3.1 document, generated from the endpoints' own schemas (lib/api/openapi.ts). */
export const GET = serve(ENDPOINTS.find((e) => e.id === "openApi")!);
