import { serve } from "@/lib/api/serve";
import { ENDPOINTS } from "@/lib/api/v1";

export const dynamic = "force-dynamic";

/** Earlier checks of a claim (lib/api/v1/match-claim.ts). */
export const POST = serve(ENDPOINTS.find((e) => e.id === "matchClaim")!);
