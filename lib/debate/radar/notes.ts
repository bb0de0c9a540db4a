import { saveCheckpoint } from "@/db/queries/debates";
import type { MethodNotes } from "../types";
import { CHECKPOINT_NOTE, checkpointSchema } from "./checkpoint";

/**
 * Where RADAR's notes are kept (server-side): its checkpoints in their own table, which
 * evaluation's calibration and the exports read. Saving again for the same checkpoint replaces
 * it, so a resumed debate that reaches a checkpoint again writes it once.
 */
export const radarNotes: MethodNotes = {
  [CHECKPOINT_NOTE]: {
    schema: checkpointSchema,
    save: (db, debateId, value) => saveCheckpoint(db, debateId, checkpointSchema.parse(value)),
  },
};
