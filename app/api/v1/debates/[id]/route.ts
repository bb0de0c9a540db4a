import { serve } from "@/lib/api/serve";
import { readDebate } from "@/lib/api/v1/read-debate";

export const dynamic = "force-dynamic";

/** A debate and its verdict (lib/api/v1/read-debate.ts). */
export const GET = serve(readDebate);
