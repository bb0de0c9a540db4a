/** What only the server loads of this method: its run (prompt files are read from disk) and its evaluation presets. */
export { toolMadProtocol as protocol } from "./protocol";
export { toolMadEvalPresets as evalPresets } from "./eval-presets";
