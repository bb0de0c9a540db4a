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

/**
 * A progress line on stderr: redrawn in place on a terminal, one newline-terminated line per call
 * otherwise (a pipe or a log file shows "\r" as nothing, so redrawn lines ran together). `end()`
 * finishes the redrawn line on a terminal and writes nothing on a pipe.
 */
export function progressWriter(stream: NodeJS.WriteStream = process.stderr) {
  const tty = !!stream.isTTY;
  let drawn = false;
  return {
    show(line: string) {
      if (tty) {
        stream.write(`\r${line}\u001b[K`);
        drawn = true;
      } else stream.write(`${line}\n`);
    },
    end() {
      if (tty && drawn) stream.write("\n");
      drawn = false;
    },
  };
}
