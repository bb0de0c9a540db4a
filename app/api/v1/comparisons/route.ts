import { serve } from "@/lib/api/serve";
import { startComparison } from "@/lib/api/v1/start-comparison";

export const dynamic = "force-dynamic";

/** Compare methods on one claim (lib/api/v1/start-comparison.ts). */
export const POST = serve(startComparison);
