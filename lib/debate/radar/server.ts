/** What only the server loads of this method: its run (prompt files are read from disk) and its evaluation presets. */
export { radarProtocol as protocol } from "./protocol";
export { radarEvalPresets as evalPresets } from "./eval-presets";
