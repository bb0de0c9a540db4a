/** RADAR's variants, in a module of their own so that browser code can list them. */
export const RADAR_VARIANTS = ["expertise", "position", "single", "three-agent", "four-agent", "cot"] as const;
export type RadarVariant = (typeof RADAR_VARIANTS)[number];
