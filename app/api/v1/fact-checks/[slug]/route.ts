import { serve } from "@/lib/api/serve";
import { readFactCheck } from "@/lib/api/v1/fact-checks";

export const dynamic = "force-dynamic";

/** One published fact-check (lib/api/v1/fact-checks.ts). */
export const GET = serve(readFactCheck);
