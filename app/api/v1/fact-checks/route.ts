import { serve } from "@/lib/api/serve";
import { listFactChecks } from "@/lib/api/v1/fact-checks";

export const dynamic = "force-dynamic";

/** Published fact-checks (lib/api/v1/fact-checks.ts). */
export const GET = serve(listFactChecks);
