import { serve } from "@/lib/api/serve";
import { startDebate } from "@/lib/api/v1/start-debate";

export const dynamic = "force-dynamic";

/** Start a debate (lib/api/v1/start-debate.ts). */
export const POST = serve(startDebate);
