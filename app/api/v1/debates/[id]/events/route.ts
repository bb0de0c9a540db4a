import { serve } from "@/lib/api/serve";
import { debateEvents } from "@/lib/api/v1/debate-events";

export const dynamic = "force-dynamic";

/** A debate's live events (lib/api/v1/debate-events.ts). */
export const GET = serve(debateEvents);
