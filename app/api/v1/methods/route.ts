import { serve } from "@/lib/api/serve";
import { listMethods } from "@/lib/api/v1/methods";

export const dynamic = "force-dynamic";

/** The methods and their presets (lib/api/v1/methods.ts). */
export const GET = serve(listMethods);
