export const GRAPH_BUILDER_VERSION: number;
export const PROBE_LAYER: number;
export function buildMiniLmGraph(opts: { weightsPath: string; configPath: string; int8?: boolean }): Uint8Array;
export function quantizeColumns(w: Float32Array, rows: number, cols: number): { q: Int8Array; scales: Float32Array };
