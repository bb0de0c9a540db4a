/** What only the server loads of this method: its run (prompt files are read from disk) and its evaluation presets. */
export { proclaimProtocol as protocol } from "./protocol";
export { proclaimEvalPresets as evalPresets } from "./eval-presets";
