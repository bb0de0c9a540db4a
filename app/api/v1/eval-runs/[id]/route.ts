import { serve } from "@/lib/api/serve";
import { readEvalRun } from "@/lib/api/v1/eval-runs";

export const dynamic = "force-dynamic";

/** One evaluation run (lib/api/v1/eval-runs.ts). */
export const GET = serve(readEvalRun);
