/** What only the server loads of this method: its run (prompt files are read from disk) and its evaluation presets. */
export { zofiaProtocol as protocol } from "./protocol";
export { zofiaEvalPresets as evalPresets } from "./eval-presets";
