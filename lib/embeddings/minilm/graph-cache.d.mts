export type GraphVariant = "fp32" | "int8";
export function graphPaths(opts: { cacheDir: string; variant: GraphVariant }): { graph: string; manifest: string };
export function ensureGraph(opts: {
  cacheDir: string;
  variant: GraphVariant;
  weightsPath: string;
  configPath: string;
  packageVersion: string;
}): Promise<{ path: string; sha256: string; built: boolean }>;
export function removeOlderVersions(opts: { cacheDir: string; variant: GraphVariant }): void;
export function verifyGraph(opts: { cacheDir: string; variant: GraphVariant }): {
  path: string;
  state: "missing" | "ok" | "mismatch";
  sha256?: string;
  optimized: { path: string; state: "missing" | "ok" | "mismatch" };
};
export function optimizedPaths(opts: { cacheDir: string; variant: GraphVariant }): {
  dir: string;
  model: string;
  weights: string;
  manifest: string;
};
