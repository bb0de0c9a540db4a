/** Every command prints either human-readable lines or, with --json, one JSON document on stdout. */
export function emit(json: boolean, data: unknown, human: () => string) {
  process.stdout.write(json ? `${JSON.stringify(data, null, 2)}\n` : `${human()}\n`);
}

const useColor = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: number) => (s: string) => (useColor ? `\u001b[${code}m${s}\u001b[0m` : s);
export const green = paint(32);
export const red = paint(31);
export const yellow = paint(33);
export const dim = paint(2);
export const bold = paint(1);
