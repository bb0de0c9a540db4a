import { serve } from "@/lib/api/serve";
import { listEvalRuns } from "@/lib/api/v1/eval-runs";

export const dynamic = "force-dynamic";

/** Evaluation runs (lib/api/v1/eval-runs.ts). */
export const GET = serve(listEvalRuns);
